import Foundation
import XCTest
import NewsstandContent
import NewsstandCore
import NewsstandImaging
@testable import NewsstandUI

/// The issue reader and a feed's article are one article view: the same blocks lay out, scroll, reflow, ask for
/// pictures and draw the same in both. And the art cache both (and the shelf's covers) keep.
final class ArticleViewTests: XCTestCase {
    let theme = Theme.fallback
    let picture = URL(string: "https://example.com/kettle.png")!

    private var blocks: [TextBlock] {
        [.heading(level: 1, text: StyledText("Steam and tea"))]
            + (0..<30).map { .paragraph(StyledText([StyledRun("Paragraph \($0) has "), StyledRun("bold", style: .bold),
                                                    StyledRun(" words that wrap across the narrow window many times over.")])) }
            + [.image(source: picture, alt: "A kettle"), .caption("The kettle."), .paragraph("The end.")]
    }

    /// An issue's article and a feed's, both loaded with `blocks`, in one state each.
    private func bothOpen() -> (issue: AppState, feed: AppState) {
        var issue = Fixtures.state(width: 60, height: 20, issues: [Fixtures.issue(7, "Spring", state: .available)])
        _ = AppUpdate.update(&issue, .keyPressed(.enter))
        _ = AppUpdate.update(&issue, .issueOpened(issueID: 7, .success(ReaderTests.book(["One"])), resumeAt: ReadingPosition(articleIndex: 0, blockIndex: 0)))
        _ = AppUpdate.update(&issue, .articleLoaded(issueID: 7, articleIndex: 0, .success(blocks)))
        var feed = Fixtures.state(width: 60, height: 20, issues: [])
        _ = AppUpdate.update(&feed, .keyPressed(.character("s")))
        _ = AppUpdate.update(&feed, .keyPressed(.character("H")))
        _ = AppUpdate.update(&feed, .headlinesLoaded(publicationID: Fixtures.publication.id, .success([Headline(title: "Steam")])))
        _ = AppUpdate.update(&feed, .keyPressed(.enter))
        _ = AppUpdate.update(&feed, .headlineArticleLoaded(publicationID: Fixtures.publication.id, index: 0, .success(blocks)))
        return (issue, feed)
    }

    private func views(_ states: (issue: AppState, feed: AppState)) throws -> (issue: ArticleView, feed: ArticleView) {
        let issue = try XCTUnwrap(states.issue.reader?.view)
        let article = try XCTUnwrap(states.feed.screens.last.flatMap { screen -> FeedArticleScreen? in
            if case .feedArticle(let article) = screen { article } else { nil }
        }, "a feed article on top: \(states.feed.screens)")
        return (issue, article.view)
    }

    /// The article's rows as drawn (between the header and the status line).
    private func body(_ state: AppState) -> [String] {
        Array(AppView.render(state, theme: theme).lines().dropFirst().dropLast())
    }

    func testTheFeedArticleAndTheIssueArticleLayOutScrollAndDrawTheSameBlocksIdentically() throws {
        var states = bothOpen()
        var (issue, feed) = try views(states)
        XCTAssertEqual(issue.issueID, 7)
        XCTAssertEqual(feed.issueID, 0, "a feed's pictures are web addresses")
        XCTAssertEqual(issue.blocks, feed.blocks)
        XCTAssertNotNil(issue.layout)
        XCTAssertEqual(issue.layout, feed.layout, "one layout")
        XCTAssertEqual(body(states.issue), body(states.feed), "drawn alike from the top")

        for key: Key in [.pageDown, .down, .down, .pageDown, .up, .end, .pageUp] {
            _ = AppUpdate.update(&states.issue, .keyPressed(key))
            _ = AppUpdate.update(&states.feed, .keyPressed(key))
            (issue, feed) = try views(states)
            XCTAssertEqual(issue.topLine, feed.topLine, "scrolled alike after \(key)")
            XCTAssertEqual(body(states.issue), body(states.feed), "drawn alike after \(key)")
        }
        XCTAssertGreaterThan(issue.topLine, 0)

        // The picture each asks for is the same but for whose it is; drawn, it is drawn the same.
        XCTAssertEqual(issue.pictures.requested.map(\.source), [picture])
        XCTAssertEqual(feed.pictures.requested.map(\.source), [picture])
        let asked = try XCTUnwrap(issue.pictures.requested.first)
        let web = try XCTUnwrap(feed.pictures.requested.first)
        XCTAssertEqual(PictureRequest(issueID: 0, source: asked.source, columns: asked.columns, rows: asked.rows, mode: asked.mode,
                                      background: asked.background, cellPixels: asked.cellPixels), web)
        let art = Fixtures.art("#", columns: asked.columns, rows: asked.rows)
        _ = AppUpdate.update(&states.issue, .articlePictureRendered(asked, .success(art)))
        _ = AppUpdate.update(&states.feed, .articlePictureRendered(web, .success(art)))
        XCTAssertTrue(body(states.issue).contains { $0.contains("#####") }, body(states.issue).joined(separator: "\n"))
        XCTAssertEqual(body(states.issue), body(states.feed), "pictures drawn alike")

        // A narrower window lays both out again, keeping the same text at the top.
        let topBlock = try XCTUnwrap(issue.layout).lines[issue.topLine].blockIndex
        _ = AppUpdate.update(&states.issue, .resized(width: 44, height: 16))
        _ = AppUpdate.update(&states.feed, .resized(width: 44, height: 16))
        (issue, feed) = try views(states)
        XCTAssertEqual(issue.layout?.width, 44)
        XCTAssertEqual(issue.layout, feed.layout)
        XCTAssertEqual(issue.topLine, feed.topLine)
        XCTAssertEqual(issue.layout?.lines[issue.topLine].blockIndex, topBlock, "the same text at the top")
        XCTAssertEqual(body(states.issue), body(states.feed), "drawn alike after a resize")
    }

    func testTheArtCacheAsksOnceKeepsAnswersAndForgets() {
        struct Failure: Error {}
        var cache = ArtCache<Int>()
        XCTAssertEqual(cache.ask(for: [1, 2, 2, 3]), [1, 2, 3], "each once, in order")
        XCTAssertEqual(cache.ask(for: [3, 4, 1]), [4], "what was asked for is not asked for again")
        XCTAssertEqual(cache.requested, [1, 2, 3, 4])
        let art = Fixtures.art("#", columns: 2, rows: 1)
        cache.receive(1, Result<TextArt, Failure>.success(art))
        cache.receive(2, Result<TextArt, Failure>.failure(Failure()))
        XCTAssertEqual(cache[1], art)
        XCTAssertNil(cache[2])
        XCTAssertTrue(cache.hasFailed(2))
        XCTAssertFalse(cache.hasFailed(1))
        XCTAssertFalse(cache.hasFailed(3), "awaited is not failed")
        XCTAssertEqual(cache.ask(for: [1, 2]), [], "neither a drawn nor a failed picture is asked for again")

        // Asking again forgets the asking and the failure, keeps the art until new art comes.
        cache.askAgain { $0 <= 2 }
        XCTAssertEqual(cache[1], art)
        XCTAssertFalse(cache.hasFailed(2))
        XCTAssertEqual(cache.ask(for: [1, 2, 3]), [1, 2])

        // Keeping some forgets all of the others.
        cache.noteFailed(4)
        cache.keep { $0 != 1 && $0 != 4 }
        XCTAssertNil(cache[1])
        XCTAssertFalse(cache.hasFailed(4))
        XCTAssertEqual(cache.requested, [2, 3])
        XCTAssertEqual(cache.ask(for: [1, 4]), [1, 4])
    }
}
