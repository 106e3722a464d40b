import Foundation
import XCTest
@testable import NewsstandContent
import Synchronization

final class XHTMLDocumentParserTests: XCTestCase {
    private func blocks(_ markup: String, baseURL: URL? = nil) -> [TextBlock] {
        XHTMLDocumentParser.blocks(from: Data(markup.utf8), baseURL: baseURL)
    }

    private func xhtml(_ body: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops">
        <head><title>Ignored title</title><style>p { color: red }</style></head>
        <body>\(body)</body></html>
        """
    }

    func testHeadingsAndParagraphsWithCollapsedWhitespace() {
        let result = blocks(xhtml("""
            <h1>Chapter   One</h1>
            <p>Call me
               Ishmael.   Some years ago — never mind
            how long <em>precisely</em>.</p>
            <h3>A  <span>smaller</span> heading</h3>
            """))
        XCTAssertEqual(result, [
            .heading(level: 1, text: "Chapter One"),
            .paragraph(StyledText([StyledRun("Call me Ishmael. Some years ago — never mind how long "),
                                   StyledRun("precisely", style: .italic), StyledRun(".")])),
            .heading(level: 3, text: "A smaller heading"),
        ])
    }

    func testNestedListsHaveMarkersAndDepth() {
        let result = blocks(xhtml("""
            <ul>
              <li>Apples</li>
              <li>Citrus
                <ol start="3">
                  <li>Oranges</li>
                  <li>Lemons</li>
                </ol>
              </li>
            </ul>
            <ol type="a"><li>first</li><li>second</li></ol>
            """))
        XCTAssertEqual(result, [
            .listItem(depth: 0, marker: "•", text: "Apples"),
            .listItem(depth: 0, marker: "•", text: "Citrus"),
            .listItem(depth: 1, marker: "3.", text: "Oranges"),
            .listItem(depth: 1, marker: "4.", text: "Lemons"),
            .listItem(depth: 0, marker: "a.", text: "first"),
            .listItem(depth: 0, marker: "b.", text: "second"),
        ])
    }

    func testBlockquotePreAndRule() {
        let result = blocks(xhtml("""
            <blockquote><p>To be,   or not to be.</p><p>That is the question.</p></blockquote>
            <hr/>
            <pre>
            let x = 1
              indented   stays
            </pre>
            """))
        XCTAssertEqual(result, [
            .quote("To be, or not to be."),
            .quote("That is the question."),
            .rule,
            .preformatted("let x = 1\n  indented   stays"),
        ])
    }

    func testImagesResolveAgainstBaseURLAndKeepAlt() {
        let base = URL(fileURLWithPath: "/books/moby/OPS/chapter_001.xhtml")
        let result = blocks(xhtml("""
            <figure><img src="images/whale%20one.jpg" alt="A  whale"/><figcaption>The whale.</figcaption></figure>
            <p>Before <img src="../cover.png"/> after</p>
            """), baseURL: base)
        XCTAssertEqual(result, [
            .image(source: URL(fileURLWithPath: "/books/moby/OPS/images/whale one.jpg"), alt: "A whale"),
            .caption("The whale."),
            .paragraph("Before"),
            .image(source: URL(fileURLWithPath: "/books/moby/cover.png"), alt: ""),
            .paragraph("after"),
        ])
    }

    func testEntitiesAreDecoded() {
        let result = blocks(xhtml("<p>Fish &amp; chips &lt;hot&gt; &#8212; &#x263A; &quot;ok&quot;</p>"))
        XCTAssertEqual(result, [.paragraph("Fish & chips <hot> — ☺ \"ok\"")])
    }

    func testScriptStyleAndHeadAreDropped() {
        let result = blocks(xhtml("<script>alert('no')</script><p>Kept</p><style>.x{}</style>"))
        XCTAssertEqual(result, [.paragraph("Kept")])
    }

    func testLineBreaksInsideParagraphs() {
        let result = blocks(xhtml("<p>April is the cruellest month,<br/>   breeding<br/>Lilacs</p>"))
        XCTAssertEqual(result, [.paragraph("April is the cruellest month,\nbreeding\nLilacs")])
    }

    func testIllFormedHTMLStillYieldsItsText() {
        let markup = """
        <html><head><title>t</title><script>var a = "<p>not text</p>";</script></head>
        <body>
        <h2>News&nbsp;Today</h2>
        <p>First paragraph<br>second line
        <p>Second paragraph with &copy; 2024 &amp stray & ampersand < less
        <ul><li>one<li>two</ul>
        <div>Unclosed div
        """
        let result = blocks(markup)
        XCTAssertEqual(result, [
            .heading(level: 2, text: "News\u{00A0}Today"),
            .paragraph("First paragraph\nsecond line"),
            // libxml2 decodes only entities closed by ";", so "&amp " without one stays as written.
            .paragraph("Second paragraph with © 2024 &amp stray & ampersand < less"),
            .listItem(depth: 0, marker: "•", text: "one"),
            .listItem(depth: 0, marker: "•", text: "two"),
            .paragraph("Unclosed div"),
        ])
    }

    func testMismatchedXHTMLFallsBackWithoutLosingText() {
        let result = blocks(xhtml("<p>One <b>bold <i>both</b> after</i></p><p>Two</p>"))
        XCTAssertEqual(result, [
            .paragraph(StyledText([StyledRun("One "), StyledRun("bold ", style: .bold), StyledRun("both", style: [.bold, .italic]),
                                   StyledRun(" after")])),
            .paragraph("Two"),
        ])
    }

    func testEmptyAndGarbageInputDoNotCrash() {
        XCTAssertEqual(blocks(""), [])
        XCTAssertEqual(blocks("just text, no tags"), [.paragraph("just text, no tags")])
        XCTAssertEqual(XHTMLDocumentParser.blocks(from: Data([0xFF, 0x00, 0xC3]), baseURL: nil).count <= 1, true)
        let deep = String(repeating: "<div>", count: 5000) + "deep" + String(repeating: "</div>", count: 5000)
        XCTAssertEqual(blocks(deep), [.paragraph("deep")])
    }

    func testDocumentsOverTenMegabytesStillParse() {
        // XMLParser(data:) on Linux refuses inputs over 10 MB; the parser must cope anyway.
        let paragraph = "<p>" + String(repeating: "word ", count: 200) + "</p>\n"
        let body = String(repeating: paragraph, count: 11_000)
        let result = blocks(xhtml(body))
        XCTAssertEqual(result.count, 11_000)
        XCTAssertEqual(result.first, .paragraph(StyledText(String(repeating: "word ", count: 200).trimmingCharacters(in: .whitespaces))))
    }

    func testRomanAndLetterMarkers() {
        XCTAssertEqual(TextBlockBuilder.orderedMarker(4, style: "i"), "iv.")
        XCTAssertEqual(TextBlockBuilder.orderedMarker(27, style: "a"), "aa.")
        XCTAssertEqual(TextBlockBuilder.orderedMarker(12, style: "I"), "XII.")
    }

    // MARK: libxml2's HTML parser (documents that are not well-formed XML)

    func testBrokenHTMLKeepsSpacesBetweenInlineElementsAndEpubAttributes() {
        let markup = """
        <html><body><p><b>bold</b> <i>italic</i> end<a epub:type="noteref" href="#n1">1</a>
        <aside id="n1" epub:type="footnote"><p>The note.</aside>
        """
        let tree = XHTMLDocumentParser.documentTree(from: Data(markup.utf8))
        let aside = tree.firstDescendant(where: { $0.name == "aside" })
        XCTAssertEqual(aside?.attributes["epub:type"], "footnote")
        XCTAssertEqual(aside?.attributeTokens("type"), ["footnote"])
        let paragraph = blocks(markup).first
        XCTAssertEqual(paragraph?.plainText.hasPrefix("bold italic end"), true, "\(String(describing: paragraph))")
    }

    func testBrokenHTMLEncodingsAreDetected() {
        // A <meta charset>, a UTF-16 byte-order mark, and undeclared bytes that are not UTF-8.
        let latin1 = Data("<html><head><meta charset=\"iso-8859-1\"></head><body><p>caf".utf8) + Data([0xE9]) + Data("<br></p>".utf8)
        XCTAssertEqual(XHTMLDocumentParser.blocks(from: latin1, baseURL: nil), [.paragraph("café")])
        var utf16 = Data([0xFF, 0xFE])
        utf16.append("<p>naïve<br>café".data(using: .utf16LittleEndian)!)
        XCTAssertEqual(XHTMLDocumentParser.blocks(from: utf16, baseURL: nil), [.paragraph("naïve\ncafé")])
        let undeclared = Data("<p>r".utf8) + Data([0xE9]) + Data("sum".utf8) + Data("<br>".utf8)
        XCTAssertEqual(XHTMLDocumentParser.blocks(from: undeclared, baseURL: nil), [.paragraph("résum")])
    }

    func testConcurrentBrokenHTMLParsesAgree() {
        let markup = Data("<p>One &nbsp;<b>two<p>three<ul><li>a<li>b</ul>".utf8)
        let expected = XHTMLDocumentParser.blocks(from: markup, baseURL: nil)
        XCTAssertFalse(expected.isEmpty)
        let results = ResultBox()
        DispatchQueue.concurrentPerform(iterations: 64) { _ in
            results.append(XHTMLDocumentParser.blocks(from: markup, baseURL: nil))
        }
        XCTAssertEqual(results.all.count, 64)
        for result in results.all { XCTAssertEqual(result, expected) }
    }

    func testBrokenHTMLOverTenMegabytesParses() {
        let paragraph = "<p>" + String(repeating: "word&nbsp;", count: 100) + "\n"
        let markup = "<html><body>" + String(repeating: paragraph, count: 11_000)
        let result = blocks(markup)
        XCTAssertEqual(result.count, 11_000)
    }
}

private final class ResultBox: Sendable {
    private let results = Mutex<[[TextBlock]]>([])
    func append(_ blocks: [TextBlock]) { results.withLock { $0.append(blocks) } }
    var all: [[TextBlock]] { results.withLock { $0 } }
}
