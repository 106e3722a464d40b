import Foundation
import XCTest
import LocalHTTPServer
@testable import NewsstandCore

/// https against `openssl s_server -HTTP` with a self-signed certificate: verified, never downgraded.
final class HTTPClientTLSTests: XCTestCase {
    /// `openssl s_server -HTTP` answering `GET /NAME` with the file NAME (each a whole HTTP response).
    private func tlsServer(_ responses: [String: String]) throws -> TLSTestServer {
        try TLSTestServer.start("/usr/bin/openssl", for: self, files: responses.mapValues { Data($0.utf8) }) { port in
            ["s_server", "-accept", "127.0.0.1:\(port)", "-cert", "cert.pem", "-key", "key.pem", "-HTTP", "-quiet"]
        }
    }

    private static func response(_ status: String, headers: [String] = [], body: String = "") -> String {
        (["HTTP/1.0 \(status)", "Content-Length: \(body.utf8.count)"] + headers).joined(separator: "\r\n") + "\r\n\r\n" + body
    }

    func testHTTPSIsVerifiedAgainstTheTrustedAuthorities() throws {
        let server = try tlsServer(["feed.xml": Self.response("200 OK", headers: ["Content-Type: application/atom+xml"], body: "<feed>secure</feed>")])
        let trusting = HTTPTestSupport.client(certificateAuthority: server.certificate)
        let response = try trusting.fetch(HTTPTestSupport.request(server.url("/feed.xml")))
        XCTAssertEqual(response.body, Data("<feed>secure</feed>".utf8))

        let result = HTTPTestSupport.run(HTTPTestSupport.client(), HTTPTestSupport.request(server.url("/feed.xml")), sink: HTTPBufferSink(capacity: 1024))
        guard case .certificate(let host, _)? = result.error else { return XCTFail("\(result.events)") }
        XCTAssertEqual(host, "127.0.0.1")
        XCTAssertTrue(result.error!.description.hasPrefix("the certificate of 127.0.0.1 cannot be trusted: "), result.error!.description)
    }

    func testARedirectFromHTTPSToHTTPIsRefused() throws {
        let plain = try TestSupport.server(for: self)
        plain.setResource("/feed.xml", data: Data("<feed>in the clear</feed>".utf8))
        let server = try tlsServer(["moved": Self.response("302 Found", headers: ["Location: \(plain.url(for: "/feed.xml").absoluteString)"])])
        let sink = HTTPBufferSink(capacity: 1024)
        let result = HTTPTestSupport.run(HTTPTestSupport.client(certificateAuthority: server.certificate),
                                         HTTPTestSupport.request(server.url("/moved")), sink: sink)
        XCTAssertEqual(result.error, .insecureRedirect(host: "127.0.0.1"))
        XCTAssertTrue(result.error!.description.hasPrefix("refused a redirect from https to http"))
        XCTAssertTrue(plain.requestLog.isEmpty, "the http URL was never asked")
        XCTAssertEqual(sink.receivedBytes, 0)
    }

    func testRedirectsFromHTTPSMayOnlyStayOnHTTPS() {
        XCTAssertEqual(CurlTransfer.redirectProtocols(for: URL(string: "https://example.com/feed")!), "https")
        XCTAssertEqual(CurlTransfer.redirectProtocols(for: URL(string: "HTTPS://example.com/feed")!), "https")
        XCTAssertEqual(CurlTransfer.redirectProtocols(for: URL(string: "http://example.com/feed")!), "http,https")
    }
}
