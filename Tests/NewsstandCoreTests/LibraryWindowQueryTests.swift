import Foundation
import XCTest
@testable import NewsstandCore

/// The shelf-window queries (LibraryStore+Window) on a library of 55,000 issues, built once for the class:
/// 1,000 publications of 50 issues, one of 5,000 with long runs of one date (ties ordered by id), and one with none.
final class LibraryWindowQueryTests: XCTestCase {
    private struct Library {
        let folder: URL
        let store: LibraryStore
        /// The publications of 50 issues, in the order they were added.
        let small: [Int64]
        /// 5,000 issues: runs of about 12 on one date, 1,000 on a single date, and a few dated before 1985 to the microsecond.
        let big: Int64
        let empty: Int64
    }

    nonisolated(unsafe) private static var shared: Result<Library, Error>?

    override class func setUp() {
        super.setUp()
        let started = Date()
        shared = Result { try buildLibrary() }
        if case .success(let library) = shared {
            let total = (try? library.store.issueCounts().values.reduce(0) { $0 + $1.total }) ?? 0
            print("LibraryWindowQueryTests: built a library of \(total) issues in \(milliseconds(since: started))")
        }
    }

    override class func tearDown() {
        if case .success(let library) = shared {
            library.store.close()
            try? FileManager.default.removeItem(at: library.folder)
        }
        shared = nil
        super.tearDown()
    }

    private var library: Library {
        get throws { try XCTUnwrap(Self.shared, "the shared library was not built").get() }
    }

    private static func buildLibrary() throws -> Library {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("LibraryWindowQueryTests-\(UUID().uuidString)", isDirectory: true)
        let store = try LibraryStore(file: folder.appendingPathComponent("library.sqlite"))
        // Only to build the fixture quickly: no fsync per commit.
        try store.database.execute("PRAGMA synchronous = OFF")
        defer { try? store.database.execute("PRAGMA synchronous = FULL") }
        var random = SeededRandom(seed: 7)
        let week = 7 * 86_400.0

        var small: [Int64] = []
        for number in 0..<1_000 {
            let publication = try store.addPublication(title: "Publication \(number)", feedURL: URL(string: "https://example.com/\(number)/feed")!)
            small.append(publication.id)
            // Weekly, with every pair sharing a date; added in a shuffled order so ids do not follow dates.
            let start = 1_500_000_000.0 + Double(number) * 3_600
            var entries = (0..<50).map { TestSupport.entry("n\($0)", date: Date(timeIntervalSince1970: start + Double($0 / 2) * week)) }
            random.shuffle(&entries)
            let issues = try store.upsertIssues(entries, publicationID: publication.id, markingNewArrivals: number % 3 == 0)
            if number % 10 == 0 {
                for (offset, issue) in issues.enumerated() {
                    switch offset % 9 {
                    case 0, 4: try store.setState(.available, issueID: issue.id)
                    case 1: try store.setState(.downloading, issueID: issue.id, progress: 0.5)
                    case 2: try store.setState(.failed(reason: "the server answered 404"), issueID: issue.id)
                    default: break
                    }
                }
            }
            if number % 3 == 0, number % 2 == 0 {
                for issue in issues.prefix(5) { try store.markOpened(issueID: issue.id, at: Date(timeIntervalSince1970: 1_700_000_000)) }
            }
        }

        let big = try store.addPublication(title: "The Daily Tie", feedURL: URL(string: "https://example.com/daily/feed")!)
        var entries: [CatalogEntry] = (0..<5_000).map { number in
            let date: Double = switch number {
            case ..<1_000: 1_650_000_000  // one date shared by 1,000 issues
            case ..<1_010: -123_456_789.123_456 + Double(number) * 0.000_001  // before 1970, to the microsecond
            case ..<1_020: 300_000_000.987_654_321 - Double(number) * 0.1  // 1979, fractional
            default: 1_600_000_000 + Double(number % 330) * 3_600  // runs of about 12 issues on each date
            }
            return TestSupport.entry("d\(number)", date: Date(timeIntervalSince1970: date))
        }
        random.shuffle(&entries)
        try store.upsertIssues(Array(entries[..<2_500]), publicationID: big.id)
        try store.upsertIssues(Array(entries[2_500...]), publicationID: big.id, markingNewArrivals: true)
        for (offset, issue) in try store.issues(publicationID: big.id).enumerated() {
            if offset % 7 == 0 { try store.setState(.available, issueID: issue.id) }
            if offset % 101 == 3 { try store.setState(.downloading, issueID: issue.id, progress: 0.25) }
            if offset % 103 == 5 { try store.setState(.paused, issueID: issue.id, progress: 0.75) }
            if offset % 107 == 6 { try store.setState(.failed(reason: "checksum mismatch"), issueID: issue.id) }
            if offset % 5 == 0, issue.isNew { try store.markOpened(issueID: issue.id) }
        }
        let empty = try store.addPublication(title: "Nothing Yet", feedURL: URL(string: "https://example.com/empty/feed")!)
        return Library(folder: folder, store: store, small: small, big: big.id, empty: empty.id)
    }

    /// The big publication, publications with and without NEW or downloads, and the last one.
    private func samplePublications(_ library: Library) -> [Int64] {
        [library.big, library.small[0], library.small[1], library.small[3], library.small[10], library.small[999]]
    }

    // MARK: Completion

    /// Tab completion's issue names (`LibraryStore+Completion`) on the 55,000 issues: what a plain scan finds,
    /// from a range on `issues_by_handle` that stops at the limit, well under the 50 ms a Tab may take.
    func testIssueNameCompletionOnFiftyFiveThousandIssues() throws {
        let library = try library
        let store = library.store
        let plan = try store.completionQueryPlan().joined(separator: "; ")
        XCTAssertTrue(plan.contains("issues_by_handle"), "the handle index is read: \(plan)")
        XCTAssertFalse(plan.contains("TEMP B-TREE"), "in index order, nothing sorted: \(plan)")
        let everyHandle = try store.database.query("SELECT DISTINCT handle FROM issues WHERE handle IS NOT NULL").compactMap { $0[0].string }.sorted()
        let publication = try XCTUnwrap(try store.publication(id: library.small[5])).name
        let ownHandles = try store.database.query("SELECT handle FROM issues WHERE publication_id = ?", [.integer(library.small[5])])
            .compactMap { $0[0].string }.sorted()
        let limit = 200
        for prefix in ["", "n", "n1", "d1", "d4999", "zzz", "\(publication)/", "\(publication)/n1", "\(publication)/zzz"] {
            var candidates: [String] = []
            let started = Date()
            candidates = try store.issueNameCandidates(startingWith: prefix, limit: limit)
            let seconds = Date().timeIntervalSince(started)
            XCTAssertLessThan(seconds, 0.05, "completing “\(prefix)” took \(seconds) s")
            let expected: [String]
            if prefix.contains("/") {
                let rest = String(prefix.split(separator: "/", omittingEmptySubsequences: false)[1])
                expected = Array(ownHandles.filter { $0.hasPrefix(rest) }.prefix(limit)).map { "\(publication)/\($0)" }
            } else {
                expected = Array(everyHandle.filter { $0.hasPrefix(prefix) }.prefix(limit))
            }
            XCTAssertEqual(Array(candidates.filter { !$0.hasSuffix("/") || prefix.contains("/") }), expected, "completing “\(prefix)”")
            XCTAssertLessThanOrEqual(candidates.count, limit)
        }
        XCTAssertEqual(try store.issueNameCandidates(startingWith: "publication-99", limit: limit).filter { $0.hasSuffix("/") }.count,
                       try store.publicationNameCandidates(startingWith: "publication-99", limit: limit).count,
                       "publications are offered as PUBLICATION/ after the handles")
    }

    // MARK: Paging

    func testWalkingForwardInPagesOfSevenGivesTheShelfOrder() throws {
        let library = try library
        for publicationID in samplePublications(library) {
            let expected = try library.store.issues(publicationID: publicationID)
            var walked: [Issue] = []
            var key: IssueKey?
            while true {
                let page = try library.store.issues(publicationID: publicationID, after: key, limit: 7)
                XCTAssertLessThanOrEqual(page.count, 7)
                guard let last = page.last else { break }
                if page.count < 7 { XCTAssertEqual(walked.count + page.count, expected.count, "only the last page is short") }
                walked += page
                key = last.key
            }
            XCTAssertEqual(walked.map(\.id), expected.map(\.id), "publication \(publicationID)")
            XCTAssertEqual(walked, expected, "whole issues, not only their ids")
        }
    }

    func testWalkingBackFromTheEndGivesTheShelfOrderReversed() throws {
        let library = try library
        for publicationID in samplePublications(library) {
            let expected = try library.store.issues(publicationID: publicationID)
            var visited: [Int64] = []
            var key: IssueKey?
            while true {
                let page = try library.store.issues(publicationID: publicationID, before: key, limit: 7)
                XCTAssertLessThanOrEqual(page.count, 7)
                guard let first = page.first else { break }
                XCTAssertEqual(page.map(\.key), page.map(\.key).sorted(), "each page is in shelf order, newest first")
                visited += page.reversed().map(\.id)
                key = first.key
            }
            XCTAssertEqual(visited, expected.reversed().map(\.id), "publication \(publicationID)")
        }
    }

    func testPagesAtTheEdges() throws {
        let library = try library
        let store = library.store
        let shelf = try store.issues(publicationID: library.big)
        let ids = shelf.map(\.id)

        XCTAssertEqual(try store.issues(publicationID: library.big, after: nil, limit: 7).map(\.id), Array(ids.prefix(7)))
        XCTAssertEqual(try store.issues(publicationID: library.big, before: nil, limit: 7).map(\.id), Array(ids.suffix(7)),
                       "the oldest seven, newest first")
        XCTAssertEqual(try store.issues(publicationID: library.big, after: shelf[shelf.count - 3].key, limit: 7).map(\.id), Array(ids.suffix(2)))
        XCTAssertEqual(try store.issues(publicationID: library.big, after: shelf.last!.key, limit: 7), [])
        XCTAssertEqual(try store.issues(publicationID: library.big, before: shelf[2].key, limit: 7).map(\.id), Array(ids.prefix(2)))
        XCTAssertEqual(try store.issues(publicationID: library.big, before: shelf[0].key, limit: 7), [])
        XCTAssertEqual(try store.issues(publicationID: library.big, after: nil, limit: 10_000).map(\.id), ids, "a limit beyond the shelf gives it all")
        XCTAssertEqual(try store.issues(publicationID: library.big, before: nil, limit: 10_000).map(\.id), ids)
        XCTAssertEqual(try store.issues(publicationID: library.big, after: nil, limit: 0), [])
        XCTAssertEqual(try store.issues(publicationID: library.big, before: shelf[100].key, limit: -1), [], "not SQLite's LIMIT -1 (no limit)")
        XCTAssertEqual(try store.issues(publicationID: library.empty, after: nil, limit: 7), [])
        XCTAssertEqual(try store.issues(publicationID: library.empty, before: nil, limit: 7), [])
        XCTAssertEqual(try store.issues(publicationID: -5, after: nil, limit: 7), [])

        // A key no issue has: pages continue on either side of where it would stand.
        let takenIDs = Set(ids)
        let between = IssueKey(date: shelf[40].key.date, id: (1..<shelf[40].id).reversed().first { !takenIDs.contains($0) }!)
        let position = try store.shelfIndex(of: between, publicationID: library.big)
        XCTAssertEqual(position, shelf.filter { $0.key < between }.count)
        XCTAssertEqual(try store.issues(publicationID: library.big, after: between, limit: 3).map(\.id), Array(ids[position..<position + 3]))
        XCTAssertEqual(try store.issues(publicationID: library.big, before: between, limit: 3).map(\.id), Array(ids[position - 3..<position]))
        let beyondAll = IssueKey(date: -1e12, id: 0)
        XCTAssertEqual(try store.issues(publicationID: library.big, before: beyondAll, limit: 4).map(\.id), Array(ids.suffix(4)))
        XCTAssertEqual(try store.shelfIndex(of: beyondAll, publicationID: library.big), ids.count)
    }

    func testTiesOnDateAreOrderedByIDDescendingAcrossPages() throws {
        let library = try library
        let shelf = try library.store.issues(publicationID: library.big)
        let tied = shelf.filter { $0.date == Date(timeIntervalSince1970: 1_650_000_000) }
        XCTAssertEqual(tied.count, 1_000)
        XCTAssertEqual(tied.map(\.id), tied.map(\.id).sorted(by: >))
        for (newer, older) in zip(shelf, shelf.dropFirst()) {
            XCTAssertTrue(newer.key < older.key, "\(newer.key) before \(older.key)")
        }
        // From the middle of the run of one date, on both sides.
        let middle = tied[500]
        XCTAssertEqual(try library.store.issues(publicationID: library.big, after: middle.key, limit: 7).map(\.id), tied[501...507].map(\.id))
        XCTAssertEqual(try library.store.issues(publicationID: library.big, before: middle.key, limit: 7).map(\.id), tied[493...499].map(\.id))
    }

    func testShelfIndexOfEveryIssueIsItsPosition() throws {
        let library = try library
        for publicationID in samplePublications(library) {
            for (position, issue) in try library.store.issues(publicationID: publicationID).enumerated() {
                XCTAssertEqual(try library.store.shelfIndex(of: issue.key, publicationID: publicationID), position)
            }
        }
        XCTAssertEqual(try library.store.shelfIndex(of: IssueKey(date: 0, id: 1), publicationID: library.empty), 0)
    }

    func testKeysRoundTripExactlyWithTheStoredDates() throws {
        let library = try library
        let stored = try library.store.database.query("SELECT id, date FROM issues WHERE publication_id = ?", [.integer(library.big)])
        let storedDates = Dictionary(uniqueKeysWithValues: stored.map { ($0[0].int64!, $0[1].double!) })
        let shelf = try library.store.issues(publicationID: library.big)
        XCTAssertEqual(shelf.count, storedDates.count)
        for issue in shelf {
            XCTAssertEqual(issue.key.date.bitPattern, storedDates[issue.id]?.bitPattern, "\(issue.name): \(issue.key.date)")
        }
        // The fractional dates before 1985, where a Date's arithmetic rounds: paging from each finds its neighbours, not itself.
        let early = shelf.enumerated().filter { $0.element.date < Date(timeIntervalSince1970: 489_000_000) }
        XCTAssertEqual(early.count, 20)
        for (position, issue) in early {
            XCTAssertEqual(try library.store.issues(publicationID: library.big, after: issue.key, limit: 1).first?.id, shelf.dropFirst(position + 1).first?.id)
            XCTAssertEqual(try library.store.issues(publicationID: library.big, before: issue.key, limit: 1).first?.id, shelf[position - 1].id)
            XCTAssertEqual(try library.store.shelfIndex(of: issue.key, publicationID: library.big), position)
        }
    }

    // MARK: Counts, ids, downloads

    func testCountsEqualCountingTheIssuesInSwift() throws {
        let library = try library
        var expected: [Int64: IssueCounts] = [:]
        for issue in try library.store.allIssues() {
            expected[issue.publicationID, default: IssueCounts()].total += 1
            if issue.state == .available { expected[issue.publicationID, default: IssueCounts()].downloaded += 1 }
            if issue.isNew { expected[issue.publicationID, default: IssueCounts()].new += 1 }
        }
        let counts = try library.store.issueCounts()
        XCTAssertEqual(counts, expected)
        XCTAssertNil(counts[library.empty], "a publication without issues is absent")
        XCTAssertEqual(counts.count, 1_001)

        let big = try XCTUnwrap(counts[library.big])
        XCTAssertEqual(big.total, 5_000)
        XCTAssertGreaterThan(big.downloaded, 0)
        XCTAssertGreaterThan(big.new, 0)
        XCTAssertLessThan(big.new, 2_500, "opened issues are not NEW")
        XCTAssertGreaterThan(counts.values.filter { $0.new == 0 }.count, 0)
        XCTAssertGreaterThan(counts.values.filter { $0.new > 0 && $0.new < $0.total }.count, 0)

        for publicationID in samplePublications(library) + library.small[200..<230] {
            let shelf = try library.store.issues(publicationID: publicationID)
            let one = try library.store.issueCounts(publicationID: publicationID)
            XCTAssertEqual(one, IssueCounts(total: shelf.count, downloaded: shelf.filter { $0.state == .available }.count, new: shelf.filter(\.isNew).count))
            XCTAssertEqual(one, counts[publicationID])
        }
        XCTAssertEqual(try library.store.issueCounts(publicationID: library.empty), IssueCounts(total: 0, downloaded: 0, new: 0))
    }

    func testIssuesByIDKeepTheOrderGivenAndSkipMissingIDs() throws {
        let library = try library
        let shelf = try library.store.issues(publicationID: library.big)
        var random = SeededRandom(seed: 11)
        var wanted = Array(shelf.prefix(1_234).map(\.id))
        random.shuffle(&wanted)
        let withMissing = [999_999_999] + wanted[..<600] + [-4, wanted[3]] + wanted[600...] + [0]
        let found = try library.store.issues(ids: withMissing)
        XCTAssertEqual(found.map(\.id), withMissing.filter { $0 > 0 && $0 != 999_999_999 }, "more than one statement's worth of ids")
        let byID = Dictionary(uniqueKeysWithValues: shelf.map { ($0.id, $0) })
        XCTAssertEqual(found, found.map { byID[$0.id]! })
        XCTAssertEqual(try library.store.issues(ids: []), [])
        XCTAssertEqual(try library.store.issues(ids: [-1, -2]), [])
        XCTAssertEqual(try library.store.issues(ids: [shelf[9].id, shelf[2].id]).map(\.id), [shelf[9].id, shelf[2].id])
    }

    func testUnfinishedDownloadsAreExactlyTheDownloadingPausedAndFailedIssues() throws {
        let library = try library
        let all = try library.store.allIssues().sorted { $0.id < $1.id }
        let expected = all.filter {
            switch $0.state {
            case .downloading, .paused, .failed: true
            case .notDownloaded, .available: false
            }
        }
        let unfinished = try library.store.unfinishedDownloads()
        XCTAssertEqual(unfinished, expected)
        XCTAssertTrue(Set(unfinished.map(\.state.storedName)) == ["downloading", "paused", "failed"])
        XCTAssertEqual(try library.store.interruptedDownloads(), expected.filter { $0.state == .downloading })
    }

    // MARK: Plans

    func testWindowQueriesReadIndexRangesAndNeverSortOrScanTheTable() throws {
        let library = try library
        let store = library.store
        let key = try XCTUnwrap(try store.issues(publicationID: library.big).dropFirst(2_000).first).key
        let after = LibraryStore.pageQuery(publicationID: library.big, key: key, limit: 7, towardsNewest: false)
        let before = LibraryStore.pageQuery(publicationID: library.big, key: key, limit: 7, towardsNewest: true)
        let first = LibraryStore.pageQuery(publicationID: library.big, key: nil, limit: 7, towardsNewest: false)
        let last = LibraryStore.pageQuery(publicationID: library.big, key: nil, limit: 7, towardsNewest: true)
        let queries: [(name: String, sql: String, values: [SQLiteValue], indexes: [String])] = [
            ("after a key", after.0, after.1, ["issues_in_shelf_order (publication_id=? AND date=? AND id<?)", "issues_in_shelf_order (publication_id=? AND date<?)"]),
            ("before a key", before.0, before.1, ["issues_in_shelf_order (publication_id=? AND date=? AND id>?)", "issues_in_shelf_order (publication_id=? AND date>?)"]),
            ("the newest", first.0, first.1, ["issues_in_shelf_order"]),
            ("the oldest", last.0, last.1, ["issues_in_shelf_order"]),
            ("shelf index", LibraryStore.shelfIndexSQL, LibraryStore.shelfIndexValues(of: key, publicationID: library.big),
             ["COVERING INDEX issues_in_shelf_order (publication_id=? AND date>?)", "COVERING INDEX issues_in_shelf_order (publication_id=? AND date=? AND id>?)"]),
            ("all counts", LibraryStore.allCountsSQL, [], ["COVERING INDEX", "COVERING INDEX issues_available", "COVERING INDEX issues_new"]),
            ("unfinished downloads", "SELECT id FROM issues WHERE \(LibraryStore.unfinishedCondition) ORDER BY id", [], ["issues_unfinished"]),
            ("a publication's shelf", "SELECT id FROM issues WHERE publication_id = ? ORDER BY date DESC, id DESC", [.integer(library.big)], ["issues_in_shelf_order"]),
            ("issues by id", "SELECT id FROM issues WHERE id IN (?, ?, ?)", [.integer(1), .integer(2), .integer(3)], ["USING INTEGER PRIMARY KEY"]),
        ]
        for query in queries {
            let plan = try store.queryPlan(query.sql, query.values)
            let text = plan.joined(separator: "\n")
            XCTAssertFalse(text.contains("TEMP B-TREE"), "\(query.name) sorts:\n\(text)")
            XCTAssertFalse(plan.contains { $0.hasPrefix("SCAN issues") && !$0.contains("USING") }, "\(query.name) scans the table:\n\(text)")
            for line in plan where line.hasPrefix("SCAN issues") || line.hasPrefix("SEARCH issues") {
                XCTAssertTrue(line.contains("USING INDEX") || line.contains("USING COVERING INDEX") || line.contains("USING INTEGER PRIMARY KEY"),
                              "\(query.name): \(line)")
            }
            for index in query.indexes {
                XCTAssertTrue(text.contains(index), "\(query.name) does not use \(index):\n\(text)")
            }
        }
    }

    func testPublicationsAreReadInTheOrderTheyWereAddedWithoutSorting() throws {
        let (store, _) = try TestSupport.store(for: self)
        defer { store.close() }
        let text = try store.queryPlan(LibraryStore.publicationsSQL).joined(separator: "\n")
        XCTAssertTrue(text.contains("USING INDEX publications_in_added_order"), text)
        XCTAssertFalse(text.contains("TEMP B-TREE"), text)
        let ids = try (0..<4).map { try store.addPublication(title: "Feed \($0)", feedURL: URL(string: "https://example.com/\($0)")!).id }
        // Added out of id order (as a library copied from elsewhere may be): that order is the one read.
        try store.database.query("UPDATE publications SET added_at = 5 WHERE id = ?", [.integer(ids[1])])
        try store.database.query("UPDATE publications SET added_at = 5 WHERE id = ?", [.integer(ids[0])])
        try store.database.query("UPDATE publications SET added_at = 1 WHERE id = ?", [.integer(ids[3])])
        XCTAssertEqual(try store.publications().map(\.id), [ids[3], ids[0], ids[1], ids[2]])
    }

    func testDownloadedIssuesAreReadThroughTheirPartialIndexNotTheShelf() throws {
        let library = try library
        let text = try library.store.queryPlan(LibraryStore.downloadedIssuesSQL).joined(separator: "\n")
        XCTAssertTrue(text.contains("USING INDEX issues_available"), text)
        XCTAssertFalse(text.contains("issues_in_shelf_order"), text)
        let downloaded = try library.store.downloadedIssues()
        XCTAssertFalse(downloaded.isEmpty)
        XCTAssertTrue(downloaded.allSatisfy { $0.state == .available })
        let shelfOrder = downloaded.sorted { ($0.publicationID, $1.date, $1.id) < ($1.publicationID, $0.date, $0.id) }
        XCTAssertEqual(downloaded.map(\.id), shelfOrder.map(\.id))
    }

    func testOlderQueriesStillUseAnIndexAfterTheOldOneIsDropped() throws {
        let library = try library
        let store = library.store
        let queries: [(String, [SQLiteValue])] = [
            ("SELECT id FROM issues ORDER BY publication_id, date DESC, id DESC", []),
            ("DELETE FROM issues WHERE publication_id = ? AND state <> 'available'", [.integer(-1)]),
            ("SELECT id FROM issues WHERE publication_id = ?", [.integer(library.big)]),
            ("SELECT id FROM issues WHERE \(LibraryStore.unfinishedCondition) AND state = 'downloading' ORDER BY id", []),
        ]
        for (sql, values) in queries {
            let text = try store.queryPlan(sql, values).joined(separator: "\n")
            XCTAssertTrue(text.contains("USING INDEX") || text.contains("USING COVERING INDEX"), "\(sql):\n\(text)")
            XCTAssertFalse(text.contains("TEMP B-TREE"), "\(sql):\n\(text)")
        }
        let indexes = Set(try store.database.query("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'issues'").compactMap { $0.first?.string })
        XCTAssertFalse(indexes.contains("issues_by_publication_and_date"))
        XCTAssertTrue(indexes.isSuperset(of: ["issues_in_shelf_order", "issues_unfinished", "issues_available", "issues_new"]), "\(indexes)")
    }

    // MARK: Other views: sorted and filtered

    /// What a view shows, worked out in Swift from the whole shelf.
    private func expected(_ shelf: [Issue], _ view: ShelfView) -> [Int64] {
        let shown = shelf.filter(view.filter.includes)
        let sorted: [Issue] = switch view.sort {
        case .newest: shown
        case .oldest: shown.reversed()
        case .title: shown.sorted { ($0.title.lowercased(), $0.id) < ($1.title.lowercased(), $1.id) }
        }
        return sorted.map(\.id)
    }

    private static var everyView: [ShelfView] {
        ShelfView.Sort.allCases.flatMap { sort in ShelfView.Filter.allCases.map { ShelfView(sort: sort, filter: $0) } }
    }

    func testEveryViewPagesBothWaysCountsAndPlacesItsIssuesAsSwiftWould() throws {
        let library = try library
        let store = library.store
        for publicationID in [library.big, library.small[0], library.small[10], library.empty] {
            let shelf = try store.issues(publicationID: publicationID)
            for view in Self.everyView {
                let want = expected(shelf, view)
                var forward: [Int64] = []
                var key: IssueKey?
                while let last = try store.issues(publicationID: publicationID, after: key, limit: 97, view: view).last.map({ $0 }) {
                    forward += try store.issues(publicationID: publicationID, after: key, limit: 97, view: view).map(\.id)
                    key = last.key
                }
                XCTAssertEqual(forward, want, "\(view) of \(publicationID), forward")
                var backward: [Int64] = []
                key = nil
                while let first = try store.issues(publicationID: publicationID, before: key, limit: 97, view: view).first {
                    backward = try store.issues(publicationID: publicationID, before: key, limit: 97, view: view).map(\.id) + backward
                    key = first.key
                }
                XCTAssertEqual(backward, want, "\(view) of \(publicationID), backward")
                XCTAssertEqual(try store.issueCount(publicationID: publicationID, filter: view.filter), want.count, "\(view) count")
                let byID = Dictionary(uniqueKeysWithValues: shelf.map { ($0.id, $0) })
                for position in stride(from: 0, to: want.count, by: max(1, want.count / 9)) {
                    let issue = try XCTUnwrap(byID[want[position]])
                    XCTAssertEqual(try store.shelfIndex(of: issue.key, publicationID: publicationID, view: view), position, "\(view) index")
                }
            }
        }
    }

    func testEveryViewReadsItsIndexWithoutSortingOrScanningTheTable() throws {
        let library = try library
        let store = library.store
        let key = try XCTUnwrap(try store.issues(publicationID: library.big).dropFirst(2_000).first).key
        for view in Self.everyView where view != .standard {
            var queries: [(String, String, [SQLiteValue])] = []
            for anchor in [key, nil] as [IssueKey?] {
                for backwards in [false, true] {
                    let (sql, values) = LibraryStore.pageQuery(publicationID: library.big, key: anchor, limit: 7, towardsNewest: backwards, view: view)
                    queries.append(("page \(anchor == nil ? "at an end" : "by key") \(backwards ? "back" : "on")", sql, values))
                }
            }
            let (indexSQL, indexValues) = LibraryStore.viewIndexQuery(of: key, publicationID: library.big, view: view)
            queries.append(("index", indexSQL, indexValues))
            for (name, sql, values) in queries {
                let plan = try store.queryPlan(sql, values)
                let text = plan.joined(separator: "\n")
                XCTAssertFalse(text.contains("TEMP B-TREE"), "\(view) \(name) sorts:\n\(text)")
                for line in plan where line.hasPrefix("SCAN issues") || line.hasPrefix("SEARCH issues") {
                    XCTAssertTrue(line.contains("USING INDEX") || line.contains("USING COVERING INDEX"), "\(view) \(name): \(line)")
                }
                if view.filter != .all || view.sort == .title {
                    XCTAssertTrue(text.contains(LibraryStore.indexHint(view).replacingOccurrences(of: " INDEXED BY ", with: "")), "\(view) \(name):\n\(text)")
                }
            }
        }
        let unread = try store.queryPlan(LibraryStore.unreadCountSQL, [.integer(library.big)]).joined(separator: "\n")
        XCTAssertTrue(unread.contains("COVERING INDEX issues_unread_by_date"), unread)
    }

    func testMarkingReadAndUnreadMovesAnIssueBetweenTheViewsAndEndsReading() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("views-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try LibraryStore(file: folder.appendingPathComponent("library.sqlite"))
        defer { store.close() }
        let publication = try store.addPublication(title: "P", feedURL: URL(string: "https://example.com/feed")!)
        let issues = try store.upsertIssues([TestSupport.entry("a"), TestSupport.entry("b")], publicationID: publication.id, markingNewArrivals: true)
        let (a, b) = (issues[0].id, issues[1].id)
        XCTAssertEqual(try store.issueCount(publicationID: publication.id, filter: .new), 2)
        try store.setRead(true, issueID: a)
        XCTAssertEqual(try store.issueCount(publicationID: publication.id, filter: .new), 1)
        XCTAssertEqual(try store.issueCount(publicationID: publication.id, filter: .unread), 1)
        XCTAssertEqual(try store.issues(publicationID: publication.id, after: nil, limit: 5, view: ShelfView(filter: .unread)).map(\.id), [b])
        try store.markOpened(issueID: b)
        XCTAssertEqual(try store.currentlyReadingIssueID(), b)
        try store.setRead(false, issueID: a)
        XCTAssertEqual(try store.currentlyReadingIssueID(), b, "another issue marked unread leaves the one being read")
        try store.setRead(false, issueID: b)
        XCTAssertNil(try store.currentlyReadingIssueID(), "the issue being read marked unread is not being read any more")
        XCTAssertEqual(try store.issueCount(publicationID: publication.id, filter: .new), 2, "NEW comes back")
        XCTAssertEqual(try store.issueCounts(publicationID: publication.id), try store.countedIssueCounts()[publication.id])
    }

    // MARK: Migration

    func testAVersion6LibraryUpgradesTo7WithItsDataIntact() throws {
        let paths = try TestSupport.paths(for: self)
        let database = try SQLiteDatabase(path: paths.databaseFile.path)
        try database.execute("PRAGMA journal_mode = WAL; PRAGMA foreign_keys = ON;")
        for step in LibrarySchema.migrations.prefix(6) { try database.execute(step) }
        try database.execute("PRAGMA user_version = 6")
        try database.query("INSERT INTO publications (id, name, title, feed_url, added_at) VALUES (1, 'kettle', 'Kettle', 'https://example.com/k', 10)")
        let states = ["none", "available", "downloading", "paused", "failed", "available", "none"]
        for number in 0..<states.count {
            try database.query("""
                INSERT INTO issues (id, publication_id, name, title, date, content_urls, state, failure_reason, added_at, arrived_new, opened_at)
                VALUES (?, 1, ?, ?, ?, 'https://example.com/x.epub', ?, ?, 20, ?, ?)
                """, [.integer(Int64(10 + number)), .text("i\(number)"), .text("Issue \(number)"), .real(1_700_000_000 + Double(number % 3) * 86_400),
                      .text(states[number]), states[number] == "failed" ? .text("gone") : .null,
                      .integer(number % 2 == 0 ? 1 : 0), number == 4 ? .real(1_700_500_000) : .null])
        }
        try database.query("INSERT INTO reading_positions (issue_id, article_index, block_index, character_offset, updated_at) VALUES (11, 2, 5, 40, 30)")
        try database.query("INSERT INTO settings (key, value) VALUES ('currently_reading', '11')")
        let before = try database.query("SELECT * FROM issues ORDER BY id")
        XCTAssertTrue(try database.query("SELECT 1 FROM sqlite_master WHERE name = 'issues_by_publication_and_date'").count == 1)
        database.close()

        let store = try LibraryStore(file: paths.databaseFile)
        defer { store.close() }
        XCTAssertEqual(store.database.userVersion, LibrarySchema.currentVersion)
        XCTAssertEqual(try store.integrityCheck(), ["ok"])
        let after = try store.database.query("SELECT * FROM issues ORDER BY id")
        XCTAssertEqual(after.map { Array($0.prefix(before[0].count)) }, before, "every column the issues had is as it was")
        XCTAssertEqual(try store.database.query("SELECT handle FROM issues ORDER BY id").map { $0.first?.string }, (0..<states.count).map { "i\($0)" },
                       "migration 9 added handles: the typeable names as they are")
        let indexes = Set(try store.database.query("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'issues'").compactMap { $0.first?.string })
        XCTAssertTrue(indexes.isSuperset(of: ["issues_in_shelf_order", "issues_unfinished", "issues_available", "issues_new"]), "\(indexes)")
        XCTAssertFalse(indexes.contains("issues_by_publication_and_date"))

        let shelf = try store.issues(publicationID: 1)
        XCTAssertEqual(shelf.map(\.id), [15, 12, 14, 11, 16, 13, 10], "newest first, ties by id descending")
        XCTAssertEqual(try store.issues(publicationID: 1, after: shelf[1].key, limit: 3).map(\.id), [14, 11, 16])
        XCTAssertEqual(try store.issues(publicationID: 1, before: shelf[3].key, limit: 2).map(\.id), [12, 14])
        XCTAssertEqual(try store.issueCounts(publicationID: 1), IssueCounts(total: 7, downloaded: 2, new: 3))
        XCTAssertEqual(try store.issueCounts(), [1: IssueCounts(total: 7, downloaded: 2, new: 3)], "migration 8 counted what was there")
        XCTAssertEqual(try store.unfinishedDownloads().map(\.id), [12, 13, 14])
        XCTAssertEqual(try store.issue(id: 14)?.state, .failed(reason: "gone"))
        XCTAssertEqual(try store.readingPosition(issueID: 11), ReadingPosition(articleIndex: 2, blockIndex: 5, characterOffset: 40))
        XCTAssertEqual(try store.currentlyReadingIssueID(), 11)
    }

    private static func milliseconds(since start: Date) -> String {
        String(format: "%.0f ms", Date().timeIntervalSince(start) * 1_000)
    }
}

/// A small deterministic generator (an LCG), so the shuffled fixture is the same on every run.
private struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state ^ (state >> 29)
    }
    mutating func shuffle<T>(_ array: inout [T]) { array.shuffle(using: &self) }
}
