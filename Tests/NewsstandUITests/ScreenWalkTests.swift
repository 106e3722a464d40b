import Foundation
import XCTest
import NewsstandContent
import NewsstandCore
import NewsstandImaging
@testable import NewsstandUI

/// Every kind of screen walked through the stack and its `ScreenModel`: pushed over what it opens from, a key, a message, drawn at three
/// sizes (nothing but plain text, nothing outside its body), and popped, which restores exactly what was under it.
/// `walks(to:)` switches over every `ScreenKind`: a new kind of screen does not compile until it has a walk here.
final class ScreenWalkTests: XCTestCase {
    let theme = Theme.fallback
    static let sizes = [(40, 12), (80, 24), (200, 60)]

    /// One walk: the stack the screen is opened from, the screen, a message for it and how to see it arrived.
    struct Walk {
        var name: String
        var base: AppState
        /// nil for the shelf, which is the bottom of the stack.
        var screen: Screen?
        var message: Message
        var arrived: (AppState) -> Bool
    }

    func testEveryKindOfScreenWalksThroughTheStack() throws {
        for kind in ScreenKind.allCases {
            let walks = try walks(to: kind)
            XCTAssertFalse(walks.isEmpty, "\(kind) has no walk")
            for walk in walks { try check(walk, kind: kind) }
        }
    }

    private func check(_ walk: Walk, kind: ScreenKind) throws {
        var state = walk.base
        let name = walk.name
        if let screen = walk.screen {
            XCTAssertEqual(screen.kind, kind, "\(name): the walk builds a screen of its kind")
            _ = AppUpdate.apply(.push(screen), &state)
        }
        XCTAssertEqual(state.screen, kind, name)
        let depth = state.screens.count

        _ = AppUpdate.update(&state, .keyPressed(.down))
        XCTAssertEqual(state.screens.count, depth, "\(name): moving down keeps the screen on top")
        XCTAssertEqual(state.screen, kind, name)

        XCTAssertFalse(walk.arrived(state), "\(name): the message has not arrived yet")
        _ = AppUpdate.update(&state, walk.message)
        XCTAssertTrue(walk.arrived(state), "\(name): the message arrived")
        XCTAssertEqual(state.screens.count, depth, "\(name): the message leaves the screen on top")

        for (width, height) in Self.sizes {
            var sized = state
            _ = AppUpdate.update(&sized, .resized(width: width, height: height))
            XCTAssertEqual(sized.screen, kind, "\(name) at \(width)×\(height)")
            let lines = AppView.render(sized, theme: theme).lines()
            XCTAssertEqual(lines.count, height, "\(name) at \(width)×\(height)")
            for line in lines {
                XCTAssertFalse(line.unicodeScalars.contains { $0.properties.generalCategory == .control }, "\(name) at \(width)×\(height): plain text: \(line)")
            }
            let body = sized.body
            XCTAssertTrue(lines[body.y..<body.maxY].contains { !$0.trimmingCharacters(in: .whitespaces).isEmpty },
                          "\(name) at \(width)×\(height) draws something in its body")
            do {
                // Drawn alone through its ScreenModel, the screen writes nothing outside its body.
                let screen = try XCTUnwrap(sized.screens.last).model
                var buffer = CellBuffer(width: width, height: height, style: theme[.background])
                let blank = buffer
                _ = screen.render(sized.shared, in: body, theme: theme, into: &buffer)
                for y in 0..<height where y < body.y || y >= body.maxY {
                    for x in 0..<width { XCTAssertEqual(buffer[x, y], blank[x, y], "\(name) at \(width)×\(height) wrote at \(x),\(y)") }
                }
                let cursor = screen.readingCursor(sized.shared, in: body)
                XCTAssertTrue(body.contains(x: cursor.x, y: cursor.y), "\(name) at \(width)×\(height): the reading cursor is in the body")
            }
        }

        let under = Array(state.screens.dropLast())
        for _ in 0..<3 where state.screens.count == depth {
            _ = AppUpdate.update(&state, .keyPressed(.escape))
        }
        if walk.screen == nil {
            XCTAssertEqual(state.screens, [.shelf], "\(name): the shelf stays at the bottom")
        } else {
            XCTAssertEqual(state.screens, under, "\(name): going back restores exactly what was under it")
        }
    }

    // MARK: The walks

    private func walks(to kind: ScreenKind) throws -> [Walk] {
        let shelf = Fixtures.state(issues: [Fixtures.issue(1, "One"), Fixtures.issue(2, "Two"), Fixtures.issue(7, "Spring", state: .available)])
        let said = StatusMessage("walked")
        let reported = Message.reported(said)
        func saysWalked(_ state: AppState) -> Bool { state.message == said }
        func marksArrived(_ state: AppState) -> Bool { state.reader?.marks != nil }
        let marks = Message.marksLoaded(issueID: 7, .success(IssueMarks()))
        switch kind {
        case .shelf:
            return [Walk(name: "shelf", base: shelf, screen: nil, message: reported, arrived: saysWalked)]
        case .detail:
            return [Walk(name: "issue page", base: shelf, screen: .detail, message: reported, arrived: saysWalked)]
        case .help:
            return [Walk(name: "help", base: shelf, screen: .help(HelpScreen()), message: reported, arrived: saysWalked)]
        case .subscriptions:
            return [Walk(name: "subscriptions", base: shelf, screen: .subscriptions(SubscriptionsScreen()), message: reported, arrived: saysWalked)]
        case .headlines:
            return [Walk(name: "headlines", base: shelf, screen: .headlines(HeadlinesScreen(publicationID: 1, title: "Kettle")),
                         message: .headlinesLoaded(publicationID: 1, .success([Headline(title: "News"), Headline(title: "More")])),
                         arrived: { if case .headlines(let screen)? = $0.screens.last { screen.headlines?.count == 2 } else { false } })]
        case .storage:
            return [Walk(name: "storage", base: shelf, screen: .storage(StorageScreen()),
                         message: .storageMeasured(StorageReport(usage: [], budget: nil, plannedRemovals: [])),
                         arrived: { if case .storage(let screen)? = $0.screens.last { screen.report != nil } else { false } })]
        case .accounts:
            return [Walk(name: "accounts", base: shelf, screen: .accounts(AccountsScreen()), message: .accountsLoaded([]),
                         arrived: { if case .accounts(let screen)? = $0.screens.last { screen.accounts != nil } else { false } })]
        case .catalog:
            let url = URL(string: "https://example.com/opds")!
            return [Walk(name: "catalog", base: shelf, screen: .catalog(CatalogScreen(url: url)),
                         message: .feedLoaded(url, .success(Feed(format: .opds1, title: "Walk", entries: [Self.entry]))),
                         arrived: { $0.catalog?.current?.feed != nil })]
        case .acquisitions:
            return [Walk(name: "getting a title", base: shelf, screen: .acquisitions(AcquisitionScreen(entry: Self.entry)),
                         message: .titleAcquired(.failure(ReaderFailure("the server said no"))),
                         arrived: { $0.message?.isError == true })]
        case .streamedPages:
            var viewer = PageStreamScreen(title: "Harbour Lights", stream: Self.entry.pageStream!,
                                          drawing: PageStreamScreen.drawing(shelf.shared, body: shelf.body))
            let request = try XCTUnwrap(viewer.requestWantedPages().first)
            return [Walk(name: "streamed pages", base: shelf, screen: .streamedPages(viewer),
                         message: .streamedPageFetched(request, .success(Fixtures.art("#", columns: request.drawing.columns, rows: request.drawing.rows))),
                         arrived: { if case .streamedPages(let screen)? = $0.screens.last { screen.pages[0] != nil } else { false } })]
        case .searchResults:
            return [Walk(name: "search results", base: shelf, screen: .searchResults(SearchResultsScreen(query: "tea")),
                         message: .librarySearched(query: "tea", .success([])),
                         arrived: { $0.librarySearch?.hits != nil })]
        case .downloads:
            return [Walk(name: "downloads", base: shelf, screen: .downloads(DownloadsScreen()),
                         message: .downloadReported(.queued(issueID: 1, position: 1)),
                         arrived: { $0.downloadsCursor?.selectedIssueID == 1 })]
        case .contents:
            var reading = try reader(shelf)
            _ = AppUpdate.update(&reading, .keyPressed(.escape))
            return [Walk(name: "contents", base: shelf, screen: reading.screens.last, message: marks, arrived: marksArrived)]
        case .article:
            let reading = try reader(shelf)
            var feed = FeedArticleScreen(publicationID: 1, index: 0, count: 1, title: "News")
            feed.link = URL(string: "https://example.com/news")
            return [Walk(name: "article", base: shelf, screen: reading.screens.last, message: marks, arrived: marksArrived),
                    Walk(name: "feed article", base: shelf, screen: .feedArticle(feed),
                         message: .headlineArticleLoaded(publicationID: 1, index: 0, .success(ReaderTests.blocks(30))),
                         arrived: { if case .feedArticle(let article)? = $0.screens.last { article.view.blocks != nil } else { false } })]
        case .selection:
            var reading = try reader(shelf)
            _ = AppUpdate.update(&reading, .keyPressed(.character("v")))
            return [Walk(name: "passage selection", base: shelf, screen: reading.screens.last, message: marks, arrived: marksArrived)]
        case .bookmarks, .highlights:
            // Over the reader it lists the marks of: the reader under it still gets its messages.
            let reading = try reader(shelf)
            return [Walk(name: "\(kind)", base: reading, screen: .marks(MarksScreen(showsHighlights: kind == .highlights, issueID: 7, marks: reading.reader?.marks)),
                         message: marks, arrived: marksArrived)]
        }
    }

    /// `shelf` with issue 7 open at its first article (a stack of the shelf and the reader).
    private func reader(_ shelf: AppState) throws -> AppState {
        var state = shelf
        var cursor = state.shelfCursor
        cursor.selection = 2
        state.shelfCursor = cursor
        _ = AppUpdate.update(&state, .keyPressed(.enter))
        _ = AppUpdate.update(&state, .issueOpened(issueID: 7, .success(ReaderTests.book(["One", "Two", "Three"])),
                                                  resumeAt: ReadingPosition(articleIndex: 0, blockIndex: 0)))
        _ = AppUpdate.update(&state, .articleLoaded(issueID: 7, articleIndex: 0, .success(ReaderTests.blocks(40))))
        XCTAssertEqual(state.screen, .article)
        XCTAssertEqual(state.screens.count, 2)
        return state
    }

    /// A book in a catalog, with a file to get and its pages to stream.
    static let entry: CatalogEntry = {
        var entry = CatalogEntry(name: "b1", title: "Harbour Lights 1", date: Date(timeIntervalSince1970: 1_767_225_600), contentURLs: [])
        entry.acquisitions = [AcquisitionLink(url: URL(string: "https://comics.example/books/b1/file.cbz")!, kind: .acquisition, type: "application/zip")]
        entry.pageStream = CatalogPageStream(template: "https://comics.example/books/b1/pages/{pageNumber}", pageCount: 24, type: "image/jpeg")
        return entry
    }()
}
