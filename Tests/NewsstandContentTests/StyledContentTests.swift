import Foundation
import XCTest
@testable import NewsstandContent

/// Inline styles, links, footnotes, tables and hostile text, from small hand-written documents.
final class StyledContentTests: XCTestCase {
    private func blocks(_ body: String, baseURL: URL? = URL(fileURLWithPath: "/book/OPS/a.xhtml")) -> [TextBlock] {
        let markup = """
        <?xml version="1.0" encoding="UTF-8"?>
        <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><head><title>t</title></head>
        <body>\(body)</body></html>
        """
        return XHTMLDocumentParser.blocks(from: Data(markup.utf8), baseURL: baseURL)
    }

    func testInlineStylesBecomeRuns() {
        let result = blocks("<p>A <b>bold</b>, <i>it</i>, <u>under</u>, <code>f(x)</code> and <strong><em>both</em></strong>.</p>")
        XCTAssertEqual(result, [.paragraph(StyledText([
            StyledRun("A "), StyledRun("bold", style: .bold), StyledRun(", "), StyledRun("it", style: .italic), StyledRun(", "),
            StyledRun("under", style: .underline), StyledRun(", "), StyledRun("f(x)", style: .code), StyledRun(" and "),
            StyledRun("both", style: [.bold, .italic]), StyledRun("."),
        ]))])
    }

    func testHeadingsAndListItemsKeepTheirStyles() {
        let result = blocks("<h2>The <em>real</em> thing</h2><ul><li><b>Key:</b> value</li></ul>")
        XCTAssertEqual(result, [
            .heading(level: 2, text: StyledText([StyledRun("The "), StyledRun("real", style: .italic), StyledRun(" thing")])),
            .listItem(depth: 0, marker: "•", text: StyledText([StyledRun("Key:", style: .bold), StyledRun(" value")])),
        ])
    }

    func testLinksAreNumberedInOrderAndRepeatsKeepTheirNumber() throws {
        let result = blocks("""
            <p>See <a href="https://example.com/a">the <b>site</b></a>, <a href="https://example.com/a">again</a>,
            <a href="http://b.org/">b</a>, <a href="other.xhtml">a chapter</a> and <a href="#top">the top</a>.</p>
            """)
        let a = TextLink(number: 1, url: URL(string: "https://example.com/a")!)
        let b = TextLink(number: 2, url: URL(string: "http://b.org/")!)
        XCTAssertEqual(result, [.paragraph(StyledText([
            StyledRun("See "), StyledRun("the ", link: a), StyledRun("site", style: .bold, link: a), StyledRun("[1]", link: a),
            StyledRun(", "), StyledRun("again[1]", link: a), StyledRun(", "), StyledRun("b[2]", link: b),
            StyledRun(", a chapter and the top."),
        ]))])
        XCTAssertEqual(result.first?.plainText, "See the site[1], again[1], b[2], a chapter and the top.")
    }

    func testEPUB3FootnotesAreCollectedAtTheEnd() {
        let result = blocks("""
            <p>Whales sing<a epub:type="noteref" href="#n1">*</a> and dive.<a epub:type="noteref" href="#n2">†</a></p>
            <aside epub:type="footnote" id="n2"><p>Deep dives last an hour.</p></aside>
            <aside epub:type="footnote" id="n1"><p>Humpbacks, <i>mostly</i>.</p></aside>
            <aside epub:type="footnote" id="n3"><p>Never referenced.</p></aside>
            <p>After.</p>
            """)
        XCTAssertEqual(result, [
            .paragraph(StyledText([StyledRun("Whales sing"), StyledRun("[^1]", footnote: 1), StyledRun(" and dive."), StyledRun("[^2]", footnote: 2)])),
            .paragraph("After."),
            .footnote(number: 1, text: StyledText([StyledRun("Humpbacks, "), StyledRun("mostly", style: .italic), StyledRun(".")])),
            .footnote(number: 2, text: "Deep dives last an hour."),
            .footnote(number: 3, text: "Never referenced."),
        ])
    }

    func testPlainAnchorFootnotesToShortTextAreCollected() {
        let result = blocks("""
            <p>A claim.<sup><a href="#fn1" id="r1">1</a></sup> See <a href="#part2">the second part of this essay</a>.</p>
            <h2 id="part2">Part two</h2>
            <p>Another<a href="#fn2" id="r2">[2]</a>.</p>
            <div class="footnotes"><ol>
              <li id="fn1"><p>A source, 1999. <a href="#r1">↩</a></p></li>
              <li><p><a id="fn2" href="#r2">2.</a> Another source.</p></li>
            </ol></div>
            """)
        XCTAssertEqual(result, [
            .paragraph(StyledText([StyledRun("A claim."), StyledRun("[^1]", footnote: 1), StyledRun(" See the second part of this essay.")])),
            .heading(level: 2, text: "Part two"),
            .paragraph(StyledText([StyledRun("Another"), StyledRun("[^2]", footnote: 2), StyledRun(".")])),
            .footnote(number: 1, text: "A source, 1999."),
            .footnote(number: 2, text: "Another source."),
        ])
    }

    func testTablesBecomeRowsWithHeaders() {
        let result = blocks("""
            <table><caption>Tides</caption>
              <thead><tr><th>Port</th><th>High</th></tr></thead>
              <tbody><tr><td>Brest</td><td><i>06:12</i></td></tr><tr><td>Cork</td></tr></tbody>
            </table>
            """)
        XCTAssertEqual(result, [
            .caption("Tides"),
            .table(TextTable(rows: [
                [StyledText("Port", style: .bold), StyledText("High", style: .bold)],
                ["Brest", StyledText("06:12", style: .italic)],
                ["Cork"],
            ], headerRowCount: 1)),
        ])
    }

    func testLayoutTablesAreReadAsBlocks() {
        let result = blocks("<table><tr><td><p>Only one column</p><p>Second</p></td></tr></table>")
        XCTAssertEqual(result, [.paragraph("Only one column"), .paragraph("Second")])
    }

    func testPreformattedTabsExpand() {
        XCTAssertEqual(blocks("<pre>a\tb\n\tc</pre>"), [.preformatted("a   b\n    c")])
    }

    // MARK: Hostile content

    private func assertSafe(_ text: String, _ message: String = "", file: StaticString = #filePath, line: UInt = #line) {
        let bad = text.unicodeScalars.filter {
            $0.value < 0x20 && $0 != "\n" || (0x7F..<0xA0).contains($0.value) || (0x202A...0x202E).contains($0.value)
                || (0x2066...0x2069).contains($0.value)
        }
        XCTAssertTrue(bad.isEmpty, "\(message): \(text.debugDescription)", file: file, line: line)
    }

    func testEscapeSequencesInTextAndAttributesAreRemoved() throws {
        let hostile = """
            <html><body>
            <h1>Title\u{1B}]0;owned\u{07}</h1>
            <p>Evil\u{1B}[2J text &#27;[31m here\u{202E}reversed\u{9B}1m <b>bold\u{1B}P1$q\u{1B}\\</b></p>
            <img src="x.png" alt="a\u{1B}[31mred\u{202D}"/>
            <p><a href="http://e.com/\u{1B}[2J\u{7}x">link\u{8}</a></p>
            <pre>code\u{1B}[1m\there</pre>
            <table><tr><td>c\u{1B}[5m1</td><td>c2</td></tr></table>
            </body></html>
            """
        let result = XHTMLDocumentParser.blocks(from: Data(hostile.utf8), baseURL: nil)
        XCTAssertGreaterThanOrEqual(result.count, 5)
        for block in result {
            assertSafe(block.plainText, "\(block)")
            if case .image(_, let alt) = block { XCTAssertEqual(alt, "ared") }
        }
        // The document is not well-formed XML (ESC is not an XML character), so libxml2's HTML parser
        // reads it: whole escape sequences (ESC, &#27; and C1 introducers) go before libxml2 sees the markup,
        // bidi overrides after.
        XCTAssertEqual(result.first, .heading(level: 1, text: "Title"))
        XCTAssertTrue(result.contains(.paragraph(StyledText([StyledRun("Evil text herereversed "), StyledRun("bold", style: .bold)]))), "\(result)")
        let links = result.flatMap { block -> [TextLink] in
            if case .paragraph(let text) = block { return text.runs.compactMap(\.link) }
            return []
        }
        let link = try XCTUnwrap(links.first)
        assertSafe(link.url.absoluteString, "link URL")
        XCTAssertFalse(link.url.absoluteString.contains("\u{1B}"))
    }

    func testBrokenXHTMLGivesBestEffortText() {
        let broken = "<?xml version=\"1.0\"?><html><body><p>Unclosed <b>bold <i>and<table><tr><td>cell one<td>cell two<p>after &bogus; &amp"
        let result = XHTMLDocumentParser.blocks(from: Data(broken.utf8), baseURL: nil)
        let text = result.map(\.plainText).joined(separator: " | ")
        for fragment in ["Unclosed", "bold", "cell one", "cell two", "after"] {
            XCTAssertTrue(text.contains(fragment), "\(fragment) missing from \(text)")
        }
        for junk in ["<a href=", "<p><p><b><i></table></b>", "<<<>>>", "<a epub:type=\"noteref\" href=\"#\">", "<aside id=\"x\" epub:type=\"footnote\">"] {
            _ = XHTMLDocumentParser.blocks(from: Data(junk.utf8), baseURL: nil)
        }
    }

    // MARK: Wrapping styled text

    func testStyledWrappingKeepsStylesAndNeverSplitsClusters() {
        let text = StyledText([StyledRun("The "), StyledRun("quick brown", style: .bold), StyledRun(" fox")])
        let lines = StyledTextWrapper.wrap(text, width: 9)
        XCTAssertEqual(lines, [
            [StyledRun("The "), StyledRun("quick", style: .bold)],
            [StyledRun("brown", style: .bold), StyledRun(" fox")],
        ])
        let cjk = StyledTextWrapper.wrap("金継ぎの技術は美しい", width: 5).map { $0.map(\.text).joined() }
        XCTAssertEqual(cjk, ["金継", "ぎの", "技術", "は美", "しい"])
        let mixed = StyledTextWrapper.wrap("Kintsugi 金継ぎ e\u{301}te\u{301} 👍🏽👍🏽", width: 4).map { $0.map(\.text).joined() }
        XCTAssertEqual(mixed.joined(), "Kintsugi金継ぎe\u{301}te\u{301}👍🏽👍🏽".replacingOccurrences(of: " ", with: ""))
        for line in mixed { XCTAssertLessThanOrEqual(DisplayWidth.of(line), 4, line) }
        XCTAssertEqual(StyledTextWrapper.wrap("金a", width: 1).map { $0.map(\.text).joined() }, ["金", "a"], "a wide character on a 1-column line")
        XCTAssertEqual(StyledTextWrapper.wrap("one\ntwo three", width: 20).map { $0.map(\.text).joined() }, ["one", "two three"])
        XCTAssertEqual(StyledTextWrapper.wrap("", width: 5), [[]])
    }

    func testWrappedLinesSayWhetherTheBreakTookASpace() {
        func breaks(_ text: String, _ width: Int) -> [String] {
            StyledTextWrapper.wrapLines(StyledText(text), width: width).map { ($0.followsSpace ? "+" : "") + $0.runs.map(\.text).joined() }
        }
        XCTAssertEqual(breaks("one two  three", 7), ["one two", "+three"], "a break at spaces")
        XCTAssertEqual(breaks("abcdefgh", 3), ["abc", "def", "gh"], "a word split where it did not fit")
        XCTAssertEqual(breaks("go abcdefgh", 3), ["go", "+abc", "def", "gh"], "only the split's first line follows the space")
        XCTAssertEqual(breaks("金継ぎ", 4), ["金継", "ぎ"], "East Asian text breaks between characters")
        XCTAssertEqual(breaks("one\ntwo", 20), ["one", "+two"], "a forced break reads as a space")
    }
}
