import Foundation
import XCTest
import NewsstandContent
import NewsstandCore
import NewsstandTestSupport
import NewsstandUI
@testable import NewsstandRuntime

/// The runtime re-anchors an issue's stored highlights in its text: one still at its place is left alone, one
/// whose place moved is stored at the new place, one whose text is gone is kept and marked lost.
final class HighlightRecheckTests: XCTestCase {
    func testStoredHighlightsAreCheckedAgainstTheIssueAndTheChangesStored() throws {
        let library = try TemporaryLibrary(for: self)
        let publication = try library.store.addPublication(title: "Kettle", feedURL: URL(string: "https://example.com/feed")!)
        let issue = try XCTUnwrap(try library.store.upsertIssues([CatalogEntry(name: "autumn", title: "Autumn", date: Date(),
                                                                              contentURLs: [URL(string: "https://example.com/autumn.epub")!])],
                                                                 publicationID: publication.id).first)
        let folder = library.paths.folder(for: issue, of: publication)
        let archive = TestFiles.sampleLibrary.appendingPathComponent("issues/2025-autumn.epub")
        _ = try IssueInstaller.install(assets: [archive], sourceURLs: [archive], for: issue, into: folder)
        let book = try IssueContent.openBook(folder: folder)
        let index = try XCTUnwrap(book.articles.indices.first { (try? IssueContent.blocks(of: book, article: $0))?.isEmpty == false })
        let passages = HighlightAnchoring.passages(of: try IssueContent.blocks(of: book, article: index), articleIndex: index)
        XCTAssertGreaterThan(passages.words.count, 12)
        let title = book.articles[index].title

        var staying = HighlightAnchoring.highlight(issueID: issue.id, words: 2...4, of: passages, articleTitle: title)
        staying.id = try library.store.addHighlight(staying)
        // The same words, stored at a place they are not (as if the issue had changed under them).
        let right = HighlightAnchoring.highlight(issueID: issue.id, words: 8...10, of: passages, articleTitle: title)
        var moved = right
        moved.start = passages.words[0].start
        moved.end = passages.words[2].end
        moved.id = try library.store.addHighlight(moved)
        var gone = HighlightAnchoring.highlight(issueID: issue.id, words: 5...6, of: passages, articleTitle: title)
        gone.text = "words no issue of this library has ever held"
        gone.before = ""
        gone.after = ""
        gone.id = try library.store.addHighlight(gone)

        XCTAssertTrue(try HighlightRecheck.run(issueID: issue.id, book: book, store: library.store))
        let stored = Dictionary(uniqueKeysWithValues: try library.store.highlights(issueID: issue.id).map { ($0.id, $0) })
        XCTAssertEqual(stored[staying.id]?.start, staying.start)
        XCTAssertEqual(stored[staying.id]?.isLost, false)
        XCTAssertEqual(stored[moved.id]?.start, right.start, "found again and stored where its words are")
        XCTAssertEqual(stored[moved.id]?.end, right.end)
        XCTAssertEqual(stored[gone.id]?.isLost, true, "kept, marked lost")
        XCTAssertFalse(try HighlightRecheck.run(issueID: issue.id, book: book, store: library.store), "nothing changes a second time")
    }
}
