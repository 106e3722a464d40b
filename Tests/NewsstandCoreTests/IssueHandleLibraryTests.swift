import Foundation
import NewsstandContent
import XCTest
@testable import NewsstandCore

/// Handles in the library: given on insert, unique per publication, kept across refreshes, found by lookups,
/// and given to the issues of a library written before them (migration 9).
final class IssueHandleLibraryTests: XCTestCase {
    private let feed = URL(string: "https://calibre.example/opds")!
    /// 14 March 2026, 12:00 UTC.
    private let march2026 = Date(timeIntervalSince1970: 1_773_489_600)
    private let day: TimeInterval = 86_400

    private func uuid(_ number: Int) -> String {
        "urn:uuid:4ca679e5-0b1c-4d7e-9f00-\(String(format: "%012d", number))"
    }

    func testManyIssuesWithOneTitleGetUniqueReadableHandles() throws {
        let (store, _) = try TestSupport.store(for: self)
        let publication = try store.addPublication(title: "calibre", feedURL: feed)
        // 150 on one day, 150 on days of 2026, 50 without a date: in two refreshes, so the second starts from a numbered library.
        let entries = (0..<350).map { number -> CatalogEntry in
            let date = number < 150 ? march2026 : number < 300 ? march2026 + Double(number) * day / 2 : Date(timeIntervalSince1970: 0)
            return TestSupport.entry(uuid(number), title: "Weekly", date: date)
        }
        try store.upsertIssues(Array(entries[..<175]), publicationID: publication.id)
        let issues = try store.upsertIssues(entries, publicationID: publication.id)
        XCTAssertEqual(issues.count, 350)
        let handles = issues.map(\.handle)
        XCTAssertEqual(Set(handles).count, 350, "every handle differs")
        for handle in handles {
            XCTAssertNotNil(handle.wholeMatch(of: /[a-z0-9]+(-[a-z0-9]+)*/), handle)
            XCTAssertLessThanOrEqual(handle.count, 60, handle)
            XCTAssertFalse(handle.contains("uuid"), handle)
        }
        let byID = Dictionary(uniqueKeysWithValues: issues.map { ($0.name, $0.handle) })
        XCTAssertEqual(byID[uuid(0)], "weekly-2026", "the first of the title and year has the plain handle")
        XCTAssertEqual(byID[uuid(1)], "weekly-2026-03-14", "the next its date")
        XCTAssertEqual(byID[uuid(2)], "weekly-2026-03-14-2", "then numbers")
        XCTAssertEqual(byID[uuid(149)], "weekly-2026-03-14-149")
        XCTAssertEqual(byID[uuid(300)], "weekly", "no date, no year")
        XCTAssertEqual(byID[uuid(301)], "weekly-2")
        for number in [0, 1, 149, 150, 299, 300, 349] {
            XCTAssertEqual(try store.findIssues("calibre/\(byID[uuid(number)]!)").map(\.name), [uuid(number)])
        }
    }

    func testARefreshKeepsEveryHandleEvenWhenTheTitleChanges() throws {
        let (store, _) = try TestSupport.store(for: self)
        let publication = try store.addPublication(title: "calibre", feedURL: feed)
        let first = try XCTUnwrap(try store.upsertIssues([TestSupport.entry(uuid(1), title: "Small Engines", date: march2026)],
                                                         publicationID: publication.id).first)
        XCTAssertEqual(first.handle, "small-engines-2026")
        try store.setState(.available, issueID: first.id)

        let refreshed = try store.upsertIssues([
            TestSupport.entry(uuid(1), title: "Large Engines (revised)", date: march2026 + 400 * day),
            TestSupport.entry(uuid(2), title: "Small Engines", date: march2026 + 7 * day),
        ], publicationID: publication.id)
        let kept = try XCTUnwrap(refreshed.first { $0.name == uuid(1) })
        XCTAssertEqual(kept.id, first.id)
        XCTAssertEqual(kept.title, "Large Engines (revised)", "the metadata is refreshed")
        XCTAssertEqual(kept.handle, "small-engines-2026", "the handle is not")
        XCTAssertEqual(kept.state, .available)
        XCTAssertEqual(refreshed.first { $0.name == uuid(2) }?.handle, "small-engines-2026-03-21", "the newcomer takes the next free name")

        // Back to their first titles, and the second dated like the first: each one's first choice is the other's handle.
        let again = try store.upsertIssues([
            TestSupport.entry(uuid(2), title: "Small Engines", date: march2026),
            TestSupport.entry(uuid(1), title: "Small Engines", date: march2026 + 7 * day),
        ], publicationID: publication.id)
        XCTAssertEqual(again.count, 2, "no issue is added twice")
        XCTAssertEqual(again.first { $0.name == uuid(1) }?.handle, "small-engines-2026", "nothing changes a handle")
        XCTAssertEqual(again.first { $0.name == uuid(2) }?.handle, "small-engines-2026-03-21")
        XCTAssertEqual(again.first { $0.name == uuid(2) }?.date, march2026, "while the metadata is updated")
    }

    func testLookupsTakeHandlesFirstThenCatalogIDs() throws {
        let (store, _) = try TestSupport.store(for: self)
        let calibre = try store.addPublication(title: "calibre", feedURL: feed)
        let kettle = try store.addPublication(title: "Kettle", feedURL: URL(string: "https://kettle.example/catalog.plist")!)
        let engines = try XCTUnwrap(try store.upsertIssues([TestSupport.entry(uuid(1), title: "Small Engines", date: march2026)],
                                                           publicationID: calibre.id).first)
        // Another publication's catalog uses that handle as its id.
        let other = try XCTUnwrap(try store.upsertIssues([TestSupport.entry("small-engines-2026", title: "Other", date: march2026)],
                                                         publicationID: kettle.id).first)
        XCTAssertEqual(other.handle, "small-engines-2026")

        XCTAssertEqual(try store.findIssues("calibre/small-engines-2026").map(\.id), [engines.id])
        XCTAssertEqual(try store.findIssues("Kettle/small-engines-2026").map(\.id), [other.id], "a publication by its title")
        XCTAssertEqual(Set(try store.findIssues("small-engines-2026").map(\.id)), [engines.id, other.id], "ambiguous across publications")
        XCTAssertEqual(try store.findIssues(uuid(1)).map(\.id), [engines.id], "the catalog's id still works")
        XCTAssertEqual(try store.findIssues("calibre/\(uuid(1))").map(\.id), [engines.id])
        XCTAssertEqual(try store.findIssues("calibre/nothing"), [])

        let plan = try store.locked {
            try store.database.query("EXPLAIN QUERY PLAN SELECT \(LibraryStore.issueColumns) FROM issues WHERE handle = ? ORDER BY id", [.text("x")])
        }.compactMap { $0.last?.string }.joined(separator: "\n")
        XCTAssertTrue(plan.contains("issues_by_handle"), "a bare handle is found through its index: \(plan)")
    }

    func testALibraryFromBeforeHandlesGetsThemAndItsDownloadedIssueStillOpens() throws {
        let paths = try TestSupport.paths(for: self)
        let database = try SQLiteDatabase(path: paths.databaseFile.path)
        try database.execute("PRAGMA journal_mode = WAL; PRAGMA foreign_keys = ON;")
        try database.transaction {
            for step in LibrarySchema.migrations.prefix(8) { try database.execute(step) }
        }
        try database.execute("PRAGMA user_version = 8")
        try database.query("INSERT INTO publications (id, name, title, feed_url, added_at) VALUES (1, 'calibre', 'calibre', ?, 10)", [.text(feed.absoluteString)])
        let rows: [(id: Int64, name: String, title: String, date: Date, state: String)] = [
            (1, uuid(1), "Small Engines", march2026, "available"),
            (2, uuid(2), "Small Engines", march2026 + 30 * day, "none"),
            (3, "2025-autumn", "Autumn", march2026 - 200 * day, "none"),
            (4, "https://calibre.example/get/epub/4", "Kettle & Compass: Autumn 2025", march2026 - 170 * day, "none"),
            (5, uuid(5), "Small Engines", Date(timeIntervalSince1970: 0), "none"),
        ]
        for row in rows {
            try database.query("""
                INSERT INTO issues (id, publication_id, name, title, date, content_urls, state, progress, added_at) VALUES (?, 1, ?, ?, ?, 'https://calibre.example/x.epub', ?, 0, 20)
                """, [.integer(row.id), .text(row.name), .text(row.title), .real(row.date.timeIntervalSince1970), .text(row.state)])
        }
        database.close()
        // Installed where this version of Newsstand put it: the folder named from the catalog's id.
        let publication = Publication(id: 1, name: "calibre", title: "calibre", feedURL: feed)
        let folder = paths.folder(for: Issue(id: 1, publicationID: 1, name: uuid(1), title: "Small Engines", date: march2026, contentURLs: []),
                                  of: publication)
        try ArchiveExtractor.extract(archive: TestSupport.sampleIssue("2025-autumn"), into: folder)

        let store = try LibraryStore(file: paths.databaseFile)
        defer { store.close() }
        XCTAssertEqual(store.database.userVersion, LibrarySchema.currentVersion)
        XCTAssertEqual(try store.integrityCheck(), ["ok"])
        let handles = Dictionary(uniqueKeysWithValues: try store.issues(publicationID: 1).map { ($0.id, $0.handle) })
        XCTAssertEqual(handles, [1: "small-engines-2026", 2: "small-engines-2026-04-13", 3: "2025-autumn",
                                 4: "kettle-compass-autumn-2025", 5: "small-engines"])

        let issue = try XCTUnwrap(try store.findIssues("calibre/small-engines-2026").first)
        XCTAssertEqual(issue.name, uuid(1), "the catalog's id stays the key")
        XCTAssertEqual(issue.state, .available)
        XCTAssertEqual(paths.folder(for: issue, of: publication), folder, "the folder did not move")
        let book = try IssueContent.openBook(folder: paths.folder(for: issue, of: publication))
        XCTAssertFalse(book.articles.isEmpty, "the downloaded issue still opens")

        // A refresh after the migration matches the same rows and keeps their handles; a new one is numbered on.
        let refreshed = try store.upsertIssues([
            TestSupport.entry(uuid(1), title: "Small Engines", date: march2026),
            TestSupport.entry(uuid(6), title: "Small Engines", date: march2026 + 30 * day),
        ], publicationID: 1)
        XCTAssertEqual(refreshed.count, 6)
        XCTAssertEqual(refreshed.first { $0.name == uuid(1) }?.handle, "small-engines-2026")
        XCTAssertEqual(refreshed.first { $0.name == uuid(6) }?.handle, "small-engines-2026-04-13-2")
    }
}
