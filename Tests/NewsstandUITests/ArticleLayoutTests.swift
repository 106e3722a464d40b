import Foundation
import NewsstandContent
import XCTest
@testable import NewsstandUI

/// Setting articles: styled spans, tables, links, notes, pictures, preformatted text and narrow widths.
final class ArticleLayoutTests: XCTestCase {
    let theme = Theme.fallback

    private func layout(_ blocks: [TextBlock], width: Int = 42, measure: Int = 40, pictureHeight: Int = 1) -> ArticleLayout {
        ArticleLayout(blocks: blocks, width: width, maximumMeasure: measure, pictureHeight: pictureHeight)
    }

    func testBoldAndItalicSpansCarryTheirAttributes() throws {
        let text = StyledText([StyledRun("A "), StyledRun("bold", style: .bold), StyledRun(" and "), StyledRun("slanted", style: .italic),
                               StyledRun(" word "), StyledRun("under", style: .underline)])
        let set = layout([.paragraph(text)])
        XCTAssertEqual(set.plainLines, ["A bold and slanted word under"])
        XCTAssertEqual(set.lines[0].spans, text.runs)

        var state = AppState(width: 42, height: 6)
        var reader = ReaderScreen(issueID: 1)
        reader.view.layout = set
        state.screens.append(.reader(reader))
        var buffer = CellBuffer(width: 42, height: 6)
        ArticleScreen.render(state.reader!, state.shared, in: state.body, theme: theme, into: &buffer)
        XCTAssertEqual(buffer.lines()[1], " A bold and slanted word under")
        let base = theme[.text]
        XCTAssertEqual(buffer[1, 1].style, base, "'A' in the text style")
        XCTAssertEqual(buffer[3, 1].style, base.adding(.bold), "'bold'")
        XCTAssertEqual(buffer[12, 1].style, base.adding(.italic), "'slanted'")
        XCTAssertEqual(buffer[25, 1].style, base.adding(.underline), "'under'")
    }

    func testLinksAreNumberedAndListedAtTheEnd() {
        let site = TextLink(number: 1, url: URL(string: "https://example.com/kintsugi")!)
        let other = TextLink(number: 2, url: URL(string: "https://example.org/")!)
        let set = layout([
            .heading(level: 2, text: "Gold"),
            .paragraph(StyledText([StyledRun("Read "), StyledRun("the guide", link: site), StyledRun("[1]", link: site), StyledRun(" or "),
                                   StyledRun("this[2]", link: other), StyledRun(".")])),
        ])
        XCTAssertEqual(set.plainLines, [
            "Gold", "────", "",
            "Read the guide[1] or this[2].",
            "",
            "Links", "─────",
            "[1] https://example.com/kintsugi",
            "[2] https://example.org/",
        ])
        XCTAssertEqual(set.links, [site.url, other.url])

        var state = AppState(width: 42, height: 12)
        var reader = ReaderScreen(issueID: 1)
        reader.view.layout = set
        state.screens.append(.reader(reader))
        var buffer = CellBuffer(width: 42, height: 12)
        ArticleScreen.render(state.reader!, state.shared, in: state.body, theme: theme, into: &buffer)
        XCTAssertEqual(buffer[1 + 6, 4].style, theme[.link], "link text is drawn as the theme's link")
    }

    func testFootnotesAreCollectedUnderNotes() {
        let blocks: [TextBlock] = [
            .paragraph(StyledText([StyledRun("Whales sing"), StyledRun("[^1]", footnote: 1), StyledRun(".")])),
            .paragraph("More text."),
            .footnote(number: 1, text: "Humpbacks mostly, and their songs change from year to year."),
        ]
        let set = layout(blocks)
        XCTAssertEqual(set.plainLines, [
            "Whales sing[^1].", "",
            "More text.", "",
            "Notes", "─────",
            "[^1] Humpbacks mostly, and their songs",
            "     change from year to year.",
        ])
        XCTAssertEqual(set.line(forBlock: 2), 6, "a note's block starts at its line")
    }

    func testTablesAreSetInColumnsWithAHeaderRule() {
        let table = TextTable(rows: [
            [StyledText("Port", style: .bold), StyledText("High water", style: .bold), StyledText("Note", style: .bold)],
            ["Brest", "06:12", "spring tide"],
            ["Cork", "07:40", "neap"],
        ], headerRowCount: 1)
        let set = layout([.table(table)])
        XCTAssertEqual(set.plainLines, [
            "Port   High water  Note",
            "──────────────────────────────",
            "Brest  06:12       spring tide",
            "Cork   07:40       neap",
        ])
        XCTAssertEqual(set.lines[0].spans.first, StyledRun("Port", style: .bold))
    }

    func testWideTablesShrinkToTheMeasureAndWrapInsideColumns() {
        let table = TextTable(rows: [
            ["Id", "Description"],
            ["1", "A very long description of the thing that will not fit"],
            ["2", "Short"],
        ], headerRowCount: 1)
        let set = layout([.table(table)], width: 26, measure: 24)
        XCTAssertEqual(set.plainLines, [
            "Id  Description",
            "────────────────────────",
            "1   A very long",
            "    description of the",
            "    thing that will not",
            "    fit",
            "2   Short",
        ])
        for line in set.plainLines { XCTAssertLessThanOrEqual(DisplayWidth.of(line), 24, line) }
    }

    func testPreformattedTextIsClippedNotWrapped() {
        let code = "let veryLongName = computeSomethingWithAVeryLongFunctionName(argument: 1)\n  next()"
        let set = layout([.preformatted(code)], width: 30, measure: 28)
        XCTAssertEqual(set.plainLines, ["  let veryLongName = computeSomethingWithAVeryLongFunctionName(argument: 1)", "    next()"])
        var state = AppState(width: 30, height: 5)
        var reader = ReaderScreen(issueID: 1)
        reader.view.layout = set
        state.screens.append(.reader(reader))
        var buffer = CellBuffer(width: 30, height: 5)
        ArticleScreen.render(state.reader!, state.shared, in: state.body, theme: theme, into: &buffer)
        XCTAssertEqual(buffer.lines()[1], "   let veryLongName = computeS")
        XCTAssertEqual(buffer.lines()[2], "     next()")
    }

    func testCJKWrapsBetweenCharactersAndNeverSplitsOne() {
        let text = "金継ぎは割れた器を漆で継ぎ、金で飾る日本の技法です。Kintsugi repairs 👍🏽 with gold."
        let set = layout([.paragraph(StyledText(text))], width: 13, measure: 11)
        for line in set.plainLines {
            XCTAssertLessThanOrEqual(DisplayWidth.of(line), 11, line)
        }
        XCTAssertEqual(set.plainLines.joined().replacingOccurrences(of: " ", with: ""), text.replacingOccurrences(of: " ", with: ""))
        XCTAssertEqual(set.plainLines[0], "金継ぎは割")
    }

    func testNestedListsKeepHangingIndentsAndQuotesTheirRule() {
        let set = layout([
            .listItem(depth: 0, marker: "1.", text: "First item whose text runs past the end of the line"),
            .listItem(depth: 1, marker: "•", text: "Nested item that also wraps onto another line"),
            .quote(StyledText([StyledRun("Quoted "), StyledRun("words", style: .italic)])),
        ], width: 32, measure: 30)
        XCTAssertEqual(set.plainLines, [
            "1. First item whose text runs",
            "   past the end of the line",
            "  • Nested item that also",
            "    wraps onto another line",
            "",
            "  │ Quoted words",
        ])
    }

    func testPicturesLeaveASeamForArt() throws {
        let picture = URL(fileURLWithPath: "/book/images/bowl.jpg")
        let set = layout([.paragraph("Before."), .image(source: picture, alt: "A mended bowl"), .caption("The bowl, mended."),
                          .image(source: nil, alt: "")], pictureHeight: 4)
        XCTAssertEqual(set.plainLines, ["Before.", "", "[picture: A mended bowl]", "", "", "", "", "  The bowl, mended.", "", "[picture]"])
        XCTAssertEqual(set.lines.filter { $0.imageSource == picture }.count, 4)
        XCTAssertNil(set.lines.last?.imageSource, "a picture without a source has nothing to paint")
        XCTAssertEqual(layout([.image(source: picture, alt: "x")]).plainLines, ["[picture: x]"], "one line by default")
    }

    /// Blocks of every kind, for positions and searches.
    private static let mixedArticle: [TextBlock] = {
        func words(_ prefix: String) -> StyledText { StyledText((0..<120).map { "\(prefix)\($0)" }.joined(separator: " ")) }
        return [
            .heading(level: 1, text: StyledText("A long title that may well wrap on a narrow screen")),
            .paragraph(words("p")),
            .quote(words("q")),
            .listItem(depth: 0, marker: "•", text: words("l")),
            .preformatted("let a = 1\n\nlet b = 2\n\n\nlet c = 3"),
            .rule,
            .footnote(number: 1, text: words("n")),
        ]
    }()

    /// At one width every line but a picture's comes back from its own position; positions do not
    /// count quote bars, list markers, indents or rules, whose amount changes with the width.
    func testPositionsComeBackToTheSameLineAndAcrossWidthsToTheSameWords() throws {
        for width in [30, 50, 90] {
            let set = layout(Self.mixedArticle, width: width, measure: 72)
            for line in set.lines.indices {
                XCTAssertEqual(set.line(for: set.position(atLine: line, articleIndex: 0)), line, "width \(width), line \(line): \(set.lines[line].text)")
            }
        }
        let narrow = layout(Self.mixedArticle, width: 30, measure: 72)
        let wide = layout(Self.mixedArticle, width: 90, measure: 72)
        for line in narrow.lines.indices where narrow.lines[line].continuesPrevious {
            let word = try XCTUnwrap(narrow.lines[line].runningText.split(separator: " ").first)
            let restored = wide.lines[wide.line(for: narrow.position(atLine: line, articleIndex: 0))]
            XCTAssertTrue(restored.runningText.split(separator: " ").contains(word),
                          "'\(word)' (narrow line \(line): \(narrow.lines[line].text)) is on the wide line \(restored.text)")
        }
    }

    /// A phrase that wraps inside a quote, a list item or a note is found without their bars and
    /// indents; lines of verbatim text are not run together.
    func testSearchesJoinWrappedLinesWithoutDecorationButNotVerbatimLines() throws {
        let set = layout(Self.mixedArticle, width: 30, measure: 72)
        var splits = 0
        for line in set.lines.indices.dropFirst() where set.lines[line].continuesPrevious && set.lines[line].leadLength > 0 {
            let before = try XCTUnwrap(set.lines[line - 1].text.split(separator: " ").last)
            let after = try XCTUnwrap(set.lines[line].runningText.split(separator: " ").first)
            let matches = ArticleMatches("\(before) \(after)", in: set).matches
            XCTAssertEqual(matches.count, 1, "'\(before) \(after)' across lines \(line - 1)–\(line)")
            XCTAssertEqual(matches.first?.map(\.line), [line - 1, line])
            XCTAssertEqual(matches.first.map { $0.map { String(set.lines[$0.line].text[$0.range]) } }, [String(before), String(after)])
            splits += 1
        }
        XCTAssertGreaterThan(splits, 5, "quotes, list items and notes wrapped")
        XCTAssertEqual(ArticleMatches("let a = 1 let b", in: set).matches.count, 0, "verbatim lines stay apart")
        XCTAssertEqual(ArticleMatches("LET B", in: set).matches.count, 1)
    }

    func testMatchPiecesLandOnTheRightCharactersInTextBeyondASCII() throws {
        let text = (0..<40).map { $0 % 3 == 0 ? "“café”" : $0 % 3 == 1 ? "naïve👍🏽" : "日本語" }.joined(separator: " ")
        let set = layout([.paragraph(StyledText(text))], width: 30, measure: 72)
        let all = ArticleMatches("naïve👍🏽 日本語", in: set).matches
        XCTAssertEqual(all.count, 13)
        for match in all {
            let text = match.enumerated().map { index, piece in
                (index > 0 && set.lines[piece.line].followsSpace ? " " : "") + String(set.lines[piece.line].text[piece.range])
            }.joined()
            XCTAssertEqual(text, "naïve👍🏽 日本語")
        }
        XCTAssertTrue(all.contains { $0.count == 2 }, "some matches cross a line break")
    }

    func testNarrowAndDegenerateWidthsDoNotCrash() {
        let everything: [TextBlock] = [
            .heading(level: 1, text: "金継ぎ Title"), .paragraph(StyledText([StyledRun("bold ", style: .bold), StyledRun("👍🏽e\u{301}")])),
            .listItem(depth: 5, marker: "viii.", text: "deep"), .quote("q"), .caption("c"), .preformatted("\tcode"),
            .image(source: URL(fileURLWithPath: "/x.png"), alt: "金"), .rule,
            .table(TextTable(rows: [["a", "金継ぎ", "c"], ["1"]], headerRowCount: 1)),
            .paragraph(StyledText([StyledRun("link[1]", link: TextLink(number: 1, url: URL(string: "https://e.com")!))])),
            .footnote(number: 1, text: "note"),
        ]
        for width in [-3, 0, 1, 2, 3, 5] {
            let set = ArticleLayout(blocks: everything, width: width, pictureHeight: 3)
            XCTAssertFalse(set.lines.isEmpty)
            XCTAssertEqual(set.links.count, 1)
            var state = AppState(width: max(0, width), height: 10)
            var reader = ReaderScreen(issueID: 1)
            reader.view.layout = set
            state.screens.append(.reader(reader))
            var buffer = CellBuffer(width: max(0, width), height: 10)
            ArticleScreen.render(state.reader!, state.shared, in: state.body, theme: theme, into: &buffer)
        }
        XCTAssertEqual(ArticleLayout(blocks: [], width: 1).lines, [])
    }
}
