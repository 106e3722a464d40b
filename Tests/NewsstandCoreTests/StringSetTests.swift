import Foundation
import XCTest
@testable import NewsstandCore

/// `StringSet` (a feed's issue names) answers as `Set<String>` does, through growth and for strings alike but for their last bytes.
final class StringSetTests: XCTestCase {
    func testInsertAnswersAsSetDoes() {
        var random = SeededRandom(seed: 5)
        var set = StringSet()
        var oracle: Set<String> = []
        for _ in 0..<50_000 {
            let name = "urn:bench:atom:\(Int.random(in: 0..<20_000, using: &random))" + (Bool.random(using: &random) ? "" : "é")
            XCTAssertEqual(set.insert(name), oracle.insert(name).inserted, name)
        }
        XCTAssertEqual(set.count, oracle.count)
        XCTAssertTrue(set.insert(""))
        XCTAssertFalse(set.insert(""))
        // Canonically equal strings are one name, as in Set<String>.
        XCTAssertTrue(set.insert("caf\u{E9}"))
        XCTAssertFalse(set.insert("cafe\u{301}"))
    }
}
