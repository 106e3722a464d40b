import Foundation
import XCTest
@testable import NewsstandCore

/// Bookmarks and highlights in the library: stored by issue, in reading order, deleted one by one, kept when only
/// the issue's file goes, and gone with the issue's entry.
final class MarksStoreTests: XCTestCase {
    private let feed = URL(string: "https://example.com/kettle/catalog.plist")!

    private func issue(_ store: LibraryStore, _ name: String = "spring") throws -> Issue {
        let publication = try store.addPublication(title: "Kettle", feedURL: feed)
        return try XCTUnwrap(try store.upsertIssues([TestSupport.entry(name)], publicationID: publication.id).first)
    }

    func testBookmarksAreKeptInReadingOrderAndDeletedOneByOne() throws {
        let (store, _) = try TestSupport.store(for: self)
        defer { store.close() }
        let issue = try issue(store)
        let later = try store.addBookmark(Bookmark(issueID: issue.id, position: ReadingPosition(articleIndex: 2, blockIndex: 4, characterOffset: 90), name: "Later"))
        let earlier = try store.addBookmark(Bookmark(issueID: issue.id, position: ReadingPosition(articleIndex: 0, blockIndex: 7, characterOffset: 3), name: "Earlier\u{1B}[2J"))
        let bookmarks = try store.bookmarks(issueID: issue.id)
        XCTAssertEqual(bookmarks.map(\.id), [earlier, later])
        XCTAssertEqual(bookmarks[0].position, ReadingPosition(articleIndex: 0, blockIndex: 7, characterOffset: 3), "the line, not only the block")
        XCTAssertFalse(bookmarks[0].name.contains("\u{1B}"), "names are sanitised")
        try store.deleteBookmark(id: earlier)
        XCTAssertEqual(try store.bookmarks(issueID: issue.id).map(\.name), ["Later"])
    }

    func testHighlightsKeepTheirAnchorTextAndNoteAndCanBeMoved() throws {
        let (store, _) = try TestSupport.store(for: self)
        defer { store.close() }
        let issue = try issue(store)
        var highlight = Highlight(issueID: issue.id, start: ReadingPosition(articleIndex: 1, blockIndex: 3, characterOffset: 10),
                                  end: ReadingPosition(articleIndex: 1, blockIndex: 4, characterOffset: 2), articleTitle: "Tea",
                                  text: "a kettle sang", before: "when", after: "and the", note: "lovely")
        highlight.id = try store.addHighlight(highlight)
        var stored = try XCTUnwrap(try store.highlights(issueID: issue.id).first)
        stored.created = highlight.created
        XCTAssertEqual(stored.start, highlight.start)
        XCTAssertEqual(stored.end, highlight.end)
        XCTAssertEqual(stored.text, "a kettle sang")
        XCTAssertEqual(stored.note, "lovely")
        try store.setNote("changed", highlightID: highlight.id)
        highlight.start = ReadingPosition(articleIndex: 2, blockIndex: 0, characterOffset: 0)
        highlight.end = ReadingPosition(articleIndex: 2, blockIndex: 0, characterOffset: 11)
        highlight.isLost = true
        try store.updateHighlightAnchor(highlight)
        let moved = try XCTUnwrap(try store.marks(issueID: issue.id).highlights.first)
        XCTAssertEqual(moved.articleIndex, 2)
        XCTAssertEqual(moved.end.characterOffset, 11)
        XCTAssertTrue(moved.isLost)
        XCTAssertEqual(moved.note, "changed", "moving a highlight keeps its note")
        XCTAssertEqual(try store.issuesWithHighlights(), [issue.id])
        try store.deleteHighlight(id: highlight.id)
        XCTAssertEqual(try store.highlights(issueID: issue.id), [])
    }

    func testMarksStayWhenTheFileGoesAndGoWithTheIssue() throws {
        let (store, _) = try TestSupport.store(for: self)
        defer { store.close() }
        let issue = try issue(store)
        try store.setState(.available, issueID: issue.id)
        try store.addBookmark(Bookmark(issueID: issue.id, position: ReadingPosition(articleIndex: 0, blockIndex: 1), name: "Here"))
        try store.addHighlight(Highlight(issueID: issue.id, start: ReadingPosition(articleIndex: 0, blockIndex: 1),
                                         end: ReadingPosition(articleIndex: 0, blockIndex: 1, characterOffset: 5), articleTitle: "One", text: "Hello"))
        // The downloaded file removed, to be fetched again: the issue's entry stays, and so do its marks.
        try store.setState(.notDownloaded, issueID: issue.id)
        let kept = try store.marks(issueID: issue.id)
        XCTAssertEqual(kept.bookmarks.count, 1)
        XCTAssertEqual(kept.highlights.count, 1)
        try store.removeIssue(id: issue.id)
        XCTAssertEqual(try store.marks(issueID: issue.id), IssueMarks())
    }
}
