import Foundation
import XCTest
@testable import NewsstandCore

final class LibraryStoreTests: XCTestCase {
    /// Closing the library folds the write-ahead log into the database and leaves its file empty, not deleted: the next
    /// opening neither reads a log back nor creates the file again. What was written is in the database.
    func testClosingLeavesTheWriteAheadLogFileEmpty() throws {
        let paths = try TestSupport.paths(for: self)
        let log = paths.databaseFile.path + "-wal"
        let store = try LibraryStore(file: paths.databaseFile)
        try store.setSetting("kettle", to: "whistling")
        let written = (try FileManager.default.attributesOfItem(atPath: log)[.size] as? Int) ?? 0
        XCTAssertGreaterThan(written, 0, "the write went to the log")
        store.close()
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: log)[.size] as? Int, 0, "the log's file is kept, empty")
        let reopened = try LibraryStore(file: paths.databaseFile)
        defer { reopened.close() }
        XCTAssertEqual(try reopened.setting("kettle"), "whistling")
    }

    private let feed = URL(string: "https://example.com/kettle/catalog.plist")!
    private let otherFeed = URL(string: "https://example.org/lantern/catalog.plist")!

    // MARK: Schema

    func testMigrationsCreateTheSchemaAndSetUserVersion() throws {
        let (store, paths) = try TestSupport.store(for: self)
        store.close()
        XCTAssertTrue(FileManager.default.fileExists(atPath: paths.databaseFile.path))
        let database = try SQLiteDatabase(path: paths.databaseFile.path)
        defer { database.close() }
        XCTAssertEqual(database.userVersion, LibrarySchema.currentVersion)
        XCTAssertGreaterThanOrEqual(LibrarySchema.currentVersion, 1)
        let tables = Set(try database.query("SELECT name FROM sqlite_master WHERE type = 'table'").compactMap { $0.first?.string })
        XCTAssertTrue(tables.isSuperset(of: ["publications", "issues", "reading_positions", "settings"]), "\(tables)")
        let issueColumns = Set(try database.query("PRAGMA table_info(issues)").compactMap { $0[1].string })
        XCTAssertTrue(issueColumns.isSuperset(of: ["name", "state", "failure_reason", "content_urls", "expected_sha256", "opened_at"]), "\(issueColumns)")
        XCTAssertEqual(try database.query("PRAGMA journal_mode").first?.first?.string?.lowercased(), "wal")
    }

    func testReopeningDoesNotRerunMigrations() throws {
        let paths = try TestSupport.paths(for: self)
        let first = try LibraryStore(file: paths.databaseFile)
        let publication = try first.addPublication(title: "Kettle", feedURL: feed)
        first.close()
        let second = try LibraryStore(file: paths.databaseFile)
        defer { second.close() }
        XCTAssertEqual(try second.publications().map(\.id), [publication.id])
    }

    /// Publications read back keep their address as text and parse it when asked: the same URL, equal to the one added.
    func testAPublicationReadBackHasItsFeedURL() throws {
        let (store, _) = try TestSupport.store(for: self)
        defer { store.close() }
        let added = try store.addPublication(title: "Kettle", feedURL: feed)
        let read = try XCTUnwrap(try store.publications().first)
        XCTAssertEqual(read.feedAddress, feed.absoluteString)
        XCTAssertEqual(read.feedURL, feed)
        XCTAssertEqual(read, added)
        var moved = read
        moved.feedURL = otherFeed
        XCTAssertEqual(moved.feedAddress, otherFeed.absoluteString)
        XCTAssertNotEqual(moved, read)
    }

    func testNewerSchemaIsRefused() throws {
        let paths = try TestSupport.paths(for: self)
        try LibraryStore(file: paths.databaseFile).close()
        let database = try SQLiteDatabase(path: paths.databaseFile.path)
        try database.execute("PRAGMA user_version = \(LibrarySchema.currentVersion + 5)")
        database.close()
        XCTAssertThrowsError(try LibraryStore(file: paths.databaseFile)) { error in
            XCTAssertTrue("\(error)".contains("newer"), "\(error)")
        }
    }

    func testALibraryFromBeforeLineExactPositionsKeepsItsPositions() throws {
        let paths = try TestSupport.paths(for: self)
        let store = try LibraryStore(file: paths.databaseFile)
        let publication = try store.addPublication(title: "Kettle", feedURL: feed)
        let issue = try XCTUnwrap(try store.upsertIssues([TestSupport.entry("x")], publicationID: publication.id).first)
        try store.saveReadingPosition(ReadingPosition(articleIndex: 2, blockIndex: 9), issueID: issue.id)
        store.close()
        // Make it a version 5 library, as saved by the release before migration 6.
        let database = try SQLiteDatabase(path: paths.databaseFile.path)
        try database.execute("ALTER TABLE reading_positions DROP COLUMN character_offset")
        // Later migrations that add columns are undone too (7, 8 and 12 are safe to run again).
        try database.execute("DROP INDEX issues_by_handle; ALTER TABLE issues DROP COLUMN handle")  // migration 9's
        try database.execute("ALTER TABLE headlines DROP COLUMN media_url")
        try database.execute("ALTER TABLE headlines DROP COLUMN media_kind")
        try database.execute("ALTER TABLE headlines DROP COLUMN body")
        try database.execute("ALTER TABLE publications DROP COLUMN catalog_root_url")
        try database.execute("ALTER TABLE publications DROP COLUMN catalog_feed_title")
        try database.execute("ALTER TABLE publications DROP COLUMN account_id; ALTER TABLE publications DROP COLUMN account_stream; ALTER TABLE issues DROP COLUMN is_starred")  // 17's (16 is safe to run again)
        try database.execute("PRAGMA user_version = 5")
        database.close()

        let upgraded = try LibraryStore(file: paths.databaseFile)
        defer { upgraded.close() }
        XCTAssertEqual(try upgraded.readingPosition(issueID: issue.id), ReadingPosition(articleIndex: 2, blockIndex: 9, characterOffset: 0))
        try upgraded.saveReadingPosition(ReadingPosition(articleIndex: 2, blockIndex: 9, characterOffset: 41), issueID: issue.id)
        XCTAssertEqual(try upgraded.readingPosition(issueID: issue.id)?.characterOffset, 41)
    }

    // MARK: Persistence

    func testReopenAfterCloseKeepsEverything() throws {
        let paths = try TestSupport.paths(for: self)
        let store = try LibraryStore(file: paths.databaseFile)
        let publication = try store.addPublication(title: "Kettle & Compass", feedURL: feed)
        let issues = try store.upsertIssues([
            TestSupport.entry("a", title: "Alpha", date: Date(timeIntervalSince1970: 100), size: 10, sha256: String(repeating: "0", count: 64)),
            TestSupport.entry("b", date: Date(timeIntervalSince1970: 200)),
            TestSupport.entry("c", date: Date(timeIntervalSince1970: 300)),
        ], publicationID: publication.id)
        let byName = Dictionary(uniqueKeysWithValues: issues.map { ($0.name, $0) })
        let a = try XCTUnwrap(byName["a"]), b = try XCTUnwrap(byName["b"]), c = try XCTUnwrap(byName["c"])
        try store.setState(.available, issueID: a.id)
        try store.setState(.failed(reason: "the server answered 404"), issueID: b.id)
        try store.setState(.downloading, issueID: c.id, progress: 0.25)
        try store.saveReadingPosition(ReadingPosition(articleIndex: 3, blockIndex: 17, characterOffset: 250), issueID: a.id)
        try store.markOpened(issueID: a.id, at: Date(timeIntervalSince1970: 5000))
        try store.recordRefresh(publicationID: publication.id, title: nil, error: "skipped 1 of 4 issues", at: Date(timeIntervalSince1970: 6000))
        store.close()

        let reopened = try LibraryStore(file: paths.databaseFile)
        defer { reopened.close() }
        let publications = try reopened.publications()
        XCTAssertEqual(publications.count, 1)
        XCTAssertEqual(publications[0].title, "Kettle & Compass")
        XCTAssertEqual(publications[0].feedURL, feed)
        XCTAssertEqual(publications[0].lastRefresh, Date(timeIntervalSince1970: 6000))
        XCTAssertEqual(publications[0].lastError, "skipped 1 of 4 issues")
        let reloaded = try reopened.issues(publicationID: publication.id)
        XCTAssertEqual(reloaded.map(\.name), ["c", "b", "a"], "newest first")
        let reA = try XCTUnwrap(try reopened.issue(id: a.id))
        XCTAssertEqual(reA.state, .available)
        XCTAssertEqual(reA.progress, 1)
        XCTAssertEqual(reA.title, "Alpha")
        XCTAssertEqual(reA.expectedSize, 10)
        XCTAssertEqual(reA.expectedSHA256, String(repeating: "0", count: 64))
        XCTAssertEqual(reA.openedAt, Date(timeIntervalSince1970: 5000))
        XCTAssertFalse(reA.isNew)
        XCTAssertEqual(try reopened.issue(id: b.id)?.state, .failed(reason: "the server answered 404"))
        XCTAssertEqual(try reopened.issue(id: c.id)?.state, .downloading)
        XCTAssertEqual(try reopened.issue(id: c.id)?.progress, 0.25)
        XCTAssertEqual(try reopened.readingPosition(issueID: a.id), ReadingPosition(articleIndex: 3, blockIndex: 17, characterOffset: 250))
        XCTAssertNil(try reopened.readingPosition(issueID: b.id))
        XCTAssertEqual(try reopened.currentlyReadingIssueID(), a.id)
    }

    func testReadingPositionIsOverwritten() throws {
        let (store, _) = try TestSupport.store(for: self)
        let publication = try store.addPublication(title: "P", feedURL: feed)
        let issue = try XCTUnwrap(try store.upsertIssues([TestSupport.entry("x")], publicationID: publication.id).first)
        try store.saveReadingPosition(ReadingPosition(articleIndex: 1, blockIndex: 2), issueID: issue.id)
        try store.saveReadingPosition(ReadingPosition(articleIndex: 4, blockIndex: 0), issueID: issue.id)
        XCTAssertEqual(try store.readingPosition(issueID: issue.id), ReadingPosition(articleIndex: 4, blockIndex: 0))
    }

    // MARK: Publications

    func testAddingTheSameFeedTwiceReturnsTheExistingPublicationAndNamesAreUnique() throws {
        let (store, _) = try TestSupport.store(for: self)
        let first = try store.addPublication(title: "The Lantern, No. 3", feedURL: feed)
        let again = try store.addPublication(title: "Something else", feedURL: feed)
        XCTAssertEqual(first.id, again.id)
        XCTAssertEqual(first.name, "the-lantern-no-3")
        let sameTitle = try store.addPublication(title: "The Lantern, No. 3", feedURL: otherFeed)
        XCTAssertNotEqual(sameTitle.name, first.name)
        XCTAssertEqual(try store.publications().count, 2)
        XCTAssertEqual(try store.findPublication("the lantern, no. 3")?.id, first.id)
        XCTAssertEqual(try store.findPublication(otherFeed.absoluteString)?.id, sameTitle.id)
    }

    func testRemovingAPublicationRemovesItsIssuesAndPositions() throws {
        let (store, _) = try TestSupport.store(for: self)
        let doomed = try store.addPublication(title: "Doomed", feedURL: feed)
        let kept = try store.addPublication(title: "Kept", feedURL: otherFeed)
        let doomedIssues = try store.upsertIssues([TestSupport.entry("1"), TestSupport.entry("2")], publicationID: doomed.id)
        try store.upsertIssues([TestSupport.entry("1")], publicationID: kept.id)
        try store.saveReadingPosition(ReadingPosition(articleIndex: 1, blockIndex: 1), issueID: doomedIssues[0].id)
        try store.markOpened(issueID: doomedIssues[0].id)
        XCTAssertTrue(try store.hasPublications())
        try store.removePublication(id: doomed.id)
        XCTAssertTrue(try store.hasPublications())
        XCTAssertEqual(try store.publications().map(\.id), [kept.id])
        XCTAssertEqual(try store.issues(publicationID: doomed.id), [])
        XCTAssertEqual(try store.allIssues().map(\.publicationID), [kept.id])
        XCTAssertNil(try store.issue(id: doomedIssues[0].id))
        XCTAssertNil(try store.readingPosition(issueID: doomedIssues[0].id))
        XCTAssertNil(try store.currentlyReadingIssueID(), "the removed issue is no longer being read")
        try store.removePublication(id: kept.id)
        XCTAssertFalse(try store.hasPublications())
    }

    func testTitlesWithEscapeSequencesAreStoredSanitised() throws {
        let (store, _) = try TestSupport.store(for: self)
        let publication = try store.addPublication(title: "Evil\u{1B}]0;pwned\u{07} Weekly\u{1B}[31m", feedURL: feed)
        XCTAssertEqual(publication.title, "Evil Weekly")
        XCTAssertEqual(try store.publication(id: publication.id)?.title, "Evil Weekly")
        try store.upsertIssues([CatalogEntry(name: "x", title: "Clear\u{1B}[2J\u{1B}[H Screen\n\u{202E}gnp.exe",
                                             date: Date(), summary: "A\u{07}B\u{1B}c C",
                                             contentURLs: [URL(string: "https://example.com/x.epub")!])],
                               publicationID: publication.id)
        let issue = try XCTUnwrap(try store.issues(publicationID: publication.id).first)
        XCTAssertEqual(issue.title, "Clear Screen gnp.exe")
        XCTAssertEqual(issue.summary, "AB C")
        try store.recordRefresh(publicationID: publication.id, title: "Re\u{1B}[5mnamed", error: nil)
        XCTAssertEqual(try store.publication(id: publication.id)?.title, "Renamed")
    }

    // MARK: Issues

    func testUpsertingAnExistingNameUpdatesMetadataAndKeepsState() throws {
        let (store, _) = try TestSupport.store(for: self)
        let publication = try store.addPublication(title: "P", feedURL: feed)
        let original = try XCTUnwrap(try store.upsertIssues([
            TestSupport.entry("spring", title: "Old title", date: Date(timeIntervalSince1970: 1000)),
        ], publicationID: publication.id).first)
        try store.setState(.available, issueID: original.id)
        try store.markOpened(issueID: original.id, at: Date(timeIntervalSince1970: 2000))

        let newContent = [URL(string: "https://cdn.example.com/spring-v2.epub")!]
        let newCover = URL(string: "https://cdn.example.com/spring.png")!
        let after = try store.upsertIssues([
            TestSupport.entry("spring", title: "New title", date: Date(timeIntervalSince1970: 3000), content: newContent,
                              cover: newCover, size: 77),
            TestSupport.entry("summer"),
        ], publicationID: publication.id)
        XCTAssertEqual(after.count, 2)
        XCTAssertEqual(after.filter { $0.name == "spring" }.count, 1, "never duplicated")
        let updated = try XCTUnwrap(try store.issue(id: original.id))
        XCTAssertEqual(updated.title, "New title")
        XCTAssertEqual(updated.date, Date(timeIntervalSince1970: 3000))
        XCTAssertEqual(updated.contentURLs, newContent)
        XCTAssertEqual(updated.coverURL, newCover)
        XCTAssertEqual(updated.expectedSize, 77)
        XCTAssertEqual(updated.state, .available, "the state survives a refresh")
        XCTAssertEqual(updated.openedAt, Date(timeIntervalSince1970: 2000))
        XCTAssertEqual(updated.addedAt, original.addedAt)

        // The same entry twice in one batch is not an error either.
        XCTAssertNoThrow(try store.upsertIssues([TestSupport.entry("autumn"), TestSupport.entry("autumn", title: "Again")],
                                                publicationID: publication.id))
        XCTAssertEqual(try store.issues(publicationID: publication.id).filter { $0.name == "autumn" }.map(\.title), ["Again"])
    }

    func testSameIssueNameInTwoPublications() throws {
        let (store, _) = try TestSupport.store(for: self)
        let one = try store.addPublication(title: "One", feedURL: feed)
        let two = try store.addPublication(title: "Two", feedURL: otherFeed)
        let a = try store.upsertIssues([TestSupport.entry("2025-spring", title: "One's spring")], publicationID: one.id)
        let b = try store.upsertIssues([TestSupport.entry("2025-spring", title: "Two's spring")], publicationID: two.id)
        XCTAssertEqual(a.count, 1)
        XCTAssertEqual(b.count, 1)
        XCTAssertNotEqual(a[0].id, b[0].id)
        try store.setState(.available, issueID: a[0].id)
        XCTAssertEqual(try store.issue(id: b[0].id)?.state, .notDownloaded)
        XCTAssertEqual(try store.allIssues().count, 2)
    }

    func testStateTransitionsKeepTheFailureReason() throws {
        let (store, _) = try TestSupport.store(for: self)
        let publication = try store.addPublication(title: "P", feedURL: feed)
        let issue = try XCTUnwrap(try store.upsertIssues([TestSupport.entry("i")], publicationID: publication.id).first)
        XCTAssertEqual(issue.state, .notDownloaded)
        XCTAssertEqual(issue.progress, 0)
        XCTAssertTrue(issue.state.storedName == "none")

        try store.setState(.downloading, issueID: issue.id)
        try store.setProgress(0.4, issueID: issue.id)
        var current = try XCTUnwrap(try store.issue(id: issue.id))
        XCTAssertEqual(current.state, .downloading)
        XCTAssertEqual(current.progress, 0.4, accuracy: 1e-9)
        XCTAssertFalse(current.isNew)

        try store.setState(.available, issueID: issue.id)
        current = try XCTUnwrap(try store.issue(id: issue.id))
        XCTAssertEqual(current.state, .available)
        XCTAssertEqual(current.progress, 1)
        XCTAssertFalse(current.isNew, "issues from the first catalog are not NEW, downloaded or not")

        try store.setState(.downloading, issueID: issue.id)
        try store.setState(.failed(reason: "the download is damaged: its SHA-256 does not match"), issueID: issue.id)
        current = try XCTUnwrap(try store.issue(id: issue.id))
        XCTAssertEqual(current.state, .failed(reason: "the download is damaged: its SHA-256 does not match"))
        XCTAssertEqual(current.progress, 0)

        try store.setState(.notDownloaded, issueID: issue.id)
        XCTAssertEqual(try store.issue(id: issue.id)?.state, .notDownloaded, "the old reason does not linger")
    }

    func testFindIssuesByNameAndPublicationSlashName() throws {
        let (store, _) = try TestSupport.store(for: self)
        let kettle = try store.addPublication(title: "Kettle & Compass", feedURL: feed)
        let lantern = try store.addPublication(title: "Lantern", feedURL: otherFeed)
        let k = try store.upsertIssues([TestSupport.entry("2025-spring"), TestSupport.entry("only-kettle")], publicationID: kettle.id)
        let l = try store.upsertIssues([TestSupport.entry("2025-spring")], publicationID: lantern.id)
        let kSpring = try XCTUnwrap(k.first { $0.name == "2025-spring" })

        XCTAssertEqual(try store.findIssues("only-kettle").map(\.publicationID), [kettle.id])
        XCTAssertEqual(try store.findIssues("2025-spring").count, 2, "ambiguous: both publications have it")
        XCTAssertEqual(try store.findIssues("\(kettle.name)/2025-spring").map(\.id), [kSpring.id])
        XCTAssertEqual(try store.findIssues("lantern/2025-spring").map(\.id), [l[0].id])
        XCTAssertEqual(try store.findIssues("KETTLE & COMPASS/2025-spring").map(\.id), [kSpring.id], "by title, ignoring case")
        XCTAssertEqual(try store.findIssues("nope"), [])
        XCTAssertEqual(try store.findIssues("lantern/only-kettle"), [])
    }

    func testInterruptedDownloads() throws {
        let (store, _) = try TestSupport.store(for: self)
        let publication = try store.addPublication(title: "P", feedURL: feed)
        let issues = try store.upsertIssues((1...4).map { TestSupport.entry("i\($0)", date: Date(timeIntervalSince1970: Double($0))) },
                                            publicationID: publication.id)
        let byName = Dictionary(uniqueKeysWithValues: issues.map { ($0.name, $0.id) })
        try store.setState(.downloading, issueID: byName["i1"]!, progress: 0.5)
        try store.setState(.downloading, issueID: byName["i3"]!)
        try store.setState(.available, issueID: byName["i2"]!)
        try store.setState(.failed(reason: "x"), issueID: byName["i4"]!)
        XCTAssertEqual(try store.interruptedDownloads().map(\.name).sorted(), ["i1", "i3"])
    }

    func testSettings() throws {
        let (store, _) = try TestSupport.store(for: self)
        XCTAssertNil(try store.setting("offered_sample"))
        try store.setSetting("offered_sample", to: "yes")
        try store.setSetting("offered_sample", to: "done")
        XCTAssertEqual(try store.setting("offered_sample"), "done")
    }

    // MARK: Two processes

    func testTwoStoresOnTheSameFileSeeEachOthersWrites() throws {
        let paths = try TestSupport.paths(for: self)
        let tui = try LibraryStore(file: paths.databaseFile)
        let cli = try LibraryStore(file: paths.databaseFile)
        defer { tui.close(); cli.close() }

        let publication = try cli.addPublication(title: "Shared", feedURL: feed)
        XCTAssertEqual(try tui.publications().map(\.id), [publication.id])
        let issues = try tui.upsertIssues([TestSupport.entry("s1"), TestSupport.entry("s2")], publicationID: publication.id)
        XCTAssertEqual(try cli.issues(publicationID: publication.id).count, 2)
        try cli.setState(.failed(reason: "from the CLI"), issueID: issues[0].id)
        XCTAssertEqual(try tui.issue(id: issues[0].id)?.state, .failed(reason: "from the CLI"))
        try tui.markOpened(issueID: issues[1].id)
        XCTAssertEqual(try cli.currentlyReadingIssueID(), issues[1].id)
    }

    func testTwoStoresWritingAtOnceLoseNothing() throws {
        let paths = try TestSupport.paths(for: self)
        let first = try LibraryStore(file: paths.databaseFile)
        let second = try LibraryStore(file: paths.databaseFile)
        defer { first.close(); second.close() }
        let publication = try first.addPublication(title: "Busy", feedURL: feed)
        let errors = EventLog<String>()
        let group = DispatchGroup()
        for (label, store) in [("a", first), ("b", second)] {
            group.enter()
            DispatchQueue.global().async {
                defer { group.leave() }
                for index in 0..<40 {
                    do {
                        let issues = try store.upsertIssues([TestSupport.entry("\(label)\(index)")], publicationID: publication.id)
                        if let mine = issues.first(where: { $0.name == "\(label)\(index)" }) {
                            try store.setState(.downloading, issueID: mine.id)
                        }
                    } catch {
                        errors.append("\(label)\(index): \(error)")
                    }
                }
            }
        }
        XCTAssertEqual(group.wait(timeout: .now() + 30), .success)
        XCTAssertEqual(errors.all, [])
        XCTAssertEqual(try first.issues(publicationID: publication.id).count, 80)
        XCTAssertEqual(try second.interruptedDownloads().count, 80)
    }

    func testIssuesArrivingAfterSubscribingAreNewUntilOpened() throws {
        let (store, _) = try TestSupport.store(for: self)
        let publication = try store.addPublication(title: "Weekly", feedURL: URL(string: "https://example.com/weekly.plist")!)
        try store.upsertIssues([TestSupport.entry("first")], publicationID: publication.id)
        let later = try store.upsertIssues([TestSupport.entry("first"), TestSupport.entry("second")], publicationID: publication.id, markingNewArrivals: true)
        XCTAssertEqual(later.first { $0.name == "first" }?.isNew, false, "an update never makes an issue NEW")
        let second = try XCTUnwrap(later.first { $0.name == "second" })
        XCTAssertTrue(second.isNew)
        try store.upsertIssues([TestSupport.entry("second", title: "Renamed")], publicationID: publication.id, markingNewArrivals: true)
        XCTAssertEqual(try store.issue(id: second.id)?.isNew, true, "still NEW after a metadata update")
        try store.markOpened(issueID: second.id)
        XCTAssertEqual(try store.issue(id: second.id)?.isNew, false)
    }

    func testPolicyRenameAndUnsubscribeKeepingDownloads() throws {
        let (store, _) = try TestSupport.store(for: self)
        let url = URL(string: "https://example.com/weekly.plist")!
        let publication = try store.addPublication(title: "Weekly", feedURL: url)
        XCTAssertEqual(publication.autoDownload, .none)
        XCTAssertNil(publication.keepNewest)
        try store.setPolicy(publicationID: publication.id, autoDownload: .latest, keepNewest: 3)
        try store.renamePublication(id: publication.id, to: "The \u{1B}[1mWeekly")
        var stored = try XCTUnwrap(try store.publication(id: publication.id))
        XCTAssertEqual(stored.autoDownload, .latest)
        XCTAssertEqual(stored.keepNewest, 3)
        XCTAssertEqual(stored.title, "The Weekly")
        XCTAssertEqual(stored.name, publication.name, "renaming keeps the command-line name")
        XCTAssertThrowsError(try store.renamePublication(id: publication.id, to: "  "))

        let issues = try store.upsertIssues([TestSupport.entry("kept"), TestSupport.entry("dropped")], publicationID: publication.id)
        try store.setState(.available, issueID: issues.first { $0.name == "kept" }!.id)
        try store.unsubscribeKeepingDownloads(publicationID: publication.id)
        stored = try XCTUnwrap(try store.publication(id: publication.id))
        XCTAssertFalse(stored.isSubscribed)
        XCTAssertEqual(stored.autoDownload, .none)
        XCTAssertEqual(try store.issues(publicationID: publication.id).map(\.name), ["kept"])
        XCTAssertEqual(try store.addPublication(title: "Weekly", feedURL: url).isSubscribed, true, "subscribing again revives it")
    }
}
