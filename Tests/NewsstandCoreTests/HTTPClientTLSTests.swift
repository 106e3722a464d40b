import Foundation
import XCTest
import LocalHTTPServer
@testable import NewsstandCore

/// https against `openssl s_server -HTTP` with a self-signed certificate: verified, never downgraded.
final class HTTPClientTLSTests: XCTestCase {
    /// `openssl s_server` answering `GET /NAME` with the file NAME of a folder (each a whole HTTP response).
    private struct TLSServer {
        let port: UInt16
        let certificate: URL

        func url(_ path: String) -> URL { URL(string: "https://127.0.0.1:\(port)\(path)")! }
    }

    private func runOpenSSL(_ arguments: [String], in folder: URL) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = arguments
        process.currentDirectoryURL = folder
        process.standardOutput = Pipe()
        process.standardError = Pipe()
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw XCTSkip("openssl \(arguments.first ?? "") failed") }
    }

    private func freePort() throws -> UInt16 {
        let probe = LocalHTTPServer()
        try probe.start()
        let port = probe.port
        probe.stop()
        return port
    }

    /// Starts s_server with `responses` (file name → whole response), stopped at the end of the test.
    private func tlsServer(_ responses: [String: String]) throws -> TLSServer {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl") else { throw XCTSkip("openssl is not installed") }
        let folder = try TestFiles.scratchFolder(for: self)
        try runOpenSSL(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                        "-keyout", "key.pem", "-out", "cert.pem", "-days", "2", "-subj", "/CN=127.0.0.1",
                        "-addext", "subjectAltName=IP:127.0.0.1"], in: folder)
        for (name, response) in responses {
            try Data(response.utf8).write(to: folder.appendingPathComponent(name))
        }
        let port = try freePort()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = ["s_server", "-accept", "127.0.0.1:\(port)", "-cert", "cert.pem", "-key", "key.pem", "-HTTP", "-quiet"]
        process.currentDirectoryURL = folder
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        addTeardownBlock {
            process.terminate()
            process.waitUntilExit()
        }
        // Ready when it accepts a connection.
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr = in_addr(s_addr: UInt32(0x7F00_0001).bigEndian)
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            close(fd)
            if connected == 0 { return TLSServer(port: port, certificate: folder.appendingPathComponent("cert.pem")) }
            usleep(20_000)
        }
        throw XCTSkip("openssl s_server did not start")
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
