import Foundation
import XCTest
@testable import NewsstandCore

/// The rules for the names people type (`IssueHandle`) and how free ones are picked (`IssueHandleAllocator`).
final class IssueHandleTests: XCTestCase {
    /// 14 March 2026, 12:00 UTC.
    private let march2026 = Date(timeIntervalSince1970: 1_773_489_600)

    func testTypeableCatalogIDsAreKeptAsTheyAre() {
        for id in ["2025-autumn", "i12", "x", "issue-3", "42", "20251001", "vol.3_no.2", "deadbeef"] {
            XCTAssertTrue(IssueHandle.isTypeable(id), id)
            XCTAssertEqual(IssueHandle.candidates(catalogID: id, title: "Anything", date: march2026), [id])
        }
    }

    func testIDsNobodyTypesGiveWayToTheTitle() {
        let untypeable = [
            "urn:uuid:4ca679e5-0b1c-4d7e-9f00-1a2b3c4d5e6f", "4ca679e5-0b1c-4d7e-9f00-1a2b3c4d5e6f",
            "https://example.com/issues/7.epub", "Issue 7", "Autumn", "-lead", "trail-", "a/b", "",
            "5f1d2c3b4a5e6f7a8b9c0d1e", "issue-4ca679e5", String(repeating: "a", count: 41), "caf\u{E9}",
        ]
        for id in untypeable {
            XCTAssertFalse(IssueHandle.isTypeable(id), id)
        }
        XCTAssertEqual(IssueHandle.candidates(catalogID: untypeable[0], title: "Small Engines", date: march2026),
                       ["small-engines-2026", "small-engines-2026-03-14"])
    }

    func testAYearTheTitleHasIsNotRepeated() {
        XCTAssertEqual(IssueHandle.candidates(catalogID: "urn:x", title: "Autumn 2026", date: march2026), ["autumn-2026", "autumn-2026-03-14"])
        XCTAssertEqual(IssueHandle.candidates(catalogID: "urn:x", title: "2026: A Review", date: march2026), ["2026-a-review", "2026-a-review-2026-03-14"])
        XCTAssertEqual(IssueHandle.candidates(catalogID: "urn:x", title: "Autumn 2025", date: march2026), ["autumn-2025-2026", "autumn-2025-2026-03-14"],
                       "another year in the title is only words")
    }

    func testAFeedWithoutDatesGivesNoYear() {
        XCTAssertEqual(IssueHandle.candidates(catalogID: "urn:x", title: "Small Engines", date: Date(timeIntervalSince1970: 0)), ["small-engines"])
    }

    func testTitlesAreFoldedAndCutAtAWord() {
        XCTAssertEqual(IssueHandle.titleSlug("Café Été — Numéro Spécial"), "cafe-ete-numero-special")
        XCTAssertEqual(IssueHandle.titleSlug("金継ぎ"), "issue", "a title without ASCII letters still gives a name")
        let long = IssueHandle.titleSlug("The Quarterly Review of Small Engines, Lawn Mowers and Other Machines")
        XCTAssertEqual(long, "the-quarterly-review-of-small-engines")
        XCTAssertLessThanOrEqual(long.count, IssueHandle.maximumLength)
        XCTAssertEqual(IssueHandle.titleSlug(String(repeating: "x", count: 70)), String(repeating: "x", count: 40), "one long word is cut")
        XCTAssertEqual(IssueHandle.titleSlug("Clear\u{1B}[2J Screen"), "clear-2j-screen", "escape sequences leave only their letters")
    }

    func testTheAllocatorNumbersTheLastCandidateOnceTheOthersAreTaken() throws {
        var taken: Set<String> = ["weekly-2026", "weekly-2026-03-14"]
        var allocator = IssueHandleAllocator()
        var claims = 0
        var looks = 0
        var handles: [String] = []
        for _ in 0..<200 {
            handles.append(try allocator.assign(candidates: ["weekly-2026", "weekly-2026-03-14"], isTaken: { looks += 1; return taken.contains($0) },
                                                claim: { claims += 1; return taken.insert($0).inserted }))
        }
        XCTAssertEqual(handles.prefix(3), ["weekly-2026-03-14-2", "weekly-2026-03-14-3", "weekly-2026-03-14-4"])
        XCTAssertEqual(handles.last, "weekly-2026-03-14-201")
        XCTAssertEqual(Set(handles).count, 200, "every handle is different")
        XCTAssertEqual(looks, 1, "where the numbering stands is looked up once")
        XCTAssertEqual(claims, 2 + 200, "the first issue tries both candidates, then one claim each")
    }

    func testWhereANumberingStandsIsFoundInAFewLookUps() throws {
        for highest in [1, 2, 3, 7, 8, 9, 1000, 4097] {
            let taken = Set((2...max(2, highest)).filter { highest >= 2 && $0 <= highest }.map { "weekly-\($0)" } + ["weekly-2026"])
            var looks = 0
            let free = try IssueHandleAllocator.firstFreeNumber("weekly") { looks += 1; return taken.contains($0) }
            XCTAssertEqual(free, highest + 1, "after weekly-\(highest)")
            XCTAssertLessThanOrEqual(looks, 2 * (Int.bitWidth - highest.leadingZeroBitCount) + 2, "look-ups for \(highest)")
        }
    }

    func testTheAllocatorContinuesAfterTheNumbersTaken() throws {
        var allocator = IssueHandleAllocator()
        let taken: Set<String> = ["weekly", "weekly-2", "weekly-3", "weekly-2026"]
        let handle = try allocator.assign(candidates: ["weekly"], isTaken: { taken.contains($0) }, claim: { !taken.contains($0) })
        XCTAssertEqual(handle, "weekly-4", "a year after the name is not a number of the numbering")
    }
}
