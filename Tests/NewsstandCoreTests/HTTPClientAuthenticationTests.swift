import Foundation
import XCTest
import LocalHTTPServer
@testable import NewsstandCore

/// Logins: a 401 is a clear answer at once; Basic and Digest succeed with a login from the credential source or
/// from `.netrc`; a proxy's 407 says so; a password is never part of a message.
final class HTTPClientAuthenticationTests: XCTestCase {
    private let password = "pa55:w0rd\u{e9}"

    private func server(_ scheme: RequiredLogin.Scheme, realm: String = "Calibre library") throws -> LocalHTTPServer {
        let server = try TestSupport.server(for: self)
        server.setResource("/opds", data: Data("<feed>catalog</feed>".utf8), contentType: "application/atom+xml")
        var plan = FaultPlan()
        plan.requiredLogin = RequiredLogin(scheme: scheme, realm: realm, user: "reader", password: password)
        server.faults = plan
        return server
    }

    private func netrc(_ text: String) throws -> URL {
        let file = try TestFiles.scratchFolder(for: self).appendingPathComponent("netrc")
        try Data(text.utf8).write(to: file)
        return file
    }

    func testUnauthorizedWithoutALoginFailsAtOnceNamingTheHostAndRealm() throws {
        for scheme in [RequiredLogin.Scheme.basic, .digest] {
            let server = try server(scheme)
            let sink = HTTPBufferSink(capacity: 1 << 20)
            let start = Date()
            let result = HTTPTestSupport.run(HTTPTestSupport.client(), HTTPTestSupport.request(server.url(for: "/opds")), sink: sink)
            XCTAssertLessThan(Date().timeIntervalSince(start), 2, "a 401 is an answer, not a wait")
            XCTAssertEqual(result.error, .loginRequired(host: "127.0.0.1", realm: "Calibre library"))
            XCTAssertEqual(result.error?.description, "127.0.0.1 asks for a login (\u{201C}Calibre library\u{201D})")
            XCTAssertEqual(result.error?.isTransient, false)
            XCTAssertEqual(sink.receivedBytes, 0, "the 401 page never reaches the sink")
            XCTAssertEqual(server.log(atLeast: 1).map(\.status), [401])
        }
    }

    func testBasicAndDigestSucceedWithALoginFromTheCredentialSource() throws {
        for scheme in [RequiredLogin.Scheme.basic, .digest] {
            let server = try server(scheme)
            let source = FixedCredentials([nil: Credentials(user: "reader", password: password)])
            let response = try HTTPTestSupport.client(credentials: source).fetch(HTTPTestSupport.request(server.url(for: "/opds")))
            XCTAssertEqual(response.body, Data("<feed>catalog</feed>".utf8), "\(scheme)")
            XCTAssertEqual(source.questions, ["127.0.0.1:\(server.port):-"], "asked once, before the request")
            XCTAssertEqual(server.log(atLeast: 2).map(\.status), [401, 200], "libcurl learns the scheme from the challenge")
            let authorization = server.settledLog().last?.headers["authorization"] ?? ""
            XCTAssertTrue(authorization.hasPrefix(scheme == .basic ? "Basic " : "Digest "), authorization)
            XCTAssertFalse(server.settledLog().contains { $0.target.contains("reader") }, "never in the URL")
        }
    }

    func testBasicAndDigestSucceedWithALoginFromNetrc() throws {
        for scheme in [RequiredLogin.Scheme.basic, .digest] {
            let server = try server(scheme)
            let netrc = try netrc("machine 127.0.0.1\n  login reader\n  password \"\(password)\"\n")
            let response = try HTTPTestSupport.client(netrc: netrc).fetch(HTTPTestSupport.request(server.url(for: "/opds")))
            XCTAssertEqual(response.status, 200, "\(scheme)")
            XCTAssertEqual(response.body, Data("<feed>catalog</feed>".utf8))
        }
    }

    func testNetrcComesFromTheEnvironmentsNETRCElseHOME() {
        XCTAssertEqual(HTTPClient.Configuration.netrcFile(in: ["NETRC": "/x/netrc", "HOME": "/home/u"]), "/x/netrc")
        XCTAssertEqual(HTTPClient.Configuration.netrcFile(in: ["HOME": "/home/u"]), "/home/u/.netrc")
        XCTAssertNil(HTTPClient.Configuration.netrcFile(in: [:]))
        XCTAssertEqual(HTTPClient.Configuration(environment: ["NETRC": "/x/netrc"]).netrcFile, "/x/netrc")
        // By default, the process's own NETRC and HOME.
        let process = ProcessInfo.processInfo.environment
        XCTAssertEqual(HTTPClient.Configuration.netrcVariables(), process.filter { ["NETRC", "HOME"].contains($0.key) })
        XCTAssertEqual(HTTPClient.Configuration().netrcFile, HTTPClient.Configuration.netrcFile(in: process))
    }

    func testTheRealmsLoginIsAskedForAfterThe401() throws {
        let server = try server(.digest, realm: "Members")
        let source = FixedCredentials(["Members": Credentials(user: "reader", password: password)])
        let response = try HTTPTestSupport.client(credentials: source).fetch(HTTPTestSupport.request(server.url(for: "/opds")))
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(source.questions, ["127.0.0.1:\(server.port):-", "127.0.0.1:\(server.port):Members"])
    }

    func testAWrongLoginIsRejectedAtOnceWithoutThePassword() throws {
        for scheme in [RequiredLogin.Scheme.basic, .digest] {
            let server = try server(scheme)
            let wrong = "not-the-\(password)"
            let source = FixedCredentials([nil: Credentials(user: "reader", password: wrong)])
            let start = Date()
            let result = HTTPTestSupport.run(HTTPTestSupport.client(credentials: source), HTTPTestSupport.request(server.url(for: "/opds")),
                                             sink: HTTPBufferSink(capacity: 1 << 20))
            XCTAssertLessThan(Date().timeIntervalSince(start), 2)
            XCTAssertEqual(result.error, .loginRejected(host: "127.0.0.1", realm: "Calibre library", user: "reader"))
            XCTAssertEqual(result.error?.description, "127.0.0.1 did not accept the login for reader (\u{201C}Calibre library\u{201D})")
            XCTAssertFalse("\(result.events)".contains(wrong))
            XCTAssertLessThanOrEqual(server.log(atLeast: 2).count, 3, "no retrying in circles")
        }
    }

    func testALoginIsNeverSentToTheServerARedirectLeadsTo() throws {
        let elsewhere = try server(.basic)
        let first = try TestSupport.server(for: self)
        var plan = FaultPlan()
        plan.redirectTo = elsewhere.url(for: "/opds").absoluteString
        first.faults = plan
        let source = FixedCredentials([nil: Credentials(user: "reader", password: password)])
        let result = HTTPTestSupport.run(HTTPTestSupport.client(credentials: source), HTTPTestSupport.request(first.url(for: "/opds")),
                                         sink: HTTPBufferSink(capacity: 1 << 20))
        XCTAssertEqual(result.error, .loginRequired(host: "127.0.0.1", realm: "Calibre library"))
        XCTAssertEqual(source.questions, ["127.0.0.1:\(first.port):-"], "asked for the first host only")
        XCTAssertTrue(elsewhere.log(atLeast: 1).allSatisfy { $0.headers["authorization"] == nil }, "no login to another host")
    }

    func testPasswordsAreScrubbedFromLibcurlsWords() {
        XCTAssertEqual(CurlTransfer.scrub("Could not resolve proxy: http://u:secret@proxy.example:8080/", password: nil),
                       "Could not resolve proxy: http://proxy.example:8080/")
        XCTAssertEqual(CurlTransfer.scrub("said secret twice: secret", password: "secret"), "said •••••• twice: ••••••")
        XCTAssertEqual(CurlTransfer.withoutCredentials(URL(string: "https://u:p@example.com/a?b")!), "https://example.com/a?b")
    }

    func testRealmIsReadFromBasicAndDigestChallenges() {
        XCTAssertEqual(CurlTransfer.realm(in: "Basic realm=\"Calibre library\", charset=\"UTF-8\""), "Calibre library")
        XCTAssertEqual(CurlTransfer.realm(in: "Digest qop=\"auth\", realm=\"a \\\"quoted\\\" one\", nonce=\"x\""), "a \"quoted\" one")
        XCTAssertEqual(CurlTransfer.realm(in: "Basic realm=plain"), "plain")
        XCTAssertNil(CurlTransfer.realm(in: "Bearer"))
        XCTAssertNil(CurlTransfer.realm(in: nil))
    }

    // MARK: Proxies

    /// Runs `body` with `http_proxy` (and nothing in `no_proxy`) set for libcurl to read, then puts them back.
    private func withProxy(_ proxy: String, _ body: () throws -> Void) rethrows {
        let names = ["http_proxy", "no_proxy", "NO_PROXY", "all_proxy", "ALL_PROXY"]
        let saved = names.map { ($0, getenv($0).map { String(cString: $0) }) }
        defer {
            for (name, value) in saved {
                if let value { setenv(name, value, 1) } else { unsetenv(name) }
            }
        }
        for name in names { unsetenv(name) }
        setenv("http_proxy", proxy, 1)
        try body()
    }

    func testAProxyAsking407SaysTheProxyAsksForALogin() throws {
        let proxy = try TestSupport.server(for: self)
        proxy.setResource("/feed.xml", data: Data("<feed>via proxy</feed>".utf8))
        var plan = FaultPlan()
        plan.requiredProxyLogin = RequiredLogin(realm: "proxy", user: "p", password: "q")
        proxy.faults = plan
        let feedURL = URL(string: "http://feeds.example/feed.xml")!
        withProxy("http://127.0.0.1:\(proxy.port)") {
            let result = HTTPTestSupport.run(HTTPTestSupport.client(), HTTPTestSupport.request(feedURL), sink: HTTPBufferSink(capacity: 1 << 20))
            XCTAssertEqual(result.error, .proxyLoginRequired)
            XCTAssertTrue(result.error?.description.hasPrefix("the proxy asks for a login") == true)
            XCTAssertEqual(proxy.log(atLeast: 1).first?.target, "http://feeds.example/feed.xml", "asked as a proxy, in absolute form")
        }
        try withProxy("http://p:q@127.0.0.1:\(proxy.port)") {
            let response = try HTTPTestSupport.client().fetch(HTTPTestSupport.request(feedURL))
            XCTAssertEqual(response.body, Data("<feed>via proxy</feed>".utf8), "the proxy's login from http_proxy")
        }
    }
}
