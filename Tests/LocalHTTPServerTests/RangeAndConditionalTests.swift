import Foundation
import NewsstandTestSupport
import XCTest
@testable import LocalHTTPServer

final class RangeAndConditionalTests: XCTestCase {
    private let payload = TestFiles.pseudoRandomData(count: 1000)

    private func server() throws -> LocalHTTPServer {
        let server = try makeServer(self)
        server.setResource("/r.bin", data: payload, etag: "\"abc\"", lastModified: Date(timeIntervalSince1970: 1_600_000_000))
        return server
    }

    func testRangeVariantsAnswer206WithContentRange() throws {
        let server = try server()
        let cases: [(String, ClosedRange<Int>)] = [
            ("bytes=10-19", 10...19),
            ("bytes=900-", 900...999),
            ("bytes=-50", 950...999),
            ("bytes=990-5000", 990...999),   // end clamped
            ("bytes=-5000", 0...999),        // suffix longer than the body
            ("bytes=0-0", 0...0),
        ]
        for (header, expected) in cases {
            let response = try RawHTTP.request(port: server.port, "GET", "/r.bin", headers: ["Range": header])
            XCTAssertEqual(response.status, 206, header)
            XCTAssertEqual(response.headers["content-range"], "bytes \(expected.lowerBound)-\(expected.upperBound)/1000", header)
            XCTAssertEqual(response.contentLength, expected.count, header)
            XCTAssertEqual(response.body, payload[expected], header)
        }
        let head = try RawHTTP.request(port: server.port, "HEAD", "/r.bin", headers: ["Range": "bytes=100-199"])
        XCTAssertEqual(head.status, 206)
        XCTAssertEqual(head.contentLength, 100)
        XCTAssertTrue(head.body.isEmpty)
    }

    func testUnsatisfiableRangeIs416WithLength() throws {
        let server = try server()
        for header in ["bytes=1000-", "bytes=5000-6000", "bytes=-0"] {
            let response = try RawHTTP.request(port: server.port, "GET", "/r.bin", headers: ["Range": header])
            XCTAssertEqual(response.status, 416, header)
            XCTAssertEqual(response.headers["content-range"], "bytes */1000", header)
            XCTAssertTrue(response.body.isEmpty, header)
        }
    }

    func testMalformedOrMultipleRangesAreIgnored() throws {
        let server = try server()
        for header in ["bytes=20-10", "items=0-5", "bytes=0-1,5-6", "bytes=abc"] {
            let response = try RawHTTP.request(port: server.port, "GET", "/r.bin", headers: ["Range": header])
            XCTAssertEqual(response.status, 200, header)
            XCTAssertEqual(response.body, payload, header)
        }
    }

    func testIfRangeMatchingETagOrDateHonoursRangeOtherwiseFullBody() throws {
        let server = try server()
        let date = "Sun, 13 Sep 2020 12:26:40 GMT"  // 1_600_000_000
        let matchingTag = try RawHTTP.request(port: server.port, "GET", "/r.bin", headers: ["Range": "bytes=500-", "If-Range": "\"abc\""])
        XCTAssertEqual(matchingTag.status, 206)
        XCTAssertEqual(matchingTag.body, payload[500...])

        let staleTag = try RawHTTP.request(port: server.port, "GET", "/r.bin", headers: ["Range": "bytes=500-", "If-Range": "\"old\""])
        XCTAssertEqual(staleTag.status, 200)
        XCTAssertEqual(staleTag.body, payload)
        XCTAssertNil(staleTag.headers["content-range"])

        let weakTag = try RawHTTP.request(port: server.port, "GET", "/r.bin", headers: ["Range": "bytes=500-", "If-Range": "W/\"abc\""])
        XCTAssertEqual(weakTag.status, 200, "weak validators never match If-Range")

        let matchingDate = try RawHTTP.request(port: server.port, "GET", "/r.bin", headers: ["Range": "bytes=500-", "If-Range": date])
        XCTAssertEqual(matchingDate.status, 206)

        let otherDate = try RawHTTP.request(port: server.port, "GET", "/r.bin",
                                            headers: ["Range": "bytes=500-", "If-Range": "Sat, 12 Sep 2020 12:26:40 GMT"])
        XCTAssertEqual(otherDate.status, 200)
        XCTAssertEqual(otherDate.body, payload)
    }

    func testGeneratedETagChangesWhenResourceChangesAndNotOtherwise() throws {
        let server = try makeServer(self)
        server.setResource("/feed.xml", data: Data("one".utf8))
        let first = try XCTUnwrap(try RawHTTP.request(port: server.port, "GET", "/feed.xml").headers["etag"])
        server.setResource("/feed.xml", data: Data("one".utf8))
        XCTAssertEqual(try RawHTTP.request(port: server.port, "GET", "/feed.xml").headers["etag"], first,
                       "re-setting identical data keeps the validator")
        server.setResource("/feed.xml", data: Data("two".utf8))
        let second = try XCTUnwrap(try RawHTTP.request(port: server.port, "GET", "/feed.xml").headers["etag"])
        XCTAssertNotEqual(first, second)
        XCTAssertTrue(second.hasPrefix("\"") && second.hasSuffix("\""))

        // A range resumed against the old validator now gets the whole new body.
        let resumed = try RawHTTP.request(port: server.port, "GET", "/feed.xml", headers: ["Range": "bytes=1-", "If-Range": first])
        XCTAssertEqual(resumed.status, 200)
        XCTAssertEqual(resumed.body, Data("two".utf8))

        // Explicit tags are quoted if the caller did not.
        server.setResource("/feed.xml", data: Data("three".utf8), etag: "v3")
        XCTAssertEqual(try RawHTTP.request(port: server.port, "HEAD", "/feed.xml").headers["etag"], "\"v3\"")
    }

    func testIfNoneMatchAnswers304() throws {
        let server = try server()
        let notModified = try RawHTTP.request(port: server.port, "GET", "/r.bin", headers: ["If-None-Match": "\"zzz\", \"abc\""])
        XCTAssertEqual(notModified.status, 304)
        XCTAssertTrue(notModified.body.isEmpty)
        XCTAssertEqual(notModified.headers["etag"], "\"abc\"")
        XCTAssertEqual(server.requestLog.last?.status, 304)

        XCTAssertEqual(try RawHTTP.request(port: server.port, "GET", "/r.bin", headers: ["If-None-Match": "W/\"abc\""]).status, 304)
        XCTAssertEqual(try RawHTTP.request(port: server.port, "GET", "/r.bin", headers: ["If-None-Match": "*"]).status, 304)
        let changed = try RawHTTP.request(port: server.port, "GET", "/r.bin", headers: ["If-None-Match": "\"old\""])
        XCTAssertEqual(changed.status, 200)
        XCTAssertEqual(changed.body, payload)
    }

    func testIfModifiedSinceAnswers304UnlessNewer() throws {
        let server = try server()
        let same = try RawHTTP.request(port: server.port, "GET", "/r.bin", headers: ["If-Modified-Since": "Sun, 13 Sep 2020 12:26:40 GMT"])
        XCTAssertEqual(same.status, 304)
        let earlier = try RawHTTP.request(port: server.port, "GET", "/r.bin", headers: ["If-Modified-Since": "Sun, 13 Sep 2020 12:26:39 GMT"])
        XCTAssertEqual(earlier.status, 200)
        // If-None-Match takes precedence over If-Modified-Since.
        let both = try RawHTTP.request(port: server.port, "GET", "/r.bin",
                                       headers: ["If-None-Match": "\"old\"", "If-Modified-Since": "Sun, 13 Sep 2020 12:26:40 GMT"])
        XCTAssertEqual(both.status, 200)
    }

    func testRequestLogRecordsRangeHeaderAndBytes() throws {
        let server = try server()
        server.clearLog()
        _ = try RawHTTP.request(port: server.port, "GET", "/r.bin", headers: ["Range": "bytes=100-"])
        _ = try RawHTTP.request(port: server.port, "GET", "/missing")
        let log = server.requestLog
        XCTAssertEqual(log.count, 2)
        XCTAssertEqual(log[0].method, "GET")
        XCTAssertEqual(log[0].path, "/r.bin")
        XCTAssertEqual(log[0].range, "bytes=100-")
        XCTAssertEqual(log[0].headers["host"], "127.0.0.1:\(server.port)")
        XCTAssertEqual(log[0].status, 206)
        XCTAssertEqual(log[0].bodyBytesSent, 900)
        XCTAssertEqual(log[1].status, 404)
        XCTAssertNil(log[1].range)
        server.clearLog()
        XCTAssertTrue(server.requestLog.isEmpty)
    }
}
