import Foundation
import XCTest
import NewsstandContent
import NewsstandCore
@testable import NewsstandUI

/// A headline's whole article in the reader (issue 24): a short item fetches it by itself, `F` asks for it, it is
/// shown in place of the summary with its source named, and fetching, a page without an article and a failure are
/// said plainly, the summary staying.
final class WholeArticleScreenTests: XCTestCase {
    let theme = Theme.fallback
    let link = URL(string: "https://example.com/posts/sing")!
    var items: [Headline] { [Headline(title: "Why kettles sing", link: link, summary: "Steam, briefly."), Headline(title: "Second")] }
    var summary: [TextBlock] { HeadlineArticle.blocks(for: items[0]) }

    /// What the page's article would be: a site, a byline and three paragraphs, one with a link.
    var whole: StoredHeadlineArticle {
        let pipes = TextLink(number: 1, url: URL(string: "https://example.com/pipes")!)
        let article = ExtractedArticle(title: "How kettles sing", byline: "Ada Brass", published: "2026-11-20T08:00:00Z", siteName: "Kettle Weekly",
                                       readerable: true, blocks: [
            .paragraph("The whistle of a kettle is a small organ pipe."),
            .heading(level: 2, text: "Brass or tin"),
            .paragraph(StyledText([StyledRun("Victorian makers filed the brass, see "), StyledRun("pipes[1]", link: pipes), StyledRun(".")])),
        ])
        return StoredHeadlineArticle(link: link, article: article, fetchedAt: Date(timeIntervalSince1970: 1_800_000_000))
    }

    private func headlinesState(_ items: [Headline]? = nil) -> AppState {
        var state = Fixtures.state(width: 80, height: 20, issues: [])
        _ = AppUpdate.update(&state, .keyPressed(.character("s")))
        _ = AppUpdate.update(&state, .keyPressed(.character("H")))
        _ = AppUpdate.update(&state, .headlinesLoaded(publicationID: Fixtures.publication.id, .success(items ?? self.items)))
        return state
    }

    /// The first headline opened with Enter and its summary read.
    private func openedState() -> AppState {
        var state = headlinesState()
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.enter)), [.loadHeadlineArticle(publicationID: Fixtures.publication.id, index: 0)])
        _ = AppUpdate.update(&state, .headlineArticleLoaded(publicationID: Fixtures.publication.id, index: 0, .success(summary)))
        return state
    }

    private func screen(_ state: AppState) -> [String] {
        AppView.render(state, theme: theme).lines().map { $0.trimmingCharacters(in: .whitespaces) }
    }

    private func fetched(_ result: Result<StoredHeadlineArticle, ReaderFailure>, _ state: inout AppState) -> [Effect] {
        AppUpdate.update(&state, .headlineArticleFetched(publicationID: Fixtures.publication.id, index: 0, link: link, result))
    }

    func testAShortItemFetchesItsWholeArticleWhichReplacesTheSummaryWithItsSource() {
        var state = openedState()
        let fullText = HeadlineFullText(link: link, mode: .ask, itemWordCount: 2)
        XCTAssertEqual(AppUpdate.update(&state, .headlineFullTextLoaded(publicationID: Fixtures.publication.id, index: 0, fullText)),
                       [.fetchHeadlineArticle(publicationID: Fixtures.publication.id, index: 0, link: link)])
        var lines = screen(state)
        XCTAssertTrue(lines.contains("Steam, briefly."), "the summary while the page is fetched: \(lines.joined(separator: "\n"))")
        XCTAssertTrue(lines.last?.hasPrefix("A short item: fetching the who…") ?? false, "cut to make room, and says so: \(lines.last ?? "")")
        XCTAssertTrue(lines.last?.hasSuffix("fetching… · headline 1/2 · 100% · < 1 min left") ?? false, lines.last ?? "")
        _ = AppUpdate.update(&state, .keyPressed(.down))
        XCTAssertTrue(screen(state).last?.hasSuffix("fetching… · headline 1/2 · 100% · < 1 min left") ?? false, "the status stays after the message goes")

        XCTAssertEqual(fetched(.success(whole), &state), [])
        lines = screen(state)
        XCTAssertEqual(Array(lines[1...10]), [
            "HOW KETTLES SING",
            "━━━━━━━━━━━━━━━━",
            "",
            "Ada Brass · 20 November 2026",
            "",
            "Whole article from Kettle Weekly · https://example.com/posts/sing",
            "",
            "The whistle of a kettle is a small organ pipe.",
            "",
            "Brass or tin",
        ], lines.joined(separator: "\n"))
        XCTAssertFalse(lines.contains("Steam, briefly."), "in place of the summary")
        XCTAssertEqual(state.message?.text, "The whole article, from Kettle Weekly · https://example.com/posts/sing.")
        _ = AppUpdate.update(&state, .keyPressed(.down))
        XCTAssertTrue(screen(state).last?.contains("whole article · headline 1/2") ?? false, screen(state).last ?? "")

        // Its links are numbered as extracted, the page itself last.
        _ = AppUpdate.update(&state, .keyPressed(.character("o")))
        _ = AppUpdate.update(&state, .keyPressed(.character("2")))
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.enter)), [.openLink(link)])
    }

    func testAPageWithoutAnArticleSaysSoAndKeepsTheSummary() {
        var state = openedState()
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("F"))),
                       [.fetchHeadlineArticle(publicationID: Fixtures.publication.id, index: 0, link: link)], "F in the article")
        XCTAssertEqual(state.message?.text, "Fetching the whole article from https://example.com/posts/sing…")
        var none = whole
        none.article = ExtractedArticle(readerable: false, blocks: [.paragraph("Home")])
        _ = fetched(.success(none), &state)
        let lines = screen(state)
        XCTAssertEqual(Array(lines[1...10]), [
            "WHY KETTLES SING",
            "━━━━━━━━━━━━━━━━",
            "",
            "The page at https://example.com/posts/sing has no article to take out (a",
            "front page, a list of links or an empty page): this is the feed's",
            "summary.",
            "",
            "Steam, briefly.",
            "",
            "Read it on the web[1]",
        ], lines.joined(separator: "\n"))
        XCTAssertEqual(state.message, StatusMessage("No article on https://example.com/posts/sing: the feed's summary stays.", isError: true))
        XCTAssertFalse(lines.last?.contains("fetching") ?? true)
    }

    func testAFailedFetchSaysWhyAndKeepsTheSummaryAndFTriesAgain() {
        var state = openedState()
        _ = AppUpdate.update(&state, .keyPressed(.character("F")))
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("F"))), [], "one fetch at a time")
        XCTAssertEqual(state.message?.text, "Already fetching the whole article from https://example.com/posts/sing…")
        _ = fetched(.failure(ReaderFailure("cannot connect to example.com")), &state)
        let lines = screen(state)
        XCTAssertTrue(lines.contains { $0.hasPrefix("The whole article could not be fetched (cannot connect to example.com):") }, lines.joined(separator: "\n"))
        XCTAssertTrue(lines.contains("Steam, briefly."))
        XCTAssertEqual(state.message, StatusMessage("Cannot fetch the whole article: cannot connect to example.com", isError: true))
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("F"))),
                       [.fetchHeadlineArticle(publicationID: Fixtures.publication.id, index: 0, link: link)])
        _ = fetched(.success(whole), &state)
        XCTAssertFalse(screen(state).contains { $0.hasPrefix("The whole article could not be fetched") }, "the note goes with the problem")
    }

    func testAKeptArticleOpensAtOnceWithoutTheNetwork() {
        var state = openedState()
        let fullText = HeadlineFullText(link: link, mode: .ask, itemWordCount: 2, stored: whole)
        XCTAssertEqual(AppUpdate.update(&state, .headlineFullTextLoaded(publicationID: Fixtures.publication.id, index: 0, fullText)), [])
        XCTAssertTrue(screen(state).contains("Whole article from Kettle Weekly · https://example.com/posts/sing"))
        XCTAssertTrue(screen(state).last?.contains("whole article · headline 1/2") ?? false)

        // A page found before to have no article is not fetched again by itself; the note says why.
        var other = openedState()
        var none = whole
        none.article = ExtractedArticle(readerable: false)
        let known = HeadlineFullText(link: link, mode: .always, itemWordCount: 2, stored: none)
        XCTAssertEqual(AppUpdate.update(&other, .headlineFullTextLoaded(publicationID: Fixtures.publication.id, index: 0, known)), [])
        XCTAssertTrue(screen(other).contains { $0.hasPrefix("The page at https://example.com/posts/sing has no article") })
    }

    func testNeverOrALongItemWaitsForF() {
        for fullText in [HeadlineFullText(link: link, mode: .never, itemWordCount: 2),
                         HeadlineFullText(link: link, mode: .ask, itemWordCount: FullTextMode.shortItemWords),
                         HeadlineFullText(link: nil, mode: .always, itemWordCount: 2)] {
            var state = openedState()
            XCTAssertEqual(AppUpdate.update(&state, .headlineFullTextLoaded(publicationID: Fixtures.publication.id, index: 0, fullText)), [], "\(fullText)")
            XCTAssertFalse(screen(state).last?.contains("fetching") ?? true)
        }
        XCTAssertTrue(HeadlineFullText(link: link, mode: .always, itemWordCount: 149).fetchesOnOpen)
        XCTAssertFalse(HeadlineFullText(link: link, mode: .always, itemWordCount: 150).fetchesOnOpen)
    }

    func testFOnTheHeadlinesOpensTheItemAndFetchesItsArticle() {
        var state = headlinesState()
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("F"))),
                       [.loadHeadlineArticle(publicationID: Fixtures.publication.id, index: 0),
                        .fetchHeadlineArticle(publicationID: Fixtures.publication.id, index: 0, link: link)])
        XCTAssertEqual(state.screen, .article)
        // The article may come before the item's own text: it is shown once that is read.
        _ = fetched(.success(whole), &state)
        _ = AppUpdate.update(&state, .headlineArticleLoaded(publicationID: Fixtures.publication.id, index: 0, .success(summary)))
        let fullText = HeadlineFullText(link: link, mode: .ask, itemWordCount: 2)
        XCTAssertEqual(AppUpdate.update(&state, .headlineFullTextLoaded(publicationID: Fixtures.publication.id, index: 0, fullText)), [],
                       "not fetched twice")
        XCTAssertTrue(screen(state).contains("Whole article from Kettle Weekly · https://example.com/posts/sing"), screen(state).joined(separator: "\n"))

        // A headline without a link, or one its feed may not point to, is not fetched, and says why.
        var unlinked = headlinesState([Headline(title: "No link")])
        _ = AppUpdate.update(&unlinked, .keyPressed(.character("F")))
        XCTAssertEqual(unlinked.message?.text, "This headline has no link: there is no page to fetch its article from.")
        var local = headlinesState([Headline(title: "Local", link: URL(fileURLWithPath: "/etc/passwd"))])
        XCTAssertEqual(AppUpdate.update(&local, .keyPressed(.character("F"))), [.loadHeadlineArticle(publicationID: Fixtures.publication.id, index: 0)])
        XCTAssertEqual(local.message, StatusMessage("Not fetched: \(DocumentOrigin.pointsToLocalFile)", isError: true))
    }

    func testTheHeadlinesSayWhichArticlesAreKept() {
        var state = headlinesState()
        _ = AppUpdate.update(&state, .wholeArticlesListed(publicationID: Fixtures.publication.id, [link]))
        var lines = screen(state)
        XCTAssertTrue(lines.contains { $0.hasSuffix("whole article kept · https://example.com/posts/sing") }, lines.joined(separator: "\n"))
        XCTAssertEqual(lines.filter { $0.contains("whole article kept") }.count, 1)

        // An article fetched from the reader is marked on the list it was opened from.
        var fresh = headlinesState()
        _ = AppUpdate.update(&fresh, .keyPressed(.character("F")))
        _ = fetched(.success(whole), &fresh)
        _ = AppUpdate.update(&fresh, .keyPressed(.escape))
        lines = screen(fresh)
        XCTAssertTrue(lines.contains { $0.hasSuffix("whole article kept · https://example.com/posts/sing") }, lines.joined(separator: "\n"))
    }

    func testTheStorageScreenCountsKeptArticles() {
        var state = Fixtures.state(width: 90, height: 24, issues: [])
        _ = AppUpdate.update(&state, .keyPressed(.character("S")))
        let usage = StorageReport.Usage(publication: Fixtures.publication, issueCount: 1, bytes: 2 << 20, articleCount: 12, articleBytes: 1 << 20)
        _ = AppUpdate.update(&state, .storageMeasured(StorageReport(usage: [usage], budget: nil, plannedRemovals: [])))
        let lines = AppView.render(state, theme: theme).lines()
        XCTAssertEqual(lines[3], "  Kettle & Compass       3.0 MB  1 issue, 12 articles")
        XCTAssertTrue(lines[5].hasPrefix("  Total 3.0 MB."), lines[5])
    }

    func testAResultForAnotherHeadlineChangesNothing() {
        var state = openedState()
        _ = AppUpdate.update(&state, .keyPressed(.character("F")))
        let before = screen(state)
        _ = AppUpdate.update(&state, .headlineArticleFetched(publicationID: Fixtures.publication.id, index: 1, link: link, .success(whole)))
        XCTAssertEqual(screen(state), before)
    }

    func testHelpAndHintsShowTheKeys() {
        let state = headlinesState()
        XCTAssertTrue(screen(state).last?.contains("F whole") ?? false, screen(state).last ?? "")
        let help = HelpScreen.lines(state.keys).filter { $0.key == "F" }.map(\.help)
        XCTAssertTrue(help.contains { $0.hasPrefix("Read the item's whole article") }, "\(help)")
        XCTAssertTrue(help.contains { $0.hasPrefix("A feed's article: fetch the whole article") }, "\(help)")
        XCTAssertTrue(HelpScreen.lines(state.keys).contains { $0.key == "w" && $0.help.hasPrefix("Whole articles of the feed's headlines") })
    }
}
