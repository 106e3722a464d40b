import Foundation
import XCTest
@testable import NewsstandCore

/// The client's reading of header lines as libcurl hands them over, one line (with its CRLF) at a time.
final class HTTPHeaderLinesTests: XCTestCase {
    private func read(_ lines: [String]) -> HTTPHeaderLines {
        var header = HTTPHeaderLines()
        for line in lines {
            Array(line.utf8).withUnsafeBytes { header.read($0) }
        }
        return header
    }

    func testStatusReasonAndFieldsTrimmedWithLowercasedNames() {
        let header = read(["HTTP/1.1 304 Not Modified\r\n", "ETag:   \"v1\"  \r\n", "Last-Modified:\tMon, 06 Jan 2025 10:00:00 GMT\r\n",
                           "X-Empty:\r\n", "Content-Type : text/xml\r\n", "\r\n"])
        XCTAssertEqual(header.status, 304)
        XCTAssertEqual(header.reason, "Not Modified")
        XCTAssertEqual(header.headers, ["etag": "\"v1\"", "last-modified": "Mon, 06 Jan 2025 10:00:00 GMT", "x-empty": "", "content-type": "text/xml"])
    }

    func testRepeatedFieldsJoinAndFoldedLinesContinue() {
        let header = read(["HTTP/1.1 200 OK\r\n", "Vary: Accept\r\n", "vary:  Accept-Encoding \r\n",
                           "X-Long: first part\r\n", "  \t second part\t\r\n", "Cache-Control: no-cache\n"])
        XCTAssertEqual(header.headers["vary"], "Accept, Accept-Encoding")
        XCTAssertEqual(header.headers["x-long"], "first part second part")
        XCTAssertEqual(header.headers["cache-control"], "no-cache", "a bare LF ends a line too")
    }

    func testANewStatusLineStartsOver() {
        let header = read(["HTTP/1.1 301 Moved Permanently\r\n", "Location: /elsewhere\r\n", "\r\n",
                           "HTTP/2 200\r\n", "content-type: application/rss+xml\r\n"])
        XCTAssertEqual(header.status, 200)
        XCTAssertEqual(header.reason, "", "HTTP/2 sends no reason")
        XCTAssertEqual(header.headers, ["content-type": "application/rss+xml"], "the redirect's fields are gone")
    }

    func testLinesThatAreNotFieldsAreIgnoredAndTextIsKept() {
        let header = read([" folded before any field\r\n", "HTTP/1.1 200 OK\r\n", "no colon here\r\n",
                           "X-Title:  Café\u{00A0}Zeitung \r\n", "X-URL: http://example.com:8080/a\r\n"])
        XCTAssertEqual(header.headers, ["x-title": "Café\u{00A0}Zeitung", "x-url": "http://example.com:8080/a"],
                       "only spaces and tabs are trimmed; a value keeps its own colons")
    }

    func testResetForgetsEverything() {
        var header = read(["HTTP/1.1 401 Unauthorized\r\n", "WWW-Authenticate: Basic realm=\"r\"\r\n", "X-Fold: a\r\n"])
        header.reset()
        XCTAssertEqual(header.status, 0)
        XCTAssertEqual(header.reason, "")
        XCTAssertEqual(header.headers, [:])
        Array(" continued\r\n".utf8).withUnsafeBytes { header.read($0) }
        XCTAssertEqual(header.headers, [:], "no field to continue after a reset")
    }
}
