import Foundation
import NewsstandTestSupport
import XCTest
@testable import LocalHTTPServer

final class FaultInjectionTests: XCTestCase {
    private let payload = TestFiles.pseudoRandomData(count: 200_000)

    private func server() throws -> LocalHTTPServer {
        let server = try makeServer(self)
        server.setResource("/issue.epub", data: payload, contentType: "application/epub+zip")
        return server
    }

    func testDropConnectionAfterBytesTruncatesTheNextResponsesOnly() throws {
        let server = try server()
        var plan = FaultPlan()
        plan.dropConnectionAfterBytes = 50_000
        plan.dropCount = 2
        server.faults = plan

        for _ in 0..<2 {
            let truncated = try RawHTTP.request(port: server.port, "GET", "/issue.epub")
            XCTAssertEqual(truncated.status, 200)
            XCTAssertEqual(truncated.contentLength, payload.count, "the full length is still announced")
            XCTAssertEqual(truncated.body, payload[..<50_000])
            XCTAssertEqual(server.requestLog.last?.bodyBytesSent, 50_000)
        }
        // Resuming after the drops gets the rest.
        let resumed = try RawHTTP.request(port: server.port, "GET", "/issue.epub", headers: ["Range": "bytes=50000-"])
        XCTAssertEqual(resumed.status, 206)
        XCTAssertEqual(resumed.body, payload[50_000...])
        XCTAssertEqual(server.requestLog.last?.bodyBytesSent, payload.count - 50_000)
    }

    func testReassigningFaultsResetsTheDropCounter() throws {
        let server = try server()
        var plan = FaultPlan()
        plan.dropConnectionAfterBytes = 10
        server.faults = plan
        XCTAssertEqual(try RawHTTP.request(port: server.port, "GET", "/issue.epub").body.count, 10)
        XCTAssertEqual(try RawHTTP.request(port: server.port, "GET", "/issue.epub").body.count, payload.count)
        server.faults = plan
        XCTAssertEqual(try RawHTTP.request(port: server.port, "GET", "/issue.epub").body.count, 10)
    }

    func testFailFirstRequestsAnswersStatusThenSucceeds() throws {
        let server = try server()
        var plan = FaultPlan()
        plan.failFirstRequests = (count: 2, status: 503, retryAfter: nil)
        server.faults = plan
        for _ in 0..<2 {
            let failed = try RawHTTP.request(port: server.port, "GET", "/issue.epub")
            XCTAssertEqual(failed.status, 503)
            XCTAssertNil(failed.headers["retry-after"])
        }
        let ok = try RawHTTP.request(port: server.port, "GET", "/issue.epub")
        XCTAssertEqual(ok.status, 200)
        XCTAssertEqual(ok.body, payload)
        XCTAssertEqual(server.requestLog.map(\.status), [503, 503, 200])

        plan.failFirstRequests = (count: 1, status: 429, retryAfter: 1)
        server.faults = plan
        let limited = try RawHTTP.request(port: server.port, "GET", "/issue.epub")
        XCTAssertEqual(limited.status, 429)
        XCTAssertEqual(limited.headers["retry-after"], "1")
        XCTAssertEqual(try RawHTTP.request(port: server.port, "GET", "/issue.epub").status, 200)
    }

    func testHtmlErrorPageWith200() throws {
        let server = try server()
        var plan = FaultPlan()
        plan.htmlErrorPageWith200 = true
        server.faults = plan
        let response = try RawHTTP.request(port: server.port, "GET", "/issue.epub")
        XCTAssertEqual(response.status, 200)
        XCTAssertTrue(response.headers["content-type"]?.hasPrefix("text/html") ?? false)
        let text = String(decoding: response.body, as: UTF8.self)
        XCTAssertTrue(text.hasPrefix("<html>") && text.contains("error"), text)
        XCTAssertNotEqual(response.body.count, payload.count)
        XCTAssertEqual(response.contentLength, response.body.count)
    }

    func testIgnoreRangeAnswersFullBody() throws {
        let server = try server()
        var plan = FaultPlan()
        plan.ignoreRange = true
        server.faults = plan
        let response = try RawHTTP.request(port: server.port, "GET", "/issue.epub", headers: ["Range": "bytes=1000-"])
        XCTAssertEqual(response.status, 200)
        XCTAssertNil(response.headers["content-range"])
        XCTAssertEqual(response.body, payload)
        XCTAssertEqual(server.requestLog.last?.range, "bytes=1000-")
    }

    func testWrongContentLengthAnnouncesMoreThanItSends() throws {
        let server = try server()
        var plan = FaultPlan()
        plan.wrongContentLength = true
        server.faults = plan
        let response = try RawHTTP.request(port: server.port, "GET", "/issue.epub")
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.body, payload)
        XCTAssertGreaterThan(response.contentLength ?? 0, payload.count)
    }

    func testClientDisconnectingMidBodyDoesNotHurtTheServer() throws {
        let server = try makeServer(self)
        server.setResource("/big", data: TestFiles.pseudoRandomData(count: 20_000_000))
        for _ in 0..<20 {
            let fd = try RawHTTP.connect(port: server.port)
            RawHTTP.send(fd, "GET /big HTTP/1.1\r\nHost: x\r\n\r\n")
            var buffer = [UInt8](repeating: 0, count: 4096)
            _ = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress!, $0.count, 0) }
            close(fd)  // with unread data: the server's next send gets EPIPE/ECONNRESET, not SIGPIPE
        }
        let deadline = Date().addingTimeInterval(5)
        while server.requestLog.count < 20 && Date() < deadline { usleep(10_000) }
        XCTAssertEqual(server.requestLog.count, 20)
        XCTAssertTrue(server.requestLog.allSatisfy { $0.bodyBytesSent < 20_000_000 })
        server.setResource("/small", data: Data("alive".utf8))
        XCTAssertEqual(try RawHTTP.request(port: server.port, "GET", "/small").body, Data("alive".utf8))
    }
}
