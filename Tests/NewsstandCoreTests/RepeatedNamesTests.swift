import Foundation
import XCTest
@testable import NewsstandCore

/// `RepeatedNames` (a feed's issue names checked at its end) finds what `Set<String>` finds, whatever the hashes.
final class RepeatedNamesTests: XCTestCase {
    func testFindsTheNamesASetHasSeenBefore() {
        var random = SeededRandom(seed: 5)
        var names: [String] = []
        for _ in 0..<50_000 {
            names.append("urn:bench:atom:\(Int.random(in: 0..<20_000, using: &random))" + (Bool.random(using: &random) ? "" : "é"))
        }
        // Canonically equal strings are one name, as in Set<String>.
        names += ["", "", "caf\u{E9}", "cafe\u{301}"]
        var oracle: Set<String> = []
        let expected = names.indices.filter { !oracle.insert(names[$0]).inserted }
        XCTAssertGreaterThan(expected.count, 10_000)
        XCTAssertEqual(expected.suffix(2), [names.count - 3, names.count - 1])
        XCTAssertEqual(RepeatedNames.laterPositions(hashes: names.map(\.hashValue)) { names[$0] }, expected)
    }

    func testHashesThatMeetAreNotEnough() {
        // Every hash alike: only equal names are repeats, found however long the probe.
        let names = (0..<2_000).map { "issue \($0 % 1_500)" }
        var asked = 0
        let repeated = RepeatedNames.laterPositions(hashes: Array(repeating: 42, count: names.count)) { asked += 1; return names[$0] }
        XCTAssertEqual(repeated, Array(1_500..<2_000))
        XCTAssertGreaterThan(asked, names.count, "names are compared when hashes meet")
        // Hashes that differ in their top bits never ask for a name, though they share slots.
        asked = 0
        XCTAssertEqual(RepeatedNames.laterPositions(hashes: (0..<2_000).map { $0 << 40 }) { asked += 1; return names[$0] }, [])
        XCTAssertEqual(asked, 0)
        XCTAssertEqual(RepeatedNames.laterPositions(hashes: [7]) { names[$0] }, [])
        XCTAssertEqual(RepeatedNames.laterPositions(hashes: []) { names[$0] }, [])
    }
}
