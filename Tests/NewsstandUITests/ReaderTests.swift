import Foundation
import XCTest
import NewsstandContent
import NewsstandCore
import NewsstandImaging
import NewsstandTestSupport
@testable import NewsstandUI

/// The reader's keys as effects (data), and what its screens draw: search, highlights, contents,
/// pictures, links, PDF pages, percentages, and the search across issues.
final class ReaderTests: XCTestCase {
    let theme = Theme.fallback

    static func article(_ title: String, _ file: String = UUID().uuidString, pdf: Bool = false) -> EPUBArticle {
        EPUBArticle(title: title, file: URL(fileURLWithPath: "/issue/\(file).xhtml"), mediaType: pdf ? IssueContent.pdfMediaType : "application/xhtml+xml")
    }

    static func book(_ titles: [String], contents: [EPUBTableOfContentsEntry] = [], pdf: Bool = false) -> EPUBBook {
        EPUBBook(title: "Spring Issue", creator: nil, language: "en", version: pdf ? "pdf" : "3.0",
                 articles: titles.enumerated().map { article($0.element, "a\($0.offset)", pdf: pdf) }, tableOfContents: contents, coverImage: nil)
    }

    /// Paragraphs 0..<count, with `word` in the ones listed.
    static func blocks(_ count: Int, wordAt: Set<Int> = [], word: String = "Zebra") -> [TextBlock] {
        (0..<count).map { index in
            .paragraph(StyledText("Paragraph \(index) " + (wordAt.contains(index) ? "has a \(word) in it " : "") + String(repeating: "word ", count: 20)))
        }
    }

    /// An issue open at article `article` (of `titles`) with `blocks` loaded.
    func reading(_ titles: [String] = ["One", "Two", "Three"], article: Int = 0, blocks: [TextBlock] = ReaderTests.blocks(40),
                 width: Int = 60, height: Int = 20, pdf: Bool = false, contents: [EPUBTableOfContentsEntry] = []) -> AppState {
        var state = Fixtures.state(width: width, height: height, issues: [Fixtures.issue(7, "Spring", state: .available)])
        _ = AppUpdate.update(&state, .keyPressed(.enter))
        _ = AppUpdate.update(&state, .issueOpened(issueID: 7, .success(Self.book(titles, contents: contents, pdf: pdf)),
                                                  resumeAt: ReadingPosition(articleIndex: article, blockIndex: 0)))
        _ = AppUpdate.update(&state, .articleLoaded(issueID: 7, articleIndex: article, .success(blocks)))
        XCTAssertEqual(state.screen, .article)
        return state
    }

    func type(_ text: String, _ state: inout AppState) -> [Effect] {
        text.flatMap { AppUpdate.update(&state, .keyPressed(.character($0))) }
    }

    func testSlashOpensAPromptThatTypesSearchesAndEscCancels() {
        var state = reading()
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("/"))), [])
        XCTAssertEqual(state.prompt, Prompt(.searchIssue))
        XCTAssertEqual(type("zebrq", &state), [], "typing is not taken as keys: q does not go back")
        _ = AppUpdate.update(&state, .keyPressed(.backspace))
        _ = type("a", &state)
        XCTAssertEqual(state.screen, .article)
        let lines = AppView.render(state, theme: theme).lines()
        XCTAssertEqual(lines[19], " Search this issue: zebra", "the bottom line shows what is typed")
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.enter)), [.searchIssue(issueID: 7, query: "zebra")])
        XCTAssertNil(state.prompt)
        XCTAssertEqual(state.reader?.search?.query, "zebra")

        _ = AppUpdate.update(&state, .keyPressed(.character("/")))
        _ = type("other", &state)
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.escape)), [])
        XCTAssertNil(state.prompt)
        XCTAssertEqual(state.screen, .article, "Esc cancels the prompt and stays in the article")
        XCTAssertEqual(state.reader?.search?.query, "zebra")
    }

    func testNoMatchesSaysSo() {
        var state = reading()
        _ = AppUpdate.update(&state, .keyPressed(.character("/")))
        _ = type("quokka", &state)
        _ = AppUpdate.update(&state, .keyPressed(.enter))
        XCTAssertEqual(AppUpdate.update(&state, .issueSearched(issueID: 7, query: "quokka", .success([]))), [])
        XCTAssertEqual(state.message, StatusMessage("No matches for “quokka” in this issue."))
        XCTAssertNil(state.reader?.search)
        _ = AppUpdate.update(&state, .keyPressed(.character("n")))
        XCTAssertEqual(state.message, StatusMessage("Nothing searched yet: / searches this issue."))
    }

    func testMatchesAreHighlightedAndNAndShiftNGoAcrossArticles() throws {
        var state = reading(blocks: Self.blocks(40, wordAt: [10, 30]))
        _ = AppUpdate.update(&state, .keyPressed(.character("/")))
        _ = type("zebra", &state)
        _ = AppUpdate.update(&state, .keyPressed(.enter))
        let matches = [IssueMatch(articleIndex: 0, blockIndex: 10), IssueMatch(articleIndex: 0, blockIndex: 30), IssueMatch(articleIndex: 2, blockIndex: 5)]
        let effects = AppUpdate.update(&state, .issueSearched(issueID: 7, query: "zebra", .success(matches)))
        XCTAssertEqual(state.reader?.position.blockIndex, 9, "jumps to the first match, with a line of context above")
        XCTAssertEqual(effects.first, .saveReadingPosition(issueID: 7, try XCTUnwrap(state.reader?.position)))
        XCTAssertEqual(state.message, StatusMessage("“zebra”: 3 places in 2 articles (n next, N previous)"))
        var reader = try XCTUnwrap(state.reader)
        let layout = try XCTUnwrap(reader.view.layout)
        let matchLines = AppUpdate.matchLines(layout, "zebra")
        XCTAssertEqual(matchLines.count, 2)
        XCTAssertEqual(reader.matchLine, matchLines[0])
        XCTAssertEqual(reader.view.topLine, matchLines[0] - 2, "two lines of context above the match")

        // The match is drawn in the selection style, on its cells only.
        let buffer = AppView.render(state, theme: theme)
        let y = 1 + matchLines[0] - reader.view.topLine
        let row = buffer.lines(trimmingTrailingSpaces: false)[y]
        let column = try XCTUnwrap(row.range(of: "Zebra")).lowerBound.utf16Offset(in: row)
        for x in column..<column + 5 { XCTAssertEqual(buffer[x, y].style, theme[.selection], "cell \(x)") }
        XCTAssertNotEqual(buffer[column - 2, y].style, theme[.selection])
        XCTAssertNotEqual(buffer[column + 6, y].style, theme[.selection])

        _ = AppUpdate.update(&state, .keyPressed(.character("n")))
        reader = try XCTUnwrap(state.reader)
        XCTAssertEqual(reader.matchLine, matchLines[1])
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("n"))).last, .loadArticle(issueID: 7, articleIndex: 2), "the next match is in article 3")
        _ = AppUpdate.update(&state, .articleLoaded(issueID: 7, articleIndex: 2, .success(Self.blocks(20, wordAt: [5, 15]))))
        reader = try XCTUnwrap(state.reader)
        let third = AppUpdate.matchLines(try XCTUnwrap(reader.view.layout), "zebra")
        XCTAssertEqual(reader.matchLine, third.first, "lands on the article's first match")
        XCTAssertTrue(AppView.render(state, theme: theme).lines()[19].contains("article 3/3"))

        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("N"))).last, .loadArticle(issueID: 7, articleIndex: 0), "back across articles")
        _ = AppUpdate.update(&state, .articleLoaded(issueID: 7, articleIndex: 0, .success(Self.blocks(40, wordAt: [10, 30]))))
        XCTAssertEqual(state.reader?.matchLine, matchLines[1], "lands on the previous article's last match")
        _ = AppUpdate.update(&state, .keyPressed(.character("N")))
        XCTAssertEqual(state.reader?.matchLine, matchLines[0])
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("N"))).last, .loadArticle(issueID: 7, articleIndex: 2))
        XCTAssertEqual(state.message, StatusMessage("The search wrapped around the issue."))
    }

    func testResizingKeepsTheTextAtTheTopAndTheHighlights() throws {
        var state = reading(blocks: Self.blocks(40, wordAt: [20]))
        _ = AppUpdate.update(&state, .keyPressed(.character("/")))
        _ = type("zebra", &state)
        _ = AppUpdate.update(&state, .keyPressed(.enter))
        _ = AppUpdate.update(&state, .issueSearched(issueID: 7, query: "zebra", .success([IssueMatch(articleIndex: 0, blockIndex: 20)])))
        let topBlock = try XCTUnwrap(state.reader?.position.blockIndex)
        let topText = try XCTUnwrap(state.reader?.view.layout?.lines[state.reader!.view.topLine].text)
        _ = AppUpdate.update(&state, .resized(width: 44, height: 16))
        XCTAssertEqual(state.reader?.position.blockIndex, topBlock, "the same paragraph stays at the top")
        let lines = AppView.render(state, theme: theme).lines()
        XCTAssertTrue(lines[1].contains(topText.split(separator: " ").prefix(2).joined(separator: " ")), "\(lines[1]) vs \(topText)")
        let buffer = AppView.render(state, theme: theme)
        let highlighted = (0..<16).contains { y in (0..<44).contains { x in buffer[x, y].style == theme[.selection] && buffer[x, y].symbol == "Z" } }
        XCTAssertTrue(highlighted, "the match is still highlighted after the reflow:\n\(lines.joined(separator: "\n"))")
    }

    func testAPhraseSplitByALineBreakIsFoundAndHighlightedOnBothLines() throws {
        let words = (0..<200).map { "w\($0)" }
        var state = reading(blocks: [.paragraph(StyledText(words.joined(separator: " ")))])
        let layout = try XCTUnwrap(state.reader?.view.layout)
        let end = String(try XCTUnwrap(layout.lines[2].text.split(separator: " ").last))
        let start = String(try XCTUnwrap(layout.lines[3].text.split(separator: " ").first))
        let phrase = "\(end) \(start)".uppercased()
        XCTAssertEqual(AppUpdate.matchLines(layout, phrase), [2], "found where it starts, ignoring case")
        XCTAssertEqual(ArticleMatches(phrase, in: layout).matches.map { $0.map(\.line) }, [[2, 3]], "one match in two pieces")
        XCTAssertEqual(ArticleMatches(phrase, in: layout, lines: 3..<10).matches.count, 0, "a match belongs to the line it starts on")

        _ = AppUpdate.update(&state, .keyPressed(.character("/")))
        _ = type(phrase, &state)
        _ = AppUpdate.update(&state, .keyPressed(.enter))
        _ = AppUpdate.update(&state, .issueSearched(issueID: 7, query: phrase, .success([IssueMatch(articleIndex: 0, blockIndex: 0)])))
        let reader = try XCTUnwrap(state.reader)
        XCTAssertEqual(reader.matchLine, 2)
        let buffer = AppView.render(state, theme: theme)
        func highlighted(onLine line: Int) -> String {
            let y = 1 + line - reader.view.topLine
            return (0..<state.width).filter { buffer[$0, y].style == theme[.selection] }.map { buffer[$0, y].symbol }.joined()
        }
        XCTAssertEqual(highlighted(onLine: 2), end, "the end of one line")
        XCTAssertEqual(highlighted(onLine: 3), start, "and the start of the next")
        XCTAssertEqual(highlighted(onLine: 4), "")
    }

    func testContentsShowTheNestedTableOfContentsIndentedAndOpenEntries() {
        let file = { (name: String) in URL(fileURLWithPath: "/issue/\(name).xhtml") }
        let contents = [
            EPUBTableOfContentsEntry(title: "Features", file: nil, fragment: nil, children: [
                EPUBTableOfContentsEntry(title: "One", file: file("a0"), fragment: nil),
                EPUBTableOfContentsEntry(title: "Two", file: file("a1"), fragment: nil, children: [
                    EPUBTableOfContentsEntry(title: "A section of two", file: file("a1"), fragment: "part"),
                ]),
            ]),
            EPUBTableOfContentsEntry(title: "Three", file: file("a2"), fragment: nil),
        ]
        var state = Fixtures.state(width: 60, height: 16, issues: [Fixtures.issue(7, "Spring", state: .available)])
        _ = AppUpdate.update(&state, .keyPressed(.enter))
        _ = AppUpdate.update(&state, .issueOpened(issueID: 7, .success(Self.book(["One", "Two", "Three"], contents: contents)), resumeAt: nil))
        let lines = AppView.render(state, theme: theme).lines()
        XCTAssertEqual(Array(lines[3...7]), [
            "        Features",
            "     1    One",
            "     2    Two",
            "     2      A section of two",
            "     3  Three",
        ])
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.enter)), [.loadArticle(issueID: 7, articleIndex: 0)], "a heading opens the first article under it")
        _ = AppUpdate.update(&state, .keyPressed(.character("t")))
        XCTAssertEqual(state.reader?.contentsCursor.selection, 1, "back in the contents, the article's row is selected")
        _ = AppUpdate.update(&state, .keyPressed(.down))
        _ = AppUpdate.update(&state, .keyPressed(.down))
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.enter)), [.loadArticle(issueID: 7, articleIndex: 1)])
    }

    func testPicturesAreAskedForAtTheMeasureAndPaintedOnTheirLines() throws {
        let picture = URL(fileURLWithPath: "/issue/images/kettle.png")
        let blocks: [TextBlock] = [.paragraph("Before the picture."), .image(source: picture, alt: "A kettle"), .caption("The kettle, mended."),
                                   .image(source: URL(fileURLWithPath: "/issue/missing.png"), alt: "Lost"), .paragraph("After.")]
        var state = Fixtures.state(width: 60, height: 40, issues: [Fixtures.issue(7, "Spring", state: .available)])
        state.coverMode = .blocks
        _ = AppUpdate.update(&state, .keyPressed(.enter))
        _ = AppUpdate.update(&state, .issueOpened(issueID: 7, .success(Self.book(["One"])), resumeAt: ReadingPosition(articleIndex: 0, blockIndex: 0)))
        let effects = AppUpdate.update(&state, .articleLoaded(issueID: 7, articleIndex: 0, .success(blocks)))
        let height = AppUpdate.pictureHeight(forWidth: 60)
        XCTAssertEqual(height, 14)
        let request = PictureRequest(issueID: 7, source: picture, columns: 58, rows: height, mode: .blocks)
        let missing = PictureRequest(issueID: 7, source: URL(fileURLWithPath: "/issue/missing.png"), columns: 58, rows: height, mode: .blocks)
        XCTAssertEqual(effects.last, .requestPictures([request, missing]))
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.down)).filter { if case .requestPictures = $0 { true } else { false } }, [], "asked for once")

        let art = Fixtures.art("#", columns: 58, rows: height)
        _ = AppUpdate.update(&state, .articlePictureRendered(request, .success(art)))
        _ = AppUpdate.update(&state, .articlePictureRendered(missing, .failure(ReaderFailure("the picture is missing"))))
        _ = AppUpdate.update(&state, .keyPressed(.home))
        let lines = AppView.render(state, theme: theme).lines()
        XCTAssertEqual(lines[1], " Before the picture.")
        XCTAssertEqual(lines[2], "")
        for y in 3..<(3 + height) { XCTAssertEqual(lines[y], " " + String(repeating: "#", count: 58), "picture line \(y)") }
        XCTAssertEqual(lines[3 + height], "")
        XCTAssertEqual(lines[4 + height], "   The kettle, mended.", "the caption follows the picture")
        XCTAssertTrue(lines.contains(" [picture: Lost]"), "alt text where the picture cannot be drawn")
    }

    func testStatusLineShowsThePercentageThroughTheArticleAndTheIssue() {
        var state = reading(["1", "2", "3", "4", "5"], article: 1, blocks: Self.blocks(30))
        var reader = state.reader!
        let layout = reader.view.layout!
        let scrollable = layout.lines.count - 18
        reader.view.topLine = scrollable * 40 / 100 + 1
        state.screens[state.screens.count - 1] = .reader(reader)
        let status = AppView.render(state, theme: theme).lines()[19]
        XCTAssertTrue(status.hasSuffix("article 2/5 · 40% · issue 28% · 2 min left"), status)
    }

    func testOThenANumberOpensThatLinkWithoutBlocking() {
        let blocks: [TextBlock] = [.paragraph(StyledText([StyledRun("Read "), StyledRun("this", link: TextLink(number: 1, url: URL(string: "https://example.com/a")!)),
                                                          StyledRun(" and "), StyledRun("that", link: TextLink(number: 2, url: URL(string: "javascript:alert(1)")!))]))]
        var state = reading(blocks: blocks)
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("o"))), [])
        _ = type("x1", &state)
        XCTAssertEqual(state.prompt, Prompt(.link, text: "1"), "only digits are typed")
        XCTAssertEqual(AppView.render(state, theme: theme).lines()[19], " Open link: 1")
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.enter)), [.openLink(URL(string: "https://example.com/a")!)])
        XCTAssertEqual(state.message, StatusMessage("Opening link 1: https://example.com/a"))

        _ = AppUpdate.update(&state, .linkOpened(URL(string: "https://example.com/a")!, failure: "xdg-open is not installed, so the link cannot be opened"))
        XCTAssertEqual(state.message?.text, "xdg-open is not installed, so the link cannot be opened; the link is https://example.com/a")

        _ = AppUpdate.update(&state, .keyPressed(.character("o")))
        _ = type("9", &state)
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.enter)), [])
        XCTAssertEqual(state.message, StatusMessage("There is no link 9 in this article (it has 2)."))
        _ = AppUpdate.update(&state, .keyPressed(.character("o")))
        _ = type("2", &state)
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.enter)), [], "only web links go to the opener")
        XCTAssertEqual(state.message, StatusMessage("Link 2 is not a web link: javascript:alert(1)"))

        var plain = reading(blocks: [.paragraph("No links here.")])
        _ = AppUpdate.update(&plain, .keyPressed(.character("o")))
        XCTAssertNil(plain.prompt)
        XCTAssertEqual(plain.message, StatusMessage("This article has no links."))
    }

    func testShiftPDrawsAPDFPageAsAPicture() {
        var state = reading(["Page 1", "Page 2"], article: 1, blocks: [.heading(level: 2, text: "Page 2"), .paragraph("Text of the page.")], pdf: true)
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("P"))),
                       [.renderPage(issueID: 7, articleIndex: 1, columns: 58, rows: 17, mode: .ascii, background: .dark)])
        XCTAssertEqual(AppView.render(state, theme: theme).lines()[2], "  Drawing the page…")
        _ = AppUpdate.update(&state, .pageRendered(issueID: 7, articleIndex: 1, .success(Fixtures.art("%", columns: 20, rows: 10))))
        var lines = AppView.render(state, theme: theme).lines()
        XCTAssertEqual(lines[1], String(repeating: " ", count: 20) + String(repeating: "%", count: 20), "centred")
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("P"))), [], "P again shows the text")
        lines = AppView.render(state, theme: theme).lines()
        XCTAssertTrue(lines.contains { $0.contains("Text of the page.") })

        _ = AppUpdate.update(&state, .keyPressed(.character("P")))
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("P"))), [], "the drawn page is kept")
        var missing = reading(["Page 1"], blocks: [.paragraph("x")], pdf: true)
        _ = AppUpdate.update(&missing, .keyPressed(.character("P")))
        _ = AppUpdate.update(&missing, .pageRendered(issueID: 7, articleIndex: 0, .failure(ReaderFailure(PDFError.toolsMissing.description))))
        XCTAssertEqual(missing.message, StatusMessage("Cannot draw the page: reading PDF issues needs poppler-utils (apt-get install poppler-utils)", isError: true))
        XCTAssertEqual(missing.reader?.showsPagePicture, false)

        var epub = reading()
        _ = AppUpdate.update(&epub, .keyPressed(.character("P")))
        XCTAssertEqual(epub.message, StatusMessage("P draws a PDF page as a picture; this issue is not a PDF."))
    }

    func testSlashOnTheShelfSearchesEveryIssueAndOpensAResultAtItsMatch() throws {
        var state = Fixtures.state(width: 80, height: 20, issues: [Fixtures.issue(7, "Spring", state: .available), Fixtures.issue(8, "Summer", state: .available)])
        _ = AppUpdate.update(&state, .keyPressed(.character("/")))
        XCTAssertEqual(state.prompt, Prompt(.searchLibrary))
        _ = type("kettle", &state)
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.enter)), [.searchLibrary(query: "kettle")])
        XCTAssertEqual(state.screen, .searchResults)
        XCTAssertTrue(AppView.render(state, theme: theme).lines()[1].contains("Searching every downloaded issue for “kettle”…"))
        let hits = [
            SearchHit(issueID: 8, issueName: "issue-8", issueTitle: "Summer", publicationName: "kettle", articleIndex: 1, articleTitle: "Repairs",
                      blockIndex: 12, snippet: [SnippetPart("…the "), SnippetPart("kettle", isMatch: true), SnippetPart(" is fine\u{1B}[2J…")]),
            SearchHit(issueID: 7, issueName: "issue-7", issueTitle: "Spring", publicationName: "kettle", articleIndex: 0, articleTitle: "Tea",
                      blockIndex: 3, snippet: [SnippetPart("a "), SnippetPart("kettle", isMatch: true)]),
        ]
        _ = AppUpdate.update(&state, .librarySearched(query: "kettle", .success(hits)))
        let buffer = AppView.render(state, theme: theme)
        let lines = buffer.lines()
        XCTAssertEqual(lines[1], "  “kettle”: 2 matches")
        XCTAssertTrue(lines[3].hasPrefix("  Summer — Repairs — …the kettle is fine"), lines[3])
        XCTAssertFalse(lines.joined().contains("\u{1B}"), "nothing from content reaches the terminal unsanitised")
        XCTAssertEqual(lines[4], "  Spring — Tea — a kettle")
        XCTAssertTrue(lines[19].hasSuffix("1/2"))
        _ = AppUpdate.update(&state, .keyPressed(.down))
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.up)), [])
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.enter)), [.openIssue(issueID: 8), .searchIssue(issueID: 8, query: "kettle")])
        XCTAssertEqual(AppUpdate.update(&state, .issueOpened(issueID: 8, .success(Self.book(["Tea", "Repairs"])), resumeAt: ReadingPosition(articleIndex: 0, blockIndex: 0))),
                       [.loadArticle(issueID: 8, articleIndex: 1)], "opens the article of the match, not the saved place")
        _ = AppUpdate.update(&state, .articleLoaded(issueID: 8, articleIndex: 1, .success(Self.blocks(30, wordAt: [12], word: "kettle"))))
        XCTAssertEqual(state.reader?.position, ReadingPosition(articleIndex: 1, blockIndex: 12))
        XCTAssertEqual(AppUpdate.update(&state, .issueSearched(issueID: 8, query: "kettle", .success([IssueMatch(articleIndex: 1, blockIndex: 12)]))), [],
                       "the search's results do not move the reader")
        XCTAssertNotNil(state.reader?.search?.matches)

        var empty = Fixtures.state(issues: [])
        _ = AppUpdate.update(&empty, .keyPressed(.character("/")))
        _ = type("nothing", &empty)
        _ = AppUpdate.update(&empty, .keyPressed(.enter))
        _ = AppUpdate.update(&empty, .librarySearched(query: "nothing", .success([])))
        XCTAssertEqual(empty.message, StatusMessage("Only downloaded issues and headlines are searched."), "the heading says there is none")
        XCTAssertTrue(AppView.render(empty, theme: .fallback).lines().contains { $0.contains("No matches for “nothing”.") })
        _ = AppUpdate.update(&empty, .keyPressed(.escape))
        XCTAssertEqual(empty.screen, .shelf)
    }

    func testScrollingAndQuittingSaveThePosition() {
        var state = reading()
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.pageDown)).first, .saveReadingPosition(issueID: 7, state.reader!.position))
        let position = state.reader!.position
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.control("c"))), [.saveReadingPosition(issueID: 7, position), .quit])

        var under = reading()
        _ = AppUpdate.update(&under, .keyPressed(.pageDown))
        _ = AppUpdate.update(&under, .keyPressed(.character("?")))
        XCTAssertEqual(under.screen, .help)
        XCTAssertEqual(AppUpdate.update(&under, .keyPressed(.control("c"))), [.saveReadingPosition(issueID: 7, under.reader!.position), .quit],
                       "the reader under the help is asked for its place too")
    }
}
