import Foundation
import XCTest
import NewsstandContent
import NewsstandCore
@testable import NewsstandUI

/// The one list cursor: how it moves, and that every list of the interface moves with it, by the same keys,
/// with page sizes from its screen's layout.
final class ListCursorTests: XCTestCase {
    // MARK: The cursor alone

    func testEveryMovementKeepsTheSelectionInRangeAndInView() {
        let page = ListPage(rows: 4)
        var cursor = ListCursor()
        cursor.apply(.moveDown, count: 10, page: page)
        XCTAssertEqual(cursor, ListCursor(selection: 1, offset: 0))
        cursor.apply(.pageDown, count: 10, page: page)
        XCTAssertEqual(cursor, ListCursor(selection: 5, offset: 2), "the offset moves as little as possible")
        cursor.apply(.bottom, count: 10, page: page)
        XCTAssertEqual(cursor, ListCursor(selection: 9, offset: 6))
        cursor.apply(.moveDown, count: 10, page: page)
        XCTAssertEqual(cursor, ListCursor(selection: 9, offset: 6), "past the end stays at the end")
        cursor.apply(.pageUp, count: 10, page: page)
        XCTAssertEqual(cursor, ListCursor(selection: 5, offset: 5))
        cursor.apply(.moveUp, count: 10, page: page)
        XCTAssertEqual(cursor, ListCursor(selection: 4, offset: 4))
        cursor.apply(.top, count: 10, page: page)
        XCTAssertEqual(cursor, ListCursor(selection: 0, offset: 0))
        cursor.apply(.moveUp, count: 10, page: page)
        XCTAssertEqual(cursor, ListCursor(selection: 0, offset: 0), "before the start stays at the start")
        XCTAssertFalse(cursor.apply(.tap, count: 10, page: page), "not a movement")
        XCTAssertFalse(cursor.apply(.moveLeft, count: 10, page: page), "left and right move only in a grid")
    }

    func testAnEmptyListAndAOneRowPage() {
        var empty = ListCursor()
        for command: Command in [.moveDown, .moveUp, .pageDown, .pageUp, .top, .bottom] {
            XCTAssertTrue(empty.apply(command, count: 0, page: ListPage(rows: 5)))
            XCTAssertEqual(empty, ListCursor(), "\(command) on an empty list")
        }
        XCTAssertEqual(empty.visibleRange(count: 0, page: ListPage(rows: 5)), 0..<0)
        var one = ListCursor()
        one.apply(.pageDown, count: 5, page: ListPage(rows: 0))
        XCTAssertEqual(one, ListCursor(selection: 1, offset: 1), "a page of no rows still shows one")
        one.apply(.bottom, count: 5, page: ListPage(rows: 1))
        XCTAssertEqual(one, ListCursor(selection: 4, offset: 4))
    }

    func testGridRowsMoveByColumnsAndScrollByWholeRows() {
        let page = ListPage(rows: 2, columns: 3)
        var cursor = ListCursor()
        cursor.apply(.moveRight, count: 20, page: page)
        XCTAssertEqual(cursor.selection, 1)
        cursor.apply(.moveDown, count: 20, page: page)
        XCTAssertEqual(cursor, ListCursor(selection: 4, offset: 0))
        cursor.apply(.moveDown, count: 20, page: page)
        XCTAssertEqual(cursor, ListCursor(selection: 7, offset: 3), "the offset starts a row")
        cursor.apply(.bottom, count: 20, page: page)
        XCTAssertEqual(cursor, ListCursor(selection: 19, offset: 15))
        XCTAssertEqual(cursor.visibleRange(count: 20, page: page), 15..<20)
    }

    func testAResizeKeepsTheSelectionVisible() {
        var cursor = ListCursor(selection: 30, offset: 25)
        cursor.keepVisible(count: 40, page: ListPage(rows: 3))
        XCTAssertEqual(cursor, ListCursor(selection: 30, offset: 28))
        cursor.keepVisible(count: 40, page: ListPage(rows: 20))
        XCTAssertEqual(cursor, ListCursor(selection: 30, offset: 20), "a taller window shows more above, none past the end")
        cursor.keepVisible(count: 10, page: ListPage(rows: 20))
        XCTAssertEqual(cursor, ListCursor(selection: 9, offset: 0), "a shorter list brings the selection back in range")
    }

    func testScrollOnlyViewsMoveTheirOffset() {
        var cursor = ListCursor()
        cursor.scroll(.pageDown, count: 50, page: ListPage(rows: 20))
        XCTAssertEqual(cursor.offset, 20)
        cursor.scroll(.bottom, count: 50, page: ListPage(rows: 20))
        XCTAssertEqual(cursor.offset, 30, "the last page is full")
        cursor.scroll(.moveUp, count: 50, page: ListPage(rows: 20))
        XCTAssertEqual(cursor.offset, 29)
    }

    // MARK: Every list of the interface

    private static let movementKeys: [Key] = [.down, .character("j"), .pageDown, .character(" "), .up, .character("k"), .pageUp,
                                              .character("b"), .end, .character("G"), .home, .character("g"), .scrollDown, .scrollUp]

    private struct ListUnderTest {
        let name: String
        let state: AppState
        let count: Int
        let page: ListPage
        let cursor: (AppState) -> ListCursor?
    }

    /// Each list screen with more items than fit, at a size where PgDn matters.
    private func everyList() -> [ListUnderTest] {
        let width = 90, height = 20
        let body = AppView.body(width: width, height: height)
        let publications = (1...12).map { Publication(id: Int64($0), name: "p\($0)", title: "Publication \($0)", feedURL: URL(string: "https://example.com/\($0)")!) }
        let issues = (1...30).map { Fixtures.issue(Int64($0), "Issue \($0)", day: 28 - $0 % 28) }
        let shelf = Fixtures.state(width: width, height: height, issues: issues)

        var subscriptions = Fixtures.state(width: width, height: height, issues: issues, publications: publications)
        _ = AppUpdate.update(&subscriptions, .keyPressed(.character("s")))

        var contents = shelf
        var reader = ReaderScreen(issueID: 1)
        reader.book = EPUBBook(title: "Issue", creator: nil, language: nil, version: "3.0",
                               articles: (1...25).map { EPUBArticle(title: "Article \($0)", file: URL(fileURLWithPath: "/a\($0).xhtml"), mediaType: "application/xhtml+xml") },
                               tableOfContents: [], coverImage: nil)
        contents.screens = [.shelf, .reader(reader)]

        var results = shelf
        let hits = (1...25).map { SearchHit(issueID: 1, issueName: "issue", issueTitle: "Issue", publicationName: "kettle", articleIndex: $0,
                                            articleTitle: "Article \($0)", blockIndex: 0, snippet: [SnippetPart("match", isMatch: true)]) }
        results.screens = [.shelf, .searchResults(SearchResultsScreen(query: "match", hits: hits))]

        var downloads = shelf
        for id in 1...12 { _ = AppUpdate.update(&downloads, .downloadReported(.queued(issueID: Int64(id), position: id))) }
        _ = AppUpdate.update(&downloads, .keyPressed(.character("D")))

        var catalog = shelf
        var browser = CatalogScreen(url: URL(string: "https://example.com/opds")!)
        browser.pages[0].feed = Feed(format: .opds1, title: "Catalog",
                                     navigation: (1...20).map { NavigationLink(title: "Section \($0)", url: URL(string: "https://example.com/\($0)")!) })
        catalog.screens = [.shelf, .catalog(browser)]

        var headlines = shelf
        headlines.screens = [.shelf, .headlines(HeadlinesScreen(publicationID: 1, title: "Kettle", headlines: (1...15).map {
            Headline(title: "News \($0)")
        }))]

        func top(_ state: AppState) -> Screen? { state.screens.last }
        return [
            ListUnderTest(name: "shelf", state: shelf, count: 30, page: shelf.shelfLayout.page, cursor: { $0.shelfCursor }),
            ListUnderTest(name: "subscriptions", state: subscriptions, count: 12, page: SubscriptionsScreen.layout(in: body).page,
                          cursor: { if case .subscriptions(let screen) = top($0) { screen.cursor } else { nil } }),
            ListUnderTest(name: "contents", state: contents, count: 25, page: ContentsScreen.layout(in: body).page,
                          cursor: { $0.reader?.contentsCursor }),
            ListUnderTest(name: "search results", state: results, count: 25, page: SearchResultsScreen.layout(in: body).page,
                          cursor: { $0.librarySearch?.cursor }),
            ListUnderTest(name: "downloads", state: downloads, count: 12, page: DownloadsScreen.layout(in: body).page,
                          cursor: { $0.downloadsCursor?.cursor }),
            ListUnderTest(name: "catalog", state: catalog, count: 20, page: CatalogScreen.layout(in: body).page,
                          cursor: { $0.catalog?.current?.cursor }),
            ListUnderTest(name: "headlines", state: headlines, count: 15, page: HeadlinesScreen.layout(in: body).page,
                          cursor: { if case .headlines(let headlines) = top($0) { headlines.cursor } else { nil } }),
        ]
    }

    func testEveryKeyMovesEveryListLikeTheOneCursorWithPagesFromItsLayout() throws {
        for list in everyList() {
            var state = list.state
            var expected = try XCTUnwrap(list.cursor(state), list.name)
            XCTAssertGreaterThan(list.count, list.page.itemCount, "\(list.name): more items than fit, so paging shows")
            for key in Self.movementKeys {
                _ = AppUpdate.update(&state, .keyPressed(key))
                let command = try XCTUnwrap(KeyMap.command(for: key, on: state.screen), "\(list.name): \(key) is bound")
                expected.apply(command, count: list.count, page: list.page)
                XCTAssertEqual(list.cursor(state), expected, "\(list.name) after \(key.label)")
                // The selection is drawn on screen: its position shows in the status line.
                let status = AppView.render(state, theme: .fallback).lines().last ?? ""
                if list.name != "headlines" && list.name != "catalog" && list.name != "contents" {
                    XCTAssertTrue(status.contains("\(expected.selection + 1)/\(list.count)"), "\(list.name) after \(key.label): \(status)")
                }
            }
        }
    }

    func testSubscriptionsPageWithPgUpAndPgDn() {
        let publications = (1...12).map { Publication(id: Int64($0), name: "p\($0)", title: "Publication \($0)", feedURL: URL(string: "https://example.com/\($0)")!) }
        var state = Fixtures.state(width: 90, height: 20, issues: [], publications: publications)
        _ = AppUpdate.update(&state, .keyPressed(.character("s")))
        _ = AppUpdate.update(&state, .keyPressed(.pageDown))
        let lines = AppView.render(state, theme: .fallback).lines()
        XCTAssertTrue(lines.contains { $0.hasPrefix("▌ Publication 5 ") }, lines.joined(separator: "\n"))
        XCTAssertTrue(lines.last!.hasSuffix("5/12"), lines.last!)
    }

    func testAResizeKeepsEveryListsSelectionOnScreen() {
        for list in everyList() {
            var state = list.state
            _ = AppUpdate.update(&state, .keyPressed(.end))
            _ = AppUpdate.update(&state, .resized(width: 90, height: 9))
            guard let cursor = list.cursor(state) else { return XCTFail(list.name) }
            let body = state.body
            let page: ListPage = switch list.name {
            case "shelf": state.shelfLayout.page
            case "subscriptions": SubscriptionsScreen.layout(in: body).page
            case "contents": ContentsScreen.layout(in: body).page
            case "search results": SearchResultsScreen.layout(in: body).page
            case "downloads": DownloadsScreen.layout(in: body).page
            case "catalog": CatalogScreen.layout(in: body).page
            default: HeadlinesScreen.layout(in: body).page
            }
            XCTAssertEqual(cursor.selection, list.count - 1, list.name)
            XCTAssertTrue(cursor.visibleRange(count: list.count, page: page).contains(cursor.selection), "\(list.name): \(cursor) in \(page)")
        }
    }

    /// A click selects the row under it (scrolled lists count from the first row shown); a click on no row changes
    /// nothing and says so; Enter keeps the selection.
    func testATapSelectsTheClickedRowOrNothing() {
        // A heading line, then rows of two lines from y = 3 to 12: five rows.
        let layout = ListLayout(area: Rect(x: 0, y: 2, width: 40, height: 11), headerLines: 1, rowHeight: 2)
        var cursor = ListCursor(selection: 7, offset: 6)
        XCTAssertTrue(cursor.tap(.enter, count: 20, in: layout))
        XCTAssertEqual(cursor, ListCursor(selection: 7, offset: 6), "Enter keeps the selection")
        XCTAssertTrue(cursor.tap(.mouseClick(x: 5, y: 8), count: 20, in: layout))
        XCTAssertEqual(cursor.selection, 8, "the third row shown: 6 + (8 - 3) / 2")
        XCTAssertEqual(cursor.offset, 6, "in view already: no scrolling")
        XCTAssertFalse(cursor.tap(.mouseClick(x: 5, y: 2), count: 20, in: layout), "the heading is no row")
        XCTAssertFalse(cursor.tap(.mouseClick(x: 5, y: 13), count: 20, in: layout), "below the list")
        XCTAssertFalse(cursor.tap(.mouseClick(x: 5, y: 11), count: 9, in: layout), "past the last item")
        XCTAssertEqual(cursor.selection, 8, "a miss changes nothing")
        // Any hit test: a grid's, by column.
        XCTAssertTrue(cursor.tap(.mouseClick(x: 25, y: 3), count: 20, page: ListPage(rows: 5, columns: 2)) { x, _, cursor in
            cursor.offset + x / 20
        })
        XCTAssertEqual(cursor.selection, 7)
    }
}
