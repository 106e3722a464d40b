import Foundation
import XCTest
import NewsstandCore
import NewsstandImaging
@testable import NewsstandUI

/// Streamed pages (OPDS-PSE) in the catalog browser: offered with an entry's files, read one per screen, the
/// next page fetched ahead, a few kept, a page that failed said in its place while the others still turn.
final class PageStreamViewerTests: XCTestCase {
    let theme = Theme.fallback
    let root = URL(string: "https://comics.example/opds")!
    let stream = CatalogPageStream(template: "https://comics.example/books/b1/pages/{pageNumber}", pageCount: 24, type: "image/jpeg")

    /// The catalog browser showing one book with a CBZ file and `stream`, its choice of files open.
    private func choosing(_ stream: CatalogPageStream? = nil, width: Int = 80, height: Int = 24) -> AppState {
        var entry = CatalogEntry(name: "b1", title: "Harbour Lights 1", date: Date(timeIntervalSince1970: 1_767_225_600), contentURLs: [])
        entry.acquisitions = [AcquisitionLink(url: URL(string: "https://comics.example/books/b1/file.cbz")!, kind: .acquisition, type: "application/zip")]
        entry.pageStream = stream ?? self.stream
        var state = Fixtures.state(width: width, height: height, issues: [])
        var browser = CatalogScreen(url: root)
        browser.pages[0].feed = Feed(format: .opds1, title: "Latest books", entries: [entry])
        state.screens.append(.catalog(browser))
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.enter)), [])
        return state
    }

    private var viewer: (AppState) -> PageStreamScreen? = { state in
        if case .streamedPages(let viewer)? = state.screens.last { viewer } else { nil }
    }

    private func art(_ text: String, _ drawing: PageDrawing) -> TextArt {
        TextArt(columns: drawing.columns, rows: drawing.rows, lines: Array(repeating: String(repeating: text, count: drawing.columns), count: drawing.rows))
    }

    /// Answers every fetch in `effects` with art (page N drawn with N's last digit), returning the requests.
    @discardableResult
    private func answer(_ effects: [Effect], _ state: inout AppState) -> [StreamedPageRequest] {
        effects.compactMap { effect -> StreamedPageRequest? in
            guard case .fetchStreamedPage(let request) = effect else { return nil }
            _ = AppUpdate.update(&state, .streamedPageFetched(request, .success(art(String(request.page % 10), request.drawing))))
            return request
        }
    }

    private func fetched(_ effects: [Effect]) -> [Int] {
        effects.compactMap { if case .fetchStreamedPage(let request) = $0 { request.page } else { nil } }
    }

    func testTheStreamIsOfferedFirstAndOpensOnTheFirstPageFetchingTheNextAhead() throws {
        var state = choosing()
        let lines = AppView.render(state, theme: theme).lines()
        XCTAssertEqual(lines[4], "▌ Stream 24 pages · read them one by one, nothing downloaded")
        XCTAssertTrue(lines[5].contains("CBZ"), lines[5])
        XCTAssertTrue(lines[2].contains("Enter reads the pages as the server streams them"), lines[2])

        let catalogBefore = state.screens.dropLast()
        let effects = AppUpdate.update(&state, .keyPressed(.enter))
        XCTAssertEqual(state.screen, .streamedPages)
        let drawing = PageDrawing(columns: 78, rows: 21)
        XCTAssertEqual(effects, [.fetchStreamedPage(StreamedPageRequest(stream: stream, page: 0, readingPage: 0, drawing: drawing)),
                                 .fetchStreamedPage(StreamedPageRequest(stream: stream, page: 1, readingPage: 0, drawing: drawing))],
                       "the page shown, then the next, at the size of a comic book's page")
        XCTAssertEqual(AppView.render(state, theme: theme).lines()[2], "  Fetching page 1…")

        _ = AppUpdate.update(&state, .keyPressed(.escape))
        XCTAssertEqual(state.screens[...], catalogBefore, "back in the catalog exactly as it was (the choice of files closed)")
    }

    func testTheServersLastReadPageIsWhereReadingStarts() {
        var state = choosing(CatalogPageStream(template: stream.template, pageCount: 24, lastRead: 7))
        XCTAssertEqual(fetched(AppUpdate.update(&state, .keyPressed(.enter))), [6, 7], "pse:lastRead counts from 1")
        XCTAssertEqual(viewer(state)?.page, 6)
    }

    func testPagesTurnWithinTheBookAndEachTurnFetchesTheNextPageAhead() {
        var state = choosing()
        _ = AppUpdate.update(&state, .keyPressed(.enter))
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.left)), [])
        XCTAssertEqual(state.message?.text, "This is the first page.")
        XCTAssertEqual(fetched(AppUpdate.update(&state, .keyPressed(.right))), [2], "page 2 was fetched ahead already")
        XCTAssertEqual(viewer(state)?.page, 1)
        XCTAssertEqual(fetched(AppUpdate.update(&state, .keyPressed(.character(" ")))), [3])
        XCTAssertEqual(fetched(AppUpdate.update(&state, .keyPressed(.up))), [], "pages 2 and 3 are asked for")
        XCTAssertEqual(viewer(state)?.page, 1)
        XCTAssertEqual(fetched(AppUpdate.update(&state, .keyPressed(.end))), [23])
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("l"))), [])
        XCTAssertEqual(state.message?.text, "This is the last page.")
        XCTAssertEqual(viewer(state)?.page, 23)
        XCTAssertEqual(fetched(AppUpdate.update(&state, .keyPressed(.home))), [], "the first two pages are still awaited")
        XCTAssertEqual(viewer(state)?.page, 0)
    }

    func testAFailedPageIsSaidInItsPlaceTheOthersStillTurnAndItIsTriedAgain() throws {
        var state = choosing()
        let first = AppUpdate.update(&state, .keyPressed(.enter))
        guard case .fetchStreamedPage(let page1) = first[0], case .fetchStreamedPage(let page2) = first[1] else { return XCTFail("\(first)") }
        _ = AppUpdate.update(&state, .streamedPageFetched(page1, .failure(ReaderFailure("page 1 is a WebP picture, which Newsstand cannot show"))))
        var lines = AppView.render(state, theme: theme).lines()
        XCTAssertEqual(lines[2], "  Page 1 is a WebP picture, which Newsstand cannot show")
        XCTAssertEqual(lines[4], "  The other pages still turn: → and ←.")
        XCTAssertTrue(lines[22].contains("Harbour Lights 1 · page 1 of 24"), lines[22])

        answer([.fetchStreamedPage(page2)], &state)
        XCTAssertEqual(fetched(AppUpdate.update(&state, .keyPressed(.right))), [2])
        lines = AppView.render(state, theme: theme).lines()
        XCTAssertEqual(lines[1], " " + String(repeating: "1", count: 78), "page 2 drawn, centred")
        XCTAssertTrue(lines[22].contains("page 2 of 24"), lines[22])
        XCTAssertEqual(fetched(AppUpdate.update(&state, .keyPressed(.left))), [0], "the failed page is asked for again")
        XCTAssertEqual(AppView.render(state, theme: theme).lines()[2], "  Fetching page 1…")
    }

    func testAPageSkippedByTheRunnerIsAskedForAgainWhenStillWanted() {
        var state = choosing()
        let effects = AppUpdate.update(&state, .keyPressed(.enter))
        guard case .fetchStreamedPage(let page1) = effects[0] else { return XCTFail("\(effects)") }
        XCTAssertEqual(AppUpdate.update(&state, .streamedPageSkipped(page1)), [.fetchStreamedPage(page1)])
    }

    func testOnlyAFewPagesAreKeptTheNearestToTheOneShown() {
        var state = choosing()
        answer(AppUpdate.update(&state, .keyPressed(.enter)), &state)
        for _ in 0..<12 { answer(AppUpdate.update(&state, .keyPressed(.right)), &state) }
        let kept = viewer(state)?.pages.keys.sorted()
        XCTAssertEqual(kept, [9, 10, 11, 12, 13], "page 12 shown: it, the next and those just before")
        XCTAssertEqual(viewer(state)?.requested.isEmpty, true)
        XCTAssertEqual(fetched(AppUpdate.update(&state, .keyPressed(.home))), [0, 1], "far pages are fetched again")
    }

    func testAResizeDrawsThePagesAgainAndAnswersForTheOldSizeAreDropped() {
        var state = choosing()
        let old = AppUpdate.update(&state, .keyPressed(.enter))
        let effects = AppUpdate.update(&state, .resized(width: 100, height: 30))
        let drawing = PageDrawing(columns: 98, rows: 27)
        XCTAssertEqual(effects, [.fetchStreamedPage(StreamedPageRequest(stream: stream, page: 0, readingPage: 0, drawing: drawing)),
                                 .fetchStreamedPage(StreamedPageRequest(stream: stream, page: 1, readingPage: 0, drawing: drawing))])
        answer(old, &state)
        XCTAssertEqual(viewer(state)?.pages.isEmpty, true, "art drawn for the old size is not shown")
        answer(effects, &state)
        XCTAssertEqual(viewer(state)?.pages.keys.sorted(), [0, 1])
        XCTAssertEqual(AppView.render(state, theme: theme).lines().last?.hasSuffix(" 1/24"), true, "the status line's position")
    }

    func testARequestIsOutdatedOnceTheReaderHasMovedOnOrTheSizeChanged() {
        let drawing = PageDrawing(columns: 40, rows: 20)
        func request(_ page: Int, reading: Int, _ drawing: PageDrawing = drawing) -> StreamedPageRequest {
            StreamedPageRequest(stream: stream, page: page, readingPage: reading, drawing: drawing)
        }
        XCTAssertFalse(request(3, reading: 3).isOutdated(by: request(4, reading: 3)))
        XCTAssertFalse(request(4, reading: 3).isOutdated(by: request(5, reading: 4)), "still the next page… now shown")
        XCTAssertTrue(request(3, reading: 3).isOutdated(by: request(6, reading: 5)))
        XCTAssertTrue(request(3, reading: 3).isOutdated(by: request(3, reading: 3, PageDrawing(columns: 50, rows: 20))))
        let other = StreamedPageRequest(stream: CatalogPageStream(template: "https://comics.example/b2/{pageNumber}", pageCount: 24),
                                        page: 3, readingPage: 3, drawing: drawing)
        XCTAssertTrue(request(3, reading: 3).isOutdated(by: other))
        XCTAssertEqual(PageStreamScreen.wantedPages(reading: 23, count: 24), [23], "nothing past the last page")
    }

    func testAStreamWithoutFilesIsStillOffered() {
        var entry = CatalogEntry(name: "b1", title: "Only streamed", date: Date(timeIntervalSince1970: 0), contentURLs: [])
        entry.pageStream = CatalogPageStream(template: stream.template, pageCount: 1)
        let choice = AcquisitionScreen(entry: entry)
        XCTAssertEqual(choice.rowCount, 1)
        XCTAssertNil(choice.link(atRow: 0))
        var buffer = CellBuffer(width: 60, height: 8, style: theme[.background])
        AcquisitionScreen.render(choice, in: Rect(x: 0, y: 0, width: 60, height: 8), theme: theme, into: &buffer)
        XCTAssertEqual(buffer.lines()[3], "▌ Stream 1 page · read them one by one, nothing downloaded")
    }
}
