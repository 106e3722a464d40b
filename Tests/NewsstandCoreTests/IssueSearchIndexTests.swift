import Foundation
import XCTest
@testable import NewsstandCore

final class IssueSearchIndexTests: XCTestCase {
    /// A library with the sample autumn issue installed and marked available (not indexed).
    private func installedSample() throws -> (LibraryStore, LibraryPaths, Publication, Issue) {
        let (store, paths) = try TestSupport.store(for: self)
        let publication = try store.addPublication(title: "Kettle & Compass", feedURL: URL(string: "https://example.com/catalog.plist")!)
        let source = TestSupport.sampleIssue("2025-autumn")
        let issue = try XCTUnwrap(try store.upsertIssues([TestSupport.entry("2025-autumn", title: "The Mending Issue", content: [source])],
                                                         publicationID: publication.id).first)
        try IssueInstaller.install(assets: [source], sourceURLs: [source], for: issue, into: paths.folder(for: issue, of: publication))
        try store.setState(.available, issueID: issue.id)
        return (store, paths, publication, issue)
    }

    func testAnIssueIsIndexedWhenTheQueueInstallsIt() throws {
        let (store, paths) = try TestSupport.store(for: self)
        let publication = try store.addPublication(title: "Kettle & Compass", feedURL: TestSupport.sampleCatalog)
        let source = TestSupport.sampleIssue("2025-autumn")
        let issue = try XCTUnwrap(try store.upsertIssues([TestSupport.entry("2025-autumn", content: [source])], publicationID: publication.id).first)
        let events = EventLog<DownloadEvent>()
        let queue = DownloadQueue(store: store, paths: paths) { events.append($0) }
        queue.enqueue(issueID: issue.id)
        XCTAssertTrue(events.wait { $0.contains { $0.issueID == issue.id && $0.isTerminal } })
        XCTAssertEqual(events.all.last { $0.isTerminal }, .installed(issueID: issue.id))
        XCTAssertGreaterThan(try store.indexedBlockCount(issueID: issue.id), 20)
        XCTAssertEqual(try store.issuesMissingFromTextIndex(), [], "installed issues need no lazy indexing")
    }

    func testSearchFindsWordsWithSnippetsAndIgnoresCaseAndAccents() throws {
        let (store, paths, _, issue) = try installedSample()
        let index = IssueSearchIndex(store: store, paths: paths)
        XCTAssertEqual(try store.indexedBlockCount(issueID: issue.id), 0)
        let hits = try index.search("thermostat")
        XCTAssertGreaterThan(try store.indexedBlockCount(issueID: issue.id), 0, "the first search indexes issues missing from the index")
        let hit = try XCTUnwrap(hits.first)
        XCTAssertEqual(hit.issueID, issue.id)
        XCTAssertEqual(hit.issueName, "2025-autumn")
        XCTAssertEqual(hit.articleIndex, 1)
        XCTAssertEqual(hit.articleTitle, "Saturday at the Repair Café")
        XCTAssertTrue(hit.snippet.contains(SnippetPart("thermostat", isMatch: true)), "\(hit.snippet)")
        XCTAssertTrue(hit.snippetText.contains("two-euro"), hit.snippetText)
        XCTAssertFalse(try index.search("CELESTINE").isEmpty, "case and accents are ignored (Célestine)")
        XCTAssertFalse(try index.search("kettle thermostat").isEmpty, "every word, in any order")
        XCTAssertTrue(try index.search("thermostat zeppelin").isEmpty)
        for syntax in ["\"", "NEAR(a b", "a OR", "*", "-x", "col:thing", "   "] {
            XCTAssertNoThrow(try index.search(syntax), "typed text is never FTS5 syntax: \(syntax)")
        }
    }

    func testEvictingOrRemovingAnIssueRemovesItsRows() throws {
        let (store, paths, publication, issue) = try installedSample()
        let index = IssueSearchIndex(store: store, paths: paths)
        index.index(issue, folder: paths.folder(for: issue, of: publication))
        XCTAssertFalse(try index.search("thermostat").isEmpty)
        try IssueStorage(store: store, paths: paths).evict(issue, of: publication)
        XCTAssertEqual(try store.indexedBlockCount(issueID: issue.id), 0, "eviction drops the issue's rows")
        XCTAssertTrue(try index.search("thermostat").isEmpty)

        let (store2, paths2, publication2, issue2) = try installedSample()
        IssueSearchIndex(store: store2, paths: paths2).index(issue2, folder: paths2.folder(for: issue2, of: publication2))
        XCTAssertGreaterThan(try store2.indexedBlockCount(issueID: issue2.id), 0)
        try store2.removePublication(id: publication2.id)
        XCTAssertEqual(try store2.indexedBlockCount(issueID: issue2.id), 0, "removing the publication drops its issues' rows")
    }

    func testHostileTextInSnippetsIsSanitised() throws {
        let (store, paths, _, issue) = try installedSample()
        try store.replaceIssueText(issueID: issue.id, articles: [
            (title: "Evil\u{1B}]0;owned\u{07} title", blocks: ["before \u{1B}[2J\u{1B}]52;c;cGF5bG9hZA==\u{07}secret \u{202E}word \u{E000}fake\u{E001} after \u{9B}31m"]),
        ])
        let hits = try IssueSearchIndex(store: store, paths: paths).search("secret")
        let hit = try XCTUnwrap(hits.first)
        let shown = hit.articleTitle + hit.snippetText + hit.issueTitle
        for forbidden: Character in ["\u{1B}", "\u{07}", "\u{9B}", "\u{202E}", "\u{E000}", "\u{E001}"] {
            XCTAssertFalse(shown.contains(forbidden), "\(forbidden.unicodeScalars.first!.value) reached a snippet: \(shown.debugDescription)")
        }
        XCTAssertEqual(hit.snippet.filter(\.isMatch).count, 1, "only the real match is marked")
    }
}
