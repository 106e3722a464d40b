import Foundation
import XCTest
@testable import LocalHTTPServer

final class ParsingTests: XCTestCase {
    func testHTTPDateFormatsAndParsesAllThreeForms() {
        let date = Date(timeIntervalSince1970: 784_111_777)  // Sun, 06 Nov 1994 08:49:37 GMT
        XCTAssertEqual(HTTPDate.format(date), "Sun, 06 Nov 1994 08:49:37 GMT")
        XCTAssertEqual(HTTPDate.format(Date(timeIntervalSince1970: 784_111_777.9)), "Sun, 06 Nov 1994 08:49:37 GMT")
        XCTAssertEqual(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT"), date)
        XCTAssertEqual(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT"), date)
        XCTAssertEqual(HTTPDate.parse("Sun Nov  6 08:49:37 1994"), date)
        XCTAssertNil(HTTPDate.parse("yesterday"))
        XCTAssertNil(HTTPDate.parse("Sun, 06 Foo 1994 08:49:37 GMT"))
        XCTAssertNil(HTTPDate.parse("Sun, 06 Nov 1994 25:49:37 GMT"))
    }

    func testByteRangeParsing() {
        XCTAssertEqual(ByteRange.parse("bytes=0-9", length: 100), .satisfiable(first: 0, last: 9))
        XCTAssertEqual(ByteRange.parse(" bytes = 5- ", length: 100), .satisfiable(first: 5, last: 99))
        XCTAssertEqual(ByteRange.parse("bytes=-10", length: 100), .satisfiable(first: 90, last: 99))
        XCTAssertEqual(ByteRange.parse("bytes=0-99999999999999999999999", length: 100), .satisfiable(first: 0, last: 99))
        XCTAssertEqual(ByteRange.parse("bytes=100-", length: 100), .unsatisfiable)
        XCTAssertEqual(ByteRange.parse("bytes=0-", length: 0), .unsatisfiable)
        XCTAssertEqual(ByteRange.parse("bytes=-0", length: 100), .unsatisfiable)
        XCTAssertEqual(ByteRange.parse("bytes=9-3", length: 100), .ignored)
        XCTAssertEqual(ByteRange.parse("bytes=-", length: 100), .ignored)
        XCTAssertEqual(ByteRange.parse("bytes=1-2,4-5", length: 100), .ignored)
        XCTAssertEqual(ByteRange.parse("lines=1-2", length: 100), .ignored)
    }

    func testRequestHeadParsing() throws {
        let head = Array("GET /a%20b?q=1 HTTP/1.1\r\nHost: x\r\nX-Thing:  one \r\nx-thing: two\r\n".utf8)
        let request = try XCTUnwrap(HTTPRequest.parse(head: head))
        XCTAssertEqual(request.method, "GET")
        XCTAssertEqual(request.path, "/a b")
        XCTAssertEqual(request.headers["host"], "x")
        XCTAssertEqual(request.headers["x-thing"], "one, two")
        XCTAssertEqual(HTTPRequest.parse(head: Array("GET http://127.0.0.1:80/p HTTP/1.1".utf8))?.path, "/p")
        XCTAssertNil(HTTPRequest.parse(head: Array("GET /\r\n".utf8)))
        XCTAssertNil(HTTPRequest.parse(head: Array("GET / HTTP/1.1\r\nno colon here".utf8)))
        XCTAssertNil(HTTPRequest.parse(head: Array("GET nopath HTTP/1.1".utf8))?.path)
    }

    func testContentTypesByExtension() {
        XCTAssertEqual(MIMETypes.contentType(forFileName: "a.epub"), "application/epub+zip")
        XCTAssertEqual(MIMETypes.contentType(forFileName: "a.PNG"), "image/png")
        XCTAssertEqual(MIMETypes.contentType(forFileName: "feed.atom"), "application/atom+xml")
        XCTAssertEqual(MIMETypes.contentType(forFileName: ".hidden"), "application/octet-stream")
        XCTAssertEqual(MIMETypes.contentType(forFileName: "noext"), "application/octet-stream")
    }
}
