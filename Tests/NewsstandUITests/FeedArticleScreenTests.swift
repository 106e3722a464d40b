import Foundation
import XCTest
import NewsstandContent
import NewsstandCore
import NewsstandImaging
@testable import NewsstandUI

/// A headline read in the reader: Enter opens it, it draws as an article, links open by number, → goes on.
final class FeedArticleScreenTests: XCTestCase {
    let theme = Theme.fallback
    let items = [Headline(title: "Steam & tea", link: URL(string: "https://example.com/steam")), Headline(title: "Second")]
    let blocks: [TextBlock] = HeadlineArticle.blocks(for: Headline(title: "Steam & tea", link: URL(string: "https://example.com/steam"),
                                                                   body: "<p>Kettles <em>sing</em> at <a href=\"https://example.com/boil\">boiling</a>.</p>"))

    private func openedState(_ blocks: [TextBlock]? = nil) -> AppState {
        var state = Fixtures.state(width: 80, height: 20, issues: [])
        _ = AppUpdate.update(&state, .keyPressed(.character("s")))
        _ = AppUpdate.update(&state, .keyPressed(.character("H")))
        _ = AppUpdate.update(&state, .headlinesLoaded(publicationID: Fixtures.publication.id, .success(items)))
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.enter)), [.loadHeadlineArticle(publicationID: Fixtures.publication.id, index: 0)])
        XCTAssertEqual(state.screen, .article, "keys work as in an issue's article")
        _ = AppUpdate.update(&state, .headlineArticleLoaded(publicationID: Fixtures.publication.id, index: 0, .success(blocks ?? self.blocks)))
        return state
    }

    func testEnterReadsTheHeadlineAsAnArticle() {
        let state = openedState()
        let lines = AppView.render(state, theme: theme).lines().map { $0.trimmingCharacters(in: .whitespaces) }
        XCTAssertTrue(lines.contains("STEAM & TEA"), lines.joined(separator: "\n"))
        XCTAssertTrue(lines.contains { $0.hasPrefix("Kettles sing at boiling") }, lines.joined(separator: "\n"))
        XCTAssertTrue(lines.last?.contains("headline 1/2") ?? false, lines.last ?? "")
    }

    func testTheStatusLineSaysTheTimeLeftAtTheReadersPace() {
        let long = (0..<1_200).map { "word\($0)" }.joined(separator: " ")
        var state = openedState([.paragraph(StyledText([StyledRun(long)]))])
        state.readingPace = ReadingPace(fixed: 200)
        let status = AppView.render(state, theme: theme).lines().last ?? ""
        XCTAssertTrue(status.contains("· 6 min left"), "1,200 words at 200 a minute: \(status)")
        state.readingPace = ReadingPace(fixed: 600)
        let faster = AppView.render(state, theme: theme).lines().last ?? ""
        XCTAssertTrue(faster.contains("· 2 min left"), faster)
    }

    func testLinksOpenByNumberAndArrowsGoToTheNextHeadline() {
        var state = openedState()
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("o"))), [])
        _ = AppUpdate.update(&state, .keyPressed(.character("2")))
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.enter)), [.openLink(URL(string: "https://example.com/steam")!)],
                       "the item's own page is the last numbered link")
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.right)), [.loadHeadlineArticle(publicationID: Fixtures.publication.id, index: 1)])
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.right)), [])
        XCTAssertEqual(state.message?.text, "This is the last headline.")
        _ = AppUpdate.update(&state, .keyPressed(.escape))
        guard case .headlines(let headlines)? = state.screens.last else { return XCTFail("\(state.screens)") }
        XCTAssertEqual(headlines.cursor.selection, 1, "the list follows the article read")
    }

    func testASearchHitInAHeadlineOpensItInTheReader() {
        var state = Fixtures.state(width: 80, height: 20, issues: [])
        _ = AppUpdate.update(&state, .keyPressed(.character("/")))
        for character in "pipe" { _ = AppUpdate.update(&state, .keyPressed(.character(character))) }
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.enter)), [.searchLibrary(query: "pipe")])
        let hit = SearchHit(issueID: 0, issueName: "headline 3", issueTitle: "Headlines", publicationName: "kettle", articleIndex: 0,
                            articleTitle: "Why kettles sing", blockIndex: 0, snippet: [SnippetPart("pipe", isMatch: true)],
                            headline: HeadlineLocation(publicationID: 7, position: 2))
        _ = AppUpdate.update(&state, .librarySearched(query: "pipe", .success([hit])))
        XCTAssertTrue(AppView.render(state, theme: theme).lines().contains { $0.contains("Headlines — Why kettles sing — pipe") })
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.enter)), [.loadHeadlineArticle(publicationID: 7, index: 2)])
        _ = AppUpdate.update(&state, .keyPressed(.escape))
        XCTAssertEqual(state.screen, .searchResults, "back returns to the results")
    }

    func testAWebPictureIsAskedForOnceAndDrawnWhenItArrives() throws {
        var state = Fixtures.state(width: 80, height: 20, issues: [])
        _ = AppUpdate.update(&state, .keyPressed(.character("s")))
        _ = AppUpdate.update(&state, .keyPressed(.character("H")))
        _ = AppUpdate.update(&state, .headlinesLoaded(publicationID: Fixtures.publication.id, .success(items)))
        _ = AppUpdate.update(&state, .keyPressed(.enter))
        let pictured = HeadlineArticle.blocks(for: Headline(title: "Steam", link: URL(string: "https://example.com/steam"),
                                                            body: "<p><img src=\"/k.png\" alt=\"a kettle\"/></p>"))
        let effects = AppUpdate.update(&state, .headlineArticleLoaded(publicationID: Fixtures.publication.id, index: 0, .success(pictured)))
        guard case .requestWebPictures(let requests)? = effects.first, let request = requests.first else { return XCTFail("\(effects)") }
        XCTAssertEqual(request.source.absoluteString, "https://example.com/k.png", "resolved against the item's link")
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.down)), [], "asked for once")
        let art = TextArt(columns: request.columns, rows: request.rows,
                          lines: Array(repeating: String(repeating: "#", count: request.columns), count: request.rows))
        _ = AppUpdate.update(&state, .articlePictureRendered(request, .success(art)))
        XCTAssertTrue(AppView.render(state, theme: theme).lines().contains { $0.contains("#####") })
    }
}
