import Foundation
import XCTest
import NewsstandContent
import NewsstandCore
import NewsstandTestSupport
@testable import NewsstandUI

/// Bookmarks and highlights: anchored to the text at any width, found again in a changed issue, made with the
/// reader's keys, listed, gone to and deleted.
final class MarksTests: XCTestCase {
    let theme = Theme.fallback

    /// Paragraphs of distinct words: "p3w0 p3w1 …", so any run of words is found once.
    static func blocks(_ count: Int = 30, words: Int = 24) -> [TextBlock] {
        (0..<count).map { block in .paragraph(StyledText((0..<words).map { "p\(block)w\($0)" }.joined(separator: " "))) }
    }

    /// Issue 7 ("Spring": articles One, Two, Three) open at its first article, `blocks` loaded, in a window 20 lines high.
    func reading(width: Int = 60, blocks: [TextBlock] = MarksTests.blocks()) -> AppState {
        var state = Fixtures.state(width: width, height: 20, issues: [Fixtures.issue(7, "Spring", state: .available)])
        _ = AppUpdate.update(&state, .keyPressed(.enter))
        _ = AppUpdate.update(&state, .issueOpened(issueID: 7, .success(ReaderTests.book(["One", "Two", "Three"])),
                                                  resumeAt: ReadingPosition(articleIndex: 0, blockIndex: 0)))
        _ = AppUpdate.update(&state, .articleLoaded(issueID: 7, articleIndex: 0, .success(blocks)))
        return state
    }

    func type(_ text: String, _ state: inout AppState) {
        for character in text { _ = AppUpdate.update(&state, .keyPressed(.character(character))) }
    }

    /// The text drawn in `style` on the screen, a string per screen line that has any.
    func styled(_ state: AppState, _ style: TextStyle) -> [String] {
        let buffer = AppView.render(state, theme: theme)
        return (0..<state.height).map { y in (0..<state.width).filter { buffer[$0, y].style == style }.map { buffer[$0, y].symbol }.joined() }
            .filter { !$0.isEmpty }
    }

    // MARK: Anchoring

    func testAHighlightIsTheSameWordsAtAnyWidth() throws {
        let narrow = ArticlePassages(ArticleLayout(blocks: Self.blocks(), width: 30), articleIndex: 0)
        let first = try XCTUnwrap(narrow.words.firstIndex { $0.text == "p2w20" })
        let last = try XCTUnwrap(narrow.words.firstIndex { $0.text == "p3w5" })
        let highlight = HighlightAnchoring.highlight(issueID: 7, words: first...last, of: narrow, articleTitle: "One")
        XCTAssertEqual(highlight.text, "p2w20 p2w21 p2w22 p2w23 p3w0 p3w1 p3w2 p3w3 p3w4 p3w5")
        XCTAssertEqual(highlight.before, "p2w14 p2w15 p2w16 p2w17 p2w18 p2w19")
        XCTAssertEqual(highlight.after, "p3w6 p3w7 p3w8 p3w9 p3w10 p3w11")
        XCTAssertNotEqual(narrow.words[first].line, narrow.words[last].line, "it runs over several lines")
        for width in [24, 50, 120] {
            let layout = ArticleLayout(blocks: Self.blocks(), width: width)
            let passages = ArticlePassages(layout, articleIndex: 0)
            XCTAssertEqual(passages.text(from: highlight.start, to: highlight.end), highlight.text, "width \(width)")
            // What is drawn: the same words, and no others.
            let drawn = layout.lines.compactMap { line in ArticlePassages.range(on: line, from: highlight.start, to: highlight.end).map { String(line.text[$0]) } }
            XCTAssertEqual(drawn.joined(separator: " "), highlight.text, "width \(width)")
        }
    }

    func testAHighlightInAQuoteOrListLeavesTheDecorationOut() throws {
        let blocks: [TextBlock] = [.quote(StyledText("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda")),
                                   .listItem(depth: 0, marker: "•", text: StyledText("one two three four five six seven eight nine ten"))]
        let narrow = ArticlePassages(ArticleLayout(blocks: blocks, width: 20), articleIndex: 0)
        XCTAssertFalse(narrow.words.contains { $0.text == "│" || $0.text == "•" }, "quote bars and list markers are not words")
        let range = try XCTUnwrap(narrow.wordRange(from: narrow.words[3].start, to: narrow.words[14].end))
        let highlight = HighlightAnchoring.highlight(issueID: 7, words: range, of: narrow, articleTitle: "One")
        XCTAssertEqual(highlight.text, "delta epsilon zeta eta theta iota kappa lambda one two three four")
        let wide = ArticlePassages(ArticleLayout(blocks: blocks, width: 90), articleIndex: 0)
        XCTAssertEqual(wide.text(from: highlight.start, to: highlight.end), highlight.text)
    }

    /// The issue downloaded again, changed: a passage still there is moved to where it is now, one gone is kept and marked lost.
    func testARedownloadedIssueMovesOrLosesHighlights() throws {
        let before = Self.blocks(10)
        let old = ArticlePassages(ArticleLayout(blocks: before, width: 60), articleIndex: 0)
        func highlight(_ from: String, _ to: String, in passages: ArticlePassages, id: Int64) throws -> Highlight {
            let first = try XCTUnwrap(passages.words.firstIndex { $0.text == from })
            let last = try XCTUnwrap(passages.words.firstIndex { $0.text == to })
            var made = HighlightAnchoring.highlight(issueID: 7, words: first...last, of: passages, articleTitle: "One", note: "n\(id)")
            made.id = id
            return made
        }
        let stays = try highlight("p1w2", "p1w6", in: old, id: 1)
        let moves = try highlight("p5w3", "p6w1", in: old, id: 2)
        let changes = try highlight("p8w0", "p8w3", in: old, id: 3)
        let toOtherArticle = try highlight("p9w10", "p9w12", in: old, id: 4)
        // Unchanged issue: nothing changes.
        XCTAssertEqual(HighlightAnchoring.recheck([stays, moves, changes, toOtherArticle], titles: ["One", "Two"]) { index in
            index == 0 ? old : nil
        }, [])
        // Again: a paragraph inserted before paragraph 5, paragraph 8 rewritten, paragraph 9 moved into article 2.
        var after = Array(before[0..<5]) + [.paragraph(StyledText("A new paragraph, put in by the editors."))] + Array(before[5..<8])
        after.append(.paragraph(StyledText("Paragraph eight, rewritten entirely.")))
        let second = [TextBlock.heading(level: 1, text: StyledText("Two")), before[9]]
        let changed = HighlightAnchoring.recheck([stays, moves, changes, toOtherArticle], titles: ["One", "Two"]) { index in
            HighlightAnchoring.passages(of: index == 0 ? after : second, articleIndex: index)
        }
        XCTAssertEqual(changed.map(\.id), [2, 3, 4], "the first passage did not move")
        XCTAssertEqual(changed[0].start.blockIndex, 6)
        XCTAssertEqual(changed[0].text, moves.text)
        XCTAssertEqual(changed[0].note, "n2", "the note goes with it")
        XCTAssertFalse(changed[0].isLost)
        XCTAssertTrue(changed[1].isLost, "a passage no longer in the issue is kept and marked")
        XCTAssertEqual(changed[1].start, changes.start)
        XCTAssertEqual(changed[2].articleIndex, 1)
        XCTAssertEqual(changed[2].articleTitle, "Two")
        XCTAssertEqual(HighlightAnchoring.passages(of: second, articleIndex: 1).text(from: changed[2].start, to: changed[2].end), "p9w10 p9w11 p9w12")
    }

    func testTheContextChoosesAmongPlacesWithTheSameText() throws {
        let blocks: [TextBlock] = [.paragraph(StyledText("red fish swims here")), .paragraph(StyledText("blue fish swims there"))]
        let passages = HighlightAnchoring.passages(of: blocks, articleIndex: 0)
        XCTAssertEqual(passages.find("fish swims", before: "blue", after: "there").first, 5...6)
        XCTAssertEqual(passages.find("fish swims", near: 0).first, 1...2)
        XCTAssertEqual(passages.find("fish swims", near: 6).first, 5...6)
        XCTAssertEqual(passages.find("cat"), [])
    }

    // MARK: Bookmarks in the reader

    func testMBookmarksTheTopLineAndTheListGoesBackToItAtAnotherWidth() throws {
        var state = reading()
        for _ in 0..<9 { _ = AppUpdate.update(&state, .keyPressed(.character("j"))) }
        let position = try XCTUnwrap(state.reader?.position)
        let layout = try XCTUnwrap(state.reader?.view.layout)
        let topWords = ArticlePassages.words(of: layout.lines[state.reader!.view.topLine], index: 0, articleIndex: 0).prefix(3).map(\.text)
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("m"))), [])
        let prompt = try XCTUnwrap(state.prompt)
        XCTAssertEqual(prompt.text, "One: " + ArticlePassages.words(of: layout.lines[state.reader!.view.topLine], index: 0, articleIndex: 0).prefix(6).map(\.text).joined(separator: " ") + "…",
                       "the name offered: the article and the first words")
        XCTAssertTrue(AppView.render(state, theme: theme).lines()[19].hasPrefix(" Bookmark name: One: "))
        let effects = AppUpdate.update(&state, .keyPressed(.enter))
        let bookmark = Bookmark(issueID: 7, position: position, name: prompt.text)
        guard case .addBookmark(let added) = effects.first else { return XCTFail("\(effects)") }
        XCTAssertEqual(added.position, bookmark.position)
        XCTAssertEqual(added.name, bookmark.name)
        XCTAssertTrue(state.message?.text.hasPrefix("Bookmarked “One: ") == true)

        var stored = added
        stored.id = 1
        _ = AppUpdate.update(&state, .marksLoaded(issueID: 7, .success(IssueMarks(bookmarks: [stored]))))
        _ = AppUpdate.update(&state, .resized(width: 100, height: 20))
        _ = AppUpdate.update(&state, .keyPressed(.character("g")))
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("'"))), [])
        XCTAssertEqual(state.screen, .bookmarks)
        let lines = AppView.render(state, theme: theme).lines()
        XCTAssertEqual(lines[1], "  Bookmarks — Spring")
        XCTAssertTrue(lines[3].hasPrefix("  \(stored.name)  article 1"), lines[3])
        XCTAssertTrue(lines[19].contains("go to"), "hints: \(lines[19])")
        _ = AppUpdate.update(&state, .keyPressed(.enter))
        XCTAssertEqual(state.screen, .article)
        let wide = try XCTUnwrap(state.reader?.view.layout)
        XCTAssertEqual(wide.width, 100)
        let wideTop = ArticlePassages.words(of: wide.lines[state.reader!.view.topLine], index: 0, articleIndex: 0).map(\.text)
        XCTAssertTrue(wideTop.contains(topWords[0]), "at another width, the line at the top is the one with the bookmarked words: \(wideTop)")
    }

    func testAnEmptyNameKeepsTheOfferedOneAndEscCancels() throws {
        var state = reading()
        _ = AppUpdate.update(&state, .keyPressed(.character("m")))
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.escape)), [])
        XCTAssertNil(state.prompt)
        _ = AppUpdate.update(&state, .keyPressed(.character("m")))
        type("x", &state)
        guard case .addBookmark(let added) = AppUpdate.update(&state, .keyPressed(.enter)).first else { return XCTFail() }
        XCTAssertTrue(added.name.hasSuffix("x"))
    }

    func testBookmarkInAnotherArticleOpensItAtTheLineAndDIsAsked() throws {
        var state = reading()
        let there = Bookmark(id: 4, issueID: 7, position: ReadingPosition(articleIndex: 2, blockIndex: 12, characterOffset: 40), name: "In Three")
        _ = AppUpdate.update(&state, .marksLoaded(issueID: 7, .success(IssueMarks(bookmarks: [there]))))
        _ = AppUpdate.update(&state, .keyPressed(.character("'")))
        let effects = AppUpdate.update(&state, .keyPressed(.enter))
        XCTAssertTrue(effects.contains(.loadArticle(issueID: 7, articleIndex: 2)), "\(effects)")
        _ = AppUpdate.update(&state, .articleLoaded(issueID: 7, articleIndex: 2, .success(Self.blocks())))
        XCTAssertEqual(state.reader?.position.blockIndex, 12)
        let line = try XCTUnwrap(state.reader?.view.layout?.lines[state.reader!.view.topLine])
        XCTAssertTrue(line.offsetInBlock <= 40 && 40 < line.offsetInBlock + line.text.count, "the line with the bookmarked place: \(line)")

        _ = AppUpdate.update(&state, .keyPressed(.character("'")))
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("d"))), [])
        XCTAssertTrue(AppView.render(state, theme: theme).lines()[19].hasPrefix(" Delete the bookmark “In Three”? y delete"))
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("n"))), [], "any other key keeps it")
        XCTAssertEqual(state.reader?.marks?.bookmarks.count, 1)
        _ = AppUpdate.update(&state, .keyPressed(.character("d")))
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("y"))), [.deleteMark(.bookmark(there))])
        XCTAssertEqual(state.reader?.marks?.bookmarks, [])
        XCTAssertTrue(AppView.render(state, theme: theme).lines()[3].hasPrefix("  No bookmarks yet: in an article, m bookmarks the line"))
    }

    // MARK: Highlights in the reader

    func testVChoosesAPassageFromTheTopLineThatKeysExtendAndEnterHighlights() throws {
        var state = reading()
        for _ in 0..<3 { _ = AppUpdate.update(&state, .keyPressed(.character("j"))) }
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("v"))), [])
        XCTAssertEqual(state.screen, .selection)
        let selection = try XCTUnwrap(state.reader?.selection)
        let topLine = try XCTUnwrap(state.reader?.view.topLine)
        let layout = try XCTUnwrap(state.reader?.view.layout)
        let line = try XCTUnwrap((topLine..<layout.lines.count).map { layout.lines[$0] }.first { !$0.text.isEmpty })
        XCTAssertEqual(ArticlePassages.joined(selection.passages.words[selection.words]), line.text, "the first line with words from the top, to begin with")
        XCTAssertEqual(styled(state, theme[.selection].adding([.underline])), [line.text], "drawn as chosen")
        let hints = AppView.render(state, theme: theme).lines()[19]
        // The reader's position and time left take the right of the line; the first hints show.
        XCTAssertTrue(hints.contains("Enter highlight"), hints)
        XCTAssertTrue(state.keys.hints(for: .selection).contains { $0.hint == "note" }, "\(state.keys.hints(for: .selection))")
        _ = AppUpdate.update(&state, .keyPressed(.character("j")))
        _ = AppUpdate.update(&state, .keyPressed(.character("w")))
        _ = AppUpdate.update(&state, .keyPressed(.character("w")))
        _ = AppUpdate.update(&state, .keyPressed(.character("b")))
        let chosen = try XCTUnwrap(state.reader?.selection)
        let nextLineWords = chosen.passages.words.filter { $0.line == selection.passages.words[selection.last].line + 1 }
        XCTAssertEqual(chosen.last, selection.last + nextLineWords.count + 1, "a line, two words on, one back")
        let effects = AppUpdate.update(&state, .keyPressed(.enter))
        guard case .addHighlight(let highlight) = effects.first else { return XCTFail("\(effects)") }
        XCTAssertEqual(highlight.text, ArticlePassages.joined(chosen.passages.words[chosen.words]))
        XCTAssertEqual(highlight.articleTitle, "One")
        XCTAssertEqual(highlight.note, "")
        XCTAssertEqual(state.screen, .article)
        XCTAssertNil(state.reader?.selection)

        var stored = highlight
        stored.id = 3
        _ = AppUpdate.update(&state, .marksLoaded(issueID: 7, .success(IssueMarks(highlights: [stored]))))
        XCTAssertEqual(styled(state, theme[.highlight]).joined(separator: " "), highlight.text, "drawn in the theme's highlight style")
        _ = AppUpdate.update(&state, .resized(width: 44, height: 20))
        XCTAssertEqual(styled(state, theme[.highlight]).joined(separator: " "), highlight.text, "the same words at another width")
    }

    func testEscCancelsAndANoteIsTypedWithA() throws {
        var state = reading()
        _ = AppUpdate.update(&state, .keyPressed(.character("v")))
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.escape)), [])
        XCTAssertEqual(state.screen, .article, "Esc stops choosing, and stays in the article")
        _ = AppUpdate.update(&state, .keyPressed(.character("v")))
        _ = AppUpdate.update(&state, .keyPressed(.character("w")))
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("a"))), [])
        XCTAssertTrue(AppView.render(state, theme: theme).lines()[19].hasPrefix(" Note:"), AppView.render(state, theme: theme).lines()[19])
        type("worth quoting", &state)
        let effects = AppUpdate.update(&state, .keyPressed(.enter))
        guard case .addHighlight(let highlight) = effects.first else { return XCTFail("\(effects)") }
        XCTAssertEqual(highlight.note, "worth quoting")
        XCTAssertTrue(highlight.text.hasPrefix("p0w0 p0w1"))
        XCTAssertNil(state.reader?.selection)
    }

    func testTheHighlightsListShowsNotesAndLostPassagesGoesToOneAndEditsItsNote() throws {
        var state = reading(width: 70)
        let passages = ArticlePassages(try XCTUnwrap(state.reader?.view.layout), articleIndex: 0)
        var found = HighlightAnchoring.highlight(issueID: 7, words: 200...205, of: passages, articleTitle: "One", note: "a good line")
        found.id = 1
        let lost = Highlight(id: 2, issueID: 7, start: ReadingPosition(articleIndex: 1, blockIndex: 2), end: ReadingPosition(articleIndex: 1, blockIndex: 2, characterOffset: 9),
                             articleTitle: "Two", text: "gone text", isLost: true)
        _ = AppUpdate.update(&state, .marksLoaded(issueID: 7, .success(IssueMarks(highlights: [lost, found]))))
        XCTAssertEqual(state.message?.text, "One highlighted passage can no longer be found in this issue (\" lists it).")
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("\""))), [])
        XCTAssertEqual(state.screen, .highlights)
        let lines = AppView.render(state, theme: theme).lines()
        XCTAssertEqual(lines[1], "  Highlights and notes — Spring")
        XCTAssertEqual(lines[3], "  “\(found.text)”")
        XCTAssertEqual(lines[4], "    One (article 1) · note: a good line")
        XCTAssertEqual(lines[6], "  “gone text”")
        XCTAssertEqual(lines[7], "    passage no longer found · Two (article 2)")
        _ = AppUpdate.update(&state, .keyPressed(.character("j")))
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.enter)), [])
        XCTAssertEqual(state.message?.text, "This passage can no longer be found in the issue.")
        XCTAssertEqual(state.screen, .highlights)
        _ = AppUpdate.update(&state, .keyPressed(.character("k")))
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("a"))), [])
        XCTAssertEqual(state.prompt?.text, "a good line", "the note to change")
        for _ in 0..<4 { _ = AppUpdate.update(&state, .keyPressed(.backspace)) }
        type("passage", &state)
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.enter)), [.setNote(issueID: 7, highlightID: 1, note: "a good passage")])
        _ = AppUpdate.update(&state, .keyPressed(.enter))
        XCTAssertEqual(state.screen, .article)
        let top = try XCTUnwrap(state.reader?.view.topLine)
        XCTAssertEqual(top, state.reader?.view.layout.map { min($0.line(for: found.start), $0.lines.count - 18) })
        XCTAssertTrue(styled(state, theme[.highlight]).joined().contains(passages.words[200].text), "the passage is on the screen")
    }

    func testAFeedArticleSaysItHasNoMarks() {
        var state = Fixtures.state(issues: [])
        state.screens.append(.feedArticle(FeedArticleScreen(publicationID: 1, index: 0, count: 1, title: "News")))
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("m"))), [])
        XCTAssertEqual(state.message?.text, "Bookmarks and highlights are kept in issues; a feed's article has none.")
        XCTAssertEqual(state.screen, .article)
    }

    func testListsFromTheContentsAndWhileTheMarksAreRead() throws {
        var state = reading()
        _ = AppUpdate.update(&state, .keyPressed(.character("t")))
        XCTAssertEqual(state.screen, .contents)
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("\""))), [.loadMarks(issueID: 7)], "not read yet: read now")
        XCTAssertTrue(AppView.render(state, theme: theme).lines()[3].contains("Reading them…"))
        _ = AppUpdate.update(&state, .marksLoaded(issueID: 7, .success(IssueMarks())))
        XCTAssertTrue(AppView.render(state, theme: theme).lines().joined().contains("No highlights yet: in an article, v chooses a passage"))
        _ = AppUpdate.update(&state, .keyPressed(.escape))
        XCTAssertEqual(state.screen, .contents)
    }
}
