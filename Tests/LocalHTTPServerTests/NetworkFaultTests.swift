import Foundation
import NewsstandTestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif
@testable import LocalHTTPServer

/// The faults a network client must survive: endless and bomb bodies, drips, stalls, redirects, logins, a proxy,
/// and keep-alive (to count connections).
final class NetworkFaultTests: XCTestCase {
    private func server(_ configure: (inout FaultPlan) -> Void) throws -> LocalHTTPServer {
        let server = try makeServer(self)
        server.setResource("/feed.xml", data: Data("<feed/>".utf8), contentType: "application/atom+xml")
        var plan = FaultPlan()
        configure(&plan)
        server.faults = plan
        return server
    }

    /// Reads from `fd` until `count` bytes arrived, the peer closed, or the socket's receive timeout passed.
    private func read(_ fd: Int32, atLeast count: Int) -> (data: Data, timedOut: Bool) {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while data.count < count {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress!, $0.count, 0) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { return (data, errno == EAGAIN || errno == EWOULDBLOCK) }
            if n == 0 { break }
            data.append(contentsOf: buffer[0..<n])
        }
        return (data, false)
    }

    /// Waits (at most 5 s) until the server has logged `count` requests.
    private func waitForLog(_ server: LocalHTTPServer, count: Int) {
        let deadline = Date().addingTimeInterval(5)
        while server.requestLog.count < count && Date() < deadline { usleep(10_000) }
    }

    func testEndlessBodyKeepsComingWithoutALength() throws {
        let server = try server { $0.endlessBody = true }
        let fd = try RawHTTP.connect(port: server.port, timeoutSeconds: 5)
        RawHTTP.send(fd, "GET /anything HTTP/1.1\r\nHost: x\r\n\r\n")
        let (data, timedOut) = read(fd, atLeast: 4 << 20)
        close(fd)
        XCTAssertFalse(timedOut)
        XCTAssertGreaterThanOrEqual(data.count, 4 << 20, "still sending after 4 MB")
        let response = try RawHTTP.parse(data)
        XCTAssertEqual(response.status, 200)
        XCTAssertNil(response.contentLength)
        XCTAssertEqual(response.headers["connection"], "close")
        XCTAssertTrue(String(decoding: response.body.prefix(200), as: UTF8.self).contains("<feed"))
        waitForLog(server, count: 1)
        XCTAssertGreaterThanOrEqual(server.requestLog.first?.bodyBytesSent ?? 0, 4 << 20)
    }

    func testTheSettledLogWaitsForRequestsBeingAnsweredAndNoLonger() throws {
        let server = try server { $0.endlessBody = true }
        XCTAssertEqual(server.settledLog(timeout: 0), [], "nothing asked, nothing to wait for")
        let fd = try RawHTTP.connect(port: server.port, timeoutSeconds: 5)
        RawHTTP.send(fd, "GET /endless HTTP/1.1\r\nHost: x\r\n\r\n")
        _ = read(fd, atLeast: 1 << 16)
        // Still being answered: the log has no record yet, and waiting for it ends at the timeout.
        let started = Date()
        XCTAssertEqual(server.settledLog(timeout: 0.3), [])
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(started), 0.25)
        // Once the client leaves, the server records the request, and the settled log has it at once.
        close(fd)
        let settled = server.settledLog(timeout: 5)
        XCTAssertEqual(settled.map(\.path), ["/endless"])
        XCTAssertGreaterThanOrEqual(settled.first?.bodyBytesSent ?? 0, 1 << 16)
    }

    func testCRC32OfZerosMatchesTheBytewiseComputation() {
        func bytewise(_ count: Int) -> UInt32 {
            var crc: UInt32 = 0xFFFF_FFFF
            for _ in 0..<count {
                for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
            }
            return crc ^ 0xFFFF_FFFF
        }
        XCTAssertEqual(GzipBomb.crc32OfZeros(0), 0)
        XCTAssertEqual(GzipBomb.crc32OfZeros(1), 0xD202_EF8D)
        for count in [2, 3, 775, 1807, 65_536, 100_003] {
            XCTAssertEqual(GzipBomb.crc32OfZeros(Int64(count)), bytewise(count), "\(count) zeros")
        }
    }

    func testGzipBombIsAValidGzipOfZerosAThousandTimesItsSize() throws {
        let server = try server { $0.gzipBombInflatedBytes = 50_000_000 }
        let response = try RawHTTP.request(port: server.port, "GET", "/feed.xml")
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.headers["content-encoding"], "gzip")
        XCTAssertEqual(response.contentLength, response.body.count)
        let bomb = GzipBomb(inflatedBytes: 50_000_000)
        XCTAssertEqual(Int64(response.body.count), bomb.compressedBytes)
        XCTAssertLessThan(response.body.count, 50_000, "about 1/1,000 of what it inflates to")
        XCTAssertEqual(bomb.inflatedBytes, 775 + 1032 * bomb.zeroBytes)
        XCTAssertLessThanOrEqual(abs(bomb.inflatedBytes - 50_000_000), 1032)

        // gzip itself decodes it, checking the CRC and length of the trailer.
        let folder = try TestFiles.scratchFolder(for: self)
        let file = folder.appendingPathComponent("bomb.gz")
        try response.body.write(to: file)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "n=$(gzip -dc \"$0\" | wc -c); gzip -dc \"$0\" | cmp -s -n \"$n\" - /dev/zero && echo \"$n\"", file.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = Pipe()
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let numbers = text.split(whereSeparator: \.isWhitespace).compactMap { Int64($0) }
        XCTAssertEqual(numbers, [bomb.inflatedBytes], "the whole length, all zeros: \(text)")

        let check = Process()
        check.executableURL = URL(fileURLWithPath: "/bin/sh")
        check.arguments = ["-c", "gzip -t \"$0\"", file.path]
        try check.run()
        check.waitUntilExit()
        XCTAssertEqual(check.terminationStatus, 0, "gzip -t accepts the trailer's CRC and length")

        let huge = GzipBomb(inflatedBytes: 4 << 30)
        XCTAssertLessThan(huge.compressedBytes, 5 << 20, "4 GiB from less than 5 MB")
    }

    func testSlowDripSendsOneByteASecond() throws {
        let server = try server { $0.slowDrip = true }
        let fd = try RawHTTP.connect(port: server.port, timeoutSeconds: 1)
        defer { close(fd) }
        RawHTTP.send(fd, "GET /feed.xml HTTP/1.1\r\nHost: x\r\n\r\n")
        let start = Date()
        var data = Data()
        while Date().timeIntervalSince(start) < 1.5 {
            let (chunk, _) = read(fd, atLeast: 1)
            data.append(chunk)
        }
        let body = try RawHTTP.parse(data).body
        XCTAssertGreaterThanOrEqual(body.count, 1)
        XCTAssertLessThanOrEqual(body.count, 3, "one byte a second, not the 7-byte body at once")
        XCTAssertEqual(body, Data("<feed/>".utf8).prefix(body.count))
    }

    func testStallAfterBytesSendsThatMuchThenNothingWithTheConnectionOpen() throws {
        let server = try server { $0.stallAfterBytes = 1000 }
        server.setResource("/issue.epub", data: TestFiles.pseudoRandomData(count: 200_000))
        let fd = try RawHTTP.connect(port: server.port, timeoutSeconds: 1)
        RawHTTP.send(fd, "GET /issue.epub HTTP/1.1\r\nHost: x\r\n\r\n")
        let (data, timedOut) = read(fd, atLeast: 300_000)
        XCTAssertTrue(timedOut, "the connection stays open")
        let response = try RawHTTP.parse(data)
        XCTAssertEqual(response.contentLength, 200_000)
        XCTAssertEqual(response.body.count, 1000)
        XCTAssertTrue(server.requestLog.isEmpty, "the response is not over")
        close(fd)
        waitForLog(server, count: 1)
        XCTAssertEqual(server.requestLog.first?.bodyBytesSent, 1000, "the server lets go once the client leaves")
    }

    func testRedirectLoopPointsEveryRequestAtItself() throws {
        let server = try server { $0.redirectLoop = true }
        let response = try RawHTTP.request(port: server.port, "GET", "/feed.xml?page=2")
        XCTAssertEqual(response.status, 302)
        XCTAssertEqual(response.headers["location"], "/feed.xml?page=2")
    }

    func testRedirectToSendsEveryRequestToTheConfiguredURL() throws {
        let server = try server { $0.redirectTo = "http://example.invalid/moved.xml" }
        let response = try RawHTTP.request(port: server.port, "HEAD", "/feed.xml")
        XCTAssertEqual(response.status, 302)
        XCTAssertEqual(response.headers["location"], "http://example.invalid/moved.xml")
    }

    func testBasicLoginIsAskedForAndChecked() throws {
        let login = RequiredLogin(scheme: .basic, realm: "Calibre library", user: "reader", password: "s3cret:word")
        let server = try server { $0.requiredLogin = login }
        let refused = try RawHTTP.request(port: server.port, "GET", "/feed.xml")
        XCTAssertEqual(refused.status, 401)
        XCTAssertEqual(refused.headers["www-authenticate"], "Basic realm=\"Calibre library\", charset=\"UTF-8\"")
        let wrong = Data("reader:guess".utf8).base64EncodedString()
        XCTAssertEqual(try RawHTTP.request(port: server.port, "GET", "/feed.xml", headers: ["Authorization": "Basic \(wrong)"]).status, 401)
        let right = Data("reader:s3cret:word".utf8).base64EncodedString()
        let accepted = try RawHTTP.request(port: server.port, "GET", "/feed.xml", headers: ["Authorization": "Basic \(right)"])
        XCTAssertEqual(accepted.status, 200)
        XCTAssertEqual(accepted.body, Data("<feed/>".utf8))
    }

    func testDigestCheckAcceptsTheRFCExample() {
        // RFC 2617, section 3.5 (MD5, qop=auth): the answer a client computes for this challenge.
        let check = LoginCheck(login: RequiredLogin(scheme: .digest, realm: "testrealm@host.com", user: "Mufasa", password: "Circle Of Life"),
                               nonce: "dcd98b7102dd2f0e8b11d0f600bfb0c093")
        let answer = """
            Digest username="Mufasa", realm="testrealm@host.com", nonce="dcd98b7102dd2f0e8b11d0f600bfb0c093", \
            uri="/dir/index.html", qop=auth, nc=00000001, cnonce="0a4f113b", \
            response="6629fae49393a05397450978507c4ef1", opaque="5ccc069c403ebaf9f0171e9517f40e41"
            """
        XCTAssertTrue(check.accepts(answer, method: "GET", target: "/dir/index.html"))
        XCTAssertFalse(check.accepts(answer, method: "GET", target: "/dir/other.html"), "the uri is part of the proof")
        XCTAssertFalse(check.accepts(answer.replacingOccurrences(of: "6629", with: "6630"), method: "GET", target: "/dir/index.html"))
        XCTAssertEqual(LoginCheck.md5Hex(""), "d41d8cd98f00b204e9800998ecf8427e")
    }

    func testDigestLoginIsAskedForAndChecked() throws {
        let login = RequiredLogin(scheme: .digest, realm: "OPDS", user: "reader", password: "pw")
        let server = try server { $0.requiredLogin = login }
        let refused = try RawHTTP.request(port: server.port, "GET", "/feed.xml")
        XCTAssertEqual(refused.status, 401)
        let challenge = try XCTUnwrap(refused.headers["www-authenticate"])
        XCTAssertTrue(challenge.hasPrefix("Digest "), challenge)
        let fields = LoginCheck.parameters(String(challenge.dropFirst(7)))
        XCTAssertEqual(fields["realm"], "OPDS")
        XCTAssertEqual(fields["qop"], "auth")
        XCTAssertEqual(fields["algorithm"], "MD5")
        let nonce = try XCTUnwrap(fields["nonce"])
        let ha1 = LoginCheck.md5Hex("reader:OPDS:pw"), ha2 = LoginCheck.md5Hex("GET:/feed.xml")
        let response = LoginCheck.md5Hex("\(ha1):\(nonce):00000001:abcdef:auth:\(ha2)")
        let answer = "Digest username=\"reader\", realm=\"OPDS\", nonce=\"\(nonce)\", uri=\"/feed.xml\", qop=auth, nc=00000001, cnonce=\"abcdef\", response=\"\(response)\""
        XCTAssertEqual(try RawHTTP.request(port: server.port, "GET", "/feed.xml", headers: ["Authorization": answer]).status, 200)
        let basic = Data("reader:pw".utf8).base64EncodedString()
        XCTAssertEqual(try RawHTTP.request(port: server.port, "GET", "/feed.xml", headers: ["Authorization": "Basic \(basic)"]).status, 401,
                       "a Digest server takes no Basic answer")
    }

    func testProxyLoginAnswersAbsoluteFormRequests() throws {
        let server = try server { $0.requiredProxyLogin = RequiredLogin(realm: "proxy", user: "p", password: "q") }
        let refused = try RawHTTP.request(port: server.port, "GET", "http://feeds.example/feed.xml")
        XCTAssertEqual(refused.status, 407)
        XCTAssertEqual(refused.headers["proxy-authenticate"], "Basic realm=\"proxy\", charset=\"UTF-8\"")
        XCTAssertEqual(server.requestLog.last?.target, "http://feeds.example/feed.xml")
        XCTAssertEqual(server.requestLog.last?.path, "/feed.xml")
        let tunnel = try RawHTTP.request(port: server.port, "CONNECT", "feeds.example:443")
        XCTAssertEqual(tunnel.status, 407, "CONNECT is asked for the login too")

        let proof = Data("p:q".utf8).base64EncodedString()
        let served = try RawHTTP.request(port: server.port, "GET", "http://feeds.example/feed.xml",
                                         headers: ["Proxy-Authorization": "Basic \(proof)"])
        XCTAssertEqual(served.status, 200)
        XCTAssertEqual(served.body, Data("<feed/>".utf8))
    }

    func testKeepAliveServesSeveralRequestsOnOneConnection() throws {
        let server = try makeServer(self)
        server.keepsConnectionsAlive = true
        server.setResource("/a", data: Data("first".utf8))
        server.setResource("/b", data: Data("second".utf8))
        let fd = try RawHTTP.connect(port: server.port, timeoutSeconds: 5)
        defer { close(fd) }
        var bodies: [String] = []
        for path in ["/a", "/b", "/a"] {
            RawHTTP.send(fd, "GET \(path) HTTP/1.1\r\nHost: x\r\n\r\n")
            var data = Data()
            var response: RawResponse?
            while response == nil {
                let (chunk, timedOut) = read(fd, atLeast: 1)
                XCTAssertFalse(timedOut)
                guard !chunk.isEmpty else { break }
                data.append(chunk)
                if let parsed = try? RawHTTP.parse(data), let length = parsed.contentLength, parsed.body.count >= length {
                    response = parsed
                }
            }
            let complete = try XCTUnwrap(response)
            XCTAssertEqual(complete.headers["connection"], "keep-alive")
            bodies.append(String(decoding: complete.body, as: UTF8.self))
        }
        XCTAssertEqual(bodies, ["first", "second", "first"])
        XCTAssertEqual(server.connectionCount, 1)

        // A client asking to close gets `Connection: close`, and so does everyone when keep-alive is off.
        let closing = try RawHTTP.request(port: server.port, "GET", "/a")
        XCTAssertEqual(closing.headers["connection"], "close")
        server.keepsConnectionsAlive = false
        let fd2 = try RawHTTP.connect(port: server.port)
        defer { close(fd2) }
        RawHTTP.send(fd2, "GET /b HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(try RawHTTP.parse(RawHTTP.readAll(fd2)).headers["connection"], "close")
        XCTAssertEqual(server.connectionCount, 3)
    }
}
