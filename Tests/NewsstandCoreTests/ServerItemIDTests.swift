import Foundation
import LocalHTTPServer
import XCTest
@testable import NewsstandCore

/// Item ids as the Google Reader API writes them, read on their bytes (an account's unread list holds up to 100,000
/// at every sync), and a page of `stream/items/ids` decoded whole.
final class ServerItemIDTests: XCTestCase {
    func testBothSpellingsAreReadAsFoundationReadThem() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let value = Int64(bitPattern: generator.next())
            let id = ServerItemID(value)
            XCTAssertEqual(ServerItemID(id.longForm), id)
            XCTAssertEqual(ServerItemID(id.shortForm), id)
            XCTAssertEqual(ServerItemID(String(UInt64(bitPattern: value))), id, "unsigned decimal")
            let hex = String(UInt64(bitPattern: value), radix: 16)
            XCTAssertEqual(id.longForm, ServerItemID.longPrefix + String(repeating: "0", count: 16 - hex.count) + hex)
        }
        XCTAssertEqual(ServerItemID("  42\t"), ServerItemID(42))
        XCTAssertEqual(ServerItemID("+42"), ServerItemID(42))
        XCTAssertEqual(ServerItemID("-9223372036854775808"), ServerItemID(Int64.min))
        XCTAssertEqual(ServerItemID("tag:google.com,2005:reader/item/2A"), ServerItemID(42))
        XCTAssertEqual(ServerItemID("tag:google.com,2005:reader/item/ffffffffffffffff"), ServerItemID(-1))
        for bad in ["", " ", "-", "12a", "18446744073709551616", "-9223372036854775809", "tag:google.com,2005:reader/item/",
                    "tag:google.com,2005:reader/item/10000000000000000", "tag:google.com,2005:reader/item/g1", "feed/1", "1 2"] {
            XCTAssertNil(ServerItemID(bad), bad)
        }
    }

    func testAnIDPageIsReadWithStringAndNumberIDsAndItsContinuation() throws {
        let server = LocalHTTPServer()
        try server.start()
        defer { server.stop() }
        let path = "/api/greader.php/reader/api/0/stream/items/ids"
        server.requestHandler = { request in
            guard request.path == path else { return nil }
            let continued = (request.query ?? "").split(separator: "&").contains("c=3")
            let body = !continued ? #"{"itemRefs":[{"id":"1"},{"id":2},{"id":"tag:google.com,2005:reader/item/0000000000000003"},{"id":true}],"continuation":"3"}"#
                                  : #"{"itemRefs":[{"id":"18446744073709551615"}]}"#
            return ServedResponse(status: 200, body: Data(body.utf8))
        }
        let client = GoogleReaderClient(baseURL: server.url(for: "api/greader.php"), authToken: "reader/token")
        let ids = try client.itemIDs(.unread)
        XCTAssertEqual(ids, ServerItemIDs(ids: [ServerItemID(1), ServerItemID(2), ServerItemID(3), ServerItemID(-1)], isComplete: true))
        XCTAssertEqual(client.requestCount, 2)
    }
}
