import Foundation
import XCTest
@testable import NewsstandContent

/// Pages built to break article extraction: no article, two articles, an article in a layout table,
/// `<noscript>`, right-to-left, huge, deep and empty pages, escape sequences, entities and charsets.
final class ArticleExtractorTests: XCTestCase {
    static let sentence = "The committee met on Tuesday to discuss the harbour, the new ferry timetable, and the long delayed repairs to the old stone pier."

    /// A paragraph of `count` sentences with `marker` in the first one.
    static func paragraph(_ marker: String, sentences count: Int = 3) -> String {
        "<p>\(marker) " + Array(repeating: sentence, count: count).joined(separator: " ") + "</p>"
    }

    static func article(_ marker: String = "Harbourmaster", paragraphs: Int = 6) -> String {
        (0..<paragraphs).map { paragraph("\(marker)\($0)") }.joined()
    }

    static let navigation = """
        <nav class="menu"><ul><li><a href="/">Home</a></li><li><a href="/news">News</a></li><li><a href="/sport">Sport</a></li></ul></nav>
        <div class="sidebar"><h3>Most read</h3><ul><li><a href="/a">Sidebarlink one</a></li><li><a href="/b">Sidebarlink two</a></li></ul></div>
        """

    static func page(head: String = "<title>Harbour news</title>", body: String, html: String = "<html lang=\"en\">") -> Data {
        Data("<!DOCTYPE html>\(html)<head><meta charset=\"utf-8\">\(head)</head><body>\(body)</body></html>".utf8)
    }

    func extract(_ data: Data, url: URL? = URL(string: "https://news.example/2026/harbour.html"), limits: ArticleLimits = .default) -> ExtractedArticle {
        ArticleExtractor.extract(from: data, url: url, limits: limits)
    }

    // MARK: The article and its metadata

    func testArticleTitleBylineMetadataAndBlocks() {
        let head = """
            <title>Ferry timetable changes for the winter | Harbour Gazette</title>
            <meta property="og:site_name" content="Harbour Gazette">
            <meta name="author" content="Ann Example">
            <meta property="article:published_time" content="2026-11-20T08:00:00Z">
            <meta name="description" content="The new ferry timetable, explained.">
            <meta property="og:image" content="/pictures/ferry.jpg">
            """
        let body = Self.navigation + """
            <article><h1>Ferry timetable changes for the winter</h1>
            \(Self.paragraph("Opening"))<h2>What changes</h2>\(Self.paragraph("Second"))
            <ul><li>Earlier first sailing on weekdays, from six in the morning</li><li>Later last sailing</li></ul>
            <blockquote><p>We listened to the islanders, said the operator, and we changed the plan.</p></blockquote>
            <pre>06:00 Pier A
            06:30 Pier B</pre>
            <figure><img src="pictures/map.png" alt="Route map"><figcaption>The new route</figcaption></figure>
            \(Self.paragraph("Closing with a <a href=\"/related/older.html\">link</a>"))
            </article>
            <div class="comments"><p>Commenter: \(Self.sentence) \(Self.sentence)</p></div>
            <footer><p>Copyright Harbour Gazette \(Self.sentence)</p></footer>
            """
        let article = extract(Self.page(head: head, body: body))
        XCTAssertTrue(article.readerable)
        XCTAssertEqual(article.title, "Ferry timetable changes for the winter")
        XCTAssertEqual(article.byline, "Ann Example")
        XCTAssertEqual(article.siteName, "Harbour Gazette")
        XCTAssertEqual(article.published, "2026-11-20T08:00:00Z")
        XCTAssertEqual(article.excerpt, "The new ferry timetable, explained.")
        XCTAssertEqual(article.lang, "en")
        XCTAssertEqual(article.leadImage?.absoluteString, "https://news.example/pictures/ferry.jpg")
        let text = article.text
        for wanted in ["Opening", "What changes", "Earlier first sailing", "We listened to the islanders", "06:00 Pier A", "The new route", "Closing with a link"] {
            XCTAssertTrue(text.contains(wanted), "missing \(wanted)")
        }
        for unwanted in ["Home", "Sidebarlink", "Commenter", "Copyright"] {
            XCTAssertFalse(text.contains(unwanted), "kept \(unwanted)")
        }
        XCTAssertFalse(text.contains("[1]"), "plain text has no link numbers")
        XCTAssertTrue(article.blocks.contains(.heading(level: 2, text: "What changes")))
        XCTAssertTrue(article.blocks.contains { if case .listItem(0, "•", _) = $0 { return true } else { return false } })
        XCTAssertTrue(article.blocks.contains { if case .quote = $0 { return true } else { return false } })
        XCTAssertTrue(article.blocks.contains(.preformatted("06:00 Pier A\n06:30 Pier B")))
        XCTAssertTrue(article.blocks.contains(.image(source: URL(string: "https://news.example/2026/pictures/map.png"), alt: "Route map")))
        XCTAssertTrue(article.blocks.contains(.caption("The new route")))
        // Links numbered as in issues, resolved against the page.
        let link = article.blocks.lazy.compactMap { block -> TextLink? in
            if case .paragraph(let text) = block { return text.runs.compactMap(\.link).first }
            return nil
        }.first
        XCTAssertEqual(link?.url.absoluteString, "https://news.example/related/older.html")
        XCTAssertEqual(link?.number, 1)
    }

    func testHiddenElementsScriptsStylesAndShareBarsAreLeftOut() {
        let body = """
            <div id="story">\(Self.article())
            <p hidden>Hiddenattribute \(Self.sentence)</p>
            <p aria-hidden="true">Ariahidden \(Self.sentence)</p>
            <p style="display: none">Displaynone \(Self.sentence)</p>
            <div class="share"><a href="https://twitter.example/share">Sharebutton</a></div>
            <script>var Scripttext = 1;</script><style>.Styletext { color: red }</style>
            <div class="ad-banner advertisement">Advertisementtext</div>
            </div>
            """
        let text = extract(Self.page(body: body)).text
        XCTAssertTrue(text.contains("Harbourmaster0"))
        for unwanted in ["Hiddenattribute", "Ariahidden", "Displaynone", "Sharebutton", "Scripttext", "Styletext", "Advertisementtext"] {
            XCTAssertFalse(text.contains(unwanted), "kept \(unwanted)")
        }
    }

    func testLinkFarmIsNotReaderable() {
        var links = ""
        for index in 0..<300 { links += "<li><a href=\"/story/\(index)\">Story number \(index) headline</a></li>" }
        let article = extract(Self.page(body: "<div class=\"index\"><ul>\(links)</ul></div>"))
        XCTAssertFalse(article.readerable)
    }

    func testEmptyPageIsNotReaderableAndHasNoBlocks() {
        let article = extract(Data())
        XCTAssertFalse(article.readerable)
        XCTAssertEqual(article.blocks, [])
        XCTAssertEqual(article.text, "")
    }

    func testOfTwoArticlesTheLongerIsChosenAndTwoEqualPostsComeWhole() {
        let body = """
            <main><article class="post">\(Self.article("Longpiece", paragraphs: 9))</article></main>
            <div class="more-stories"><article class="teaser">\(Self.paragraph("Shortpiece", sentences: 1))</article></div>
            """
        let text = extract(Self.page(body: body)).text
        XCTAssertTrue(text.contains("Longpiece0"))
        XCTAssertTrue(text.contains("Longpiece8"))
        XCTAssertFalse(text.contains("Shortpiece"), "the other article stays out")
        // The same the other way round: the long one wins wherever it is.
        let swapped = extract(Self.page(body: """
            <div class="more-stories"><article class="teaser">\(Self.paragraph("Shortpiece", sentences: 1))</article></div>
            <main><article class="post">\(Self.article("Longpiece", paragraphs: 9))</article></main>
            """)).text
        XCTAssertTrue(swapped.contains("Longpiece8"))
        XCTAssertFalse(swapped.contains("Shortpiece"))
        // Two posts of a blog's page, as long as each other: both, whole and in order, nothing else.
        let posts = extract(Self.page(body: Self.navigation + """
            <div class="posts"><article class="post">\(Self.article("Firstpost", paragraphs: 5))</article>
            <article class="post">\(Self.article("Secondpost", paragraphs: 5))</article></div>
            """)).text
        let words = posts.split(whereSeparator: { !$0.isLetter && !$0.isNumber })
        let markers = words.filter { $0.hasPrefix("Firstpost") || $0.hasPrefix("Secondpost") }
        XCTAssertEqual(markers.map(String.init), (0..<5).map { "Firstpost\($0)" } + (0..<5).map { "Secondpost\($0)" })
        XCTAssertFalse(posts.contains("Sidebarlink"))
    }

    func testArticleInsideALayoutTable() {
        let body = """
            <table width="100%"><tr><td class="nav"><a href="/">Home</a><br><a href="/x">Other</a></td>
            <td>\(Self.article("Tabled"))</td></tr></table>
            """
        let article = extract(Self.page(body: body))
        XCTAssertTrue(article.readerable)
        XCTAssertTrue(article.text.contains("Tabled0"))
        XCTAssertTrue(article.text.contains("Tabled5"))
        XCTAssertFalse(article.blocks.contains { if case .table = $0 { return true } else { return false } }, "a layout table is read as its text")
    }

    func testNoscriptTextLeftOutAndItsPictureUsed() {
        let body = """
            <noscript><p>Please enable JavaScript to read this site properly.</p></noscript>
            <div id="story">\(Self.paragraph("First"))
            <div><img class="lazy" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" alt="Pier"><noscript><img src="/pictures/pier-large.jpg" alt="Pier"></noscript></div>
            \(Self.article())</div>
            """
        let article = extract(Self.page(body: body))
        XCTAssertFalse(article.text.contains("enable JavaScript"))
        XCTAssertTrue(article.blocks.contains(.image(source: URL(string: "https://news.example/pictures/pier-large.jpg"), alt: "Pier")),
                      "\(article.blocks.filter { if case .image = $0 { return true } else { return false } })")
    }

    func testLazyPicturesFromDataSourceAndSourceSet() {
        let body = """
            <div id="story">\(Self.paragraph("First"))
            <img data-src="/pictures/lazy-one.jpg" alt="One">
            \(Self.paragraph("Second"))
            <img srcset="/pictures/set-small.jpg 480w, /pictures/set-large.jpg 1024w" alt="Two">
            \(Self.article())</div>
            """
        let article = extract(Self.page(body: body))
        XCTAssertTrue(article.blocks.contains(.image(source: URL(string: "https://news.example/pictures/lazy-one.jpg"), alt: "One")))
        XCTAssertTrue(article.blocks.contains(.image(source: URL(string: "https://news.example/pictures/set-small.jpg"), alt: "Two")))
    }

    func testRelativeAddressesResolveAgainstBaseThenURLThenCanonical() {
        let body = "<div id=\"story\">\(Self.paragraph("Linked <a href=\"next.html\">next</a>"))\(Self.article())</div>"
        func firstLink(_ article: ExtractedArticle) -> String? {
            for case .paragraph(let text) in article.blocks { if let link = text.runs.compactMap(\.link).first { return link.url.absoluteString } }
            return nil
        }
        let withBase = extract(Self.page(head: "<base href=\"/archive/\"><title>t</title>", body: body))
        XCTAssertEqual(firstLink(withBase), "https://news.example/archive/next.html")
        let withURL = extract(Self.page(body: body))
        XCTAssertEqual(firstLink(withURL), "https://news.example/2026/next.html")
        let canonicalOnly = extract(Self.page(head: "<link rel=\"canonical\" href=\"https://saved.example/a/b.html\">", body: body), url: nil)
        XCTAssertEqual(firstLink(canonicalOnly), "https://saved.example/a/next.html")
    }

    func testRightToLeftPage() {
        let arabic = "هذا نص عربي طويل عن الميناء والعبارة الجديدة وجدول المواعيد، وقد اجتمعت اللجنة يوم الثلاثاء لمناقشة الإصلاحات المتأخرة في الرصيف الحجري القديم."
        let paragraphs = (0..<6).map { "<p>\($0) \(arabic) \(arabic)</p>" }.joined()
        let article = extract(Self.page(body: "<div id=\"story\" dir=\"rtl\">\(paragraphs)</div>", html: "<html lang=\"ar\" dir=\"rtl\">"))
        XCTAssertTrue(article.readerable)
        XCTAssertEqual(article.lang, "ar")
        XCTAssertEqual(article.dir, "rtl")
        XCTAssertTrue(article.text.contains("الرصيف الحجري"))
    }

    // MARK: Hostile pages

    func testTwentyMegabytePageIsReadWithinLimits() {
        // Most of a huge page is data for its scripts; the rest, thousands of blocks around the article.
        let data = Self.page(body: "<script>var state = \"" + String(repeating: "0123456789abcdef", count: (20 << 20) / 16) + "\";</script>"
                             + String(repeating: "<div class=\"promo\"><span>x</span></div>", count: 20_000)
                             + "<div id=\"story\">\(Self.article("Huge"))</div>")
        XCTAssertGreaterThan(data.count, 20 << 20)
        let started = Date()
        let article = extract(data)
        XCTAssertTrue(article.text.contains("Huge5"))
        XCTAssertFalse(article.text.contains("0123456789abcdef"))
        XCTAssertLessThan(Date().timeIntervalSince(started), 60)
        // A smaller limit reads only the start of the page: here the article is past it.
        let limited = extract(data, limits: ArticleLimits(maxPageBytes: 1 << 20))
        XCTAssertFalse(limited.text.contains("Huge"))
        XCTAssertFalse(limited.readerable)
    }

    func testNestingAHundredThousandDeep() {
        let deep = String(repeating: "<div>", count: 100_000) + "Deepest words" + String(repeating: "</div>", count: 100_000)
        let article = extract(Self.page(body: "<div id=\"story\">\(Self.article())</div>" + deep))
        XCTAssertTrue(article.text.contains("Harbourmaster5"))
        let only = extract(Self.page(body: deep + Self.article()))
        XCTAssertTrue(only.text.contains("Harbourmaster0") || only.text.contains("Deepest"), "something readable comes out")
    }

    func testTenThousandEmptyDivs() {
        let empty = String(repeating: "<div></div>", count: 10_000)
        let article = extract(Self.page(body: empty + "<div id=\"story\">\(Self.article())</div>" + empty))
        XCTAssertTrue(article.readerable)
        XCTAssertTrue(article.text.contains("Harbourmaster5"))
    }

    func testNodeLimitLeavesTheRestOut() {
        let data = Self.page(body: "<div id=\"story\">\(Self.article("Early"))\(Self.article("Late", paragraphs: 50))</div>")
        let article = extract(data, limits: ArticleLimits(maxNodes: 40))
        XCTAssertTrue(article.text.contains("Early5"))
        XCTAssertFalse(article.text.contains("Late40"))
        XCTAssertTrue(extract(data).text.contains("Late40"))
    }

    func testEscapeSequencesAreStripped() {
        let body = "<div id=\"story\"><p>Bold\u{1B}[1m text\u{1B}[0m and a title \u{1B}]0;evil\u{07}set &#27;[31mred. \(Self.sentence)</p>\(Self.article())</div>"
        let article = extract(Self.page(head: "<title>Evil \u{1B}]2;title\u{07}headline of the day here</title>", body: body))
        XCTAssertFalse(article.text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
        XCTAssertTrue(article.text.contains("Bold text and a title set red."), article.text.prefix(200).description)
        XCTAssertEqual(article.title, "Evil headline of the day here")
    }

    func testEntitiesAreDecoded() {
        let body = "<div id=\"story\"><p>Caf&eacute; &amp; bar &#8217;quoted&#x2019; &lt;tag&gt; &nbsp;end. \(Self.sentence)</p>\(Self.article())</div>"
        let article = extract(Self.page(head: "<meta property=\"og:title\" content=\"Fish &amp;amp; chips &#8211; a history\">", body: body))
        XCTAssertTrue(article.text.contains("Café & bar ’quoted’ <tag>"), article.text.prefix(120).description)
        XCTAssertEqual(article.title, "Fish & chips – a history")
    }

    func testCharsets() throws {
        let samples: [(String, String, [UInt8])] = [
            ("shift_jis", "日本語の記事", [0x93, 0xFA, 0x96, 0x7B, 0x8C, 0xEA, 0x82, 0xCC, 0x8B, 0x4C, 0x8E, 0x96]),
            ("euc-jp", "日本語の記事", [0xC6, 0xFC, 0xCB, 0xDC, 0xB8, 0xEC, 0xA4, 0xCE, 0xB5, 0xAD, 0xBB, 0xF6]),
            ("euc-kr", "한국어 기사", [0xC7, 0xD1, 0xB1, 0xB9, 0xBE, 0xEE, 0x20, 0xB1, 0xE2, 0xBB, 0xE7]),
            ("gb2312", "中文文章", [0xD6, 0xD0, 0xCE, 0xC4, 0xCE, 0xC4, 0xD5, 0xC2]),
            ("big5", "中文文章", [0xA4, 0xA4, 0xA4, 0xE5, 0xA4, 0xE5, 0xB3, 0xB9]),
            ("koi8-r", "Привет мир", [0xF0, 0xD2, 0xC9, 0xD7, 0xC5, 0xD4, 0x20, 0xCD, 0xC9, 0xD2]),
            ("windows-1255", "שלום עולם", [0xF9, 0xEC, 0xE5, 0xED, 0x20, 0xF2, 0xE5, 0xEC, 0xED]),
            ("tis-620", "ภาษาไทย", [0xC0, 0xD2, 0xC9, 0xD2, 0xE4, 0xB7, 0xC2]),
            ("windows-1252", "café déjà", [0x63, 0x61, 0x66, 0xE9, 0x20, 0x64, 0xE9, 0x6A, 0xE0]),
            ("iso-8859-1", "naïve façade", [0x6E, 0x61, 0xEF, 0x76, 0x65, 0x20, 0x66, 0x61, 0xE7, 0x61, 0x64, 0x65]),
            ("windows-1251", "Привет мир", [0xCF, 0xF0, 0xE8, 0xE2, 0xE5, 0xF2, 0x20, 0xEC, 0xE8, 0xF0]),
            ("iso-8859-2", "Zażółć gęślą", [0x5A, 0x61, 0xBF, 0xF3, 0xB3, 0xE6, 0x20, 0x67, 0xEA, 0xB6, 0x6C, 0xB1]),
        ]
        for (charset, expected, bytes) in samples {
            let start = Data("<html><head><meta http-equiv=\"Content-Type\" content=\"text/html; charset=\(charset)\"><title>t</title></head><body><div id=\"story\"><p>".utf8)
            let rest = Data(" \(Self.sentence)</p>\(Self.article())</div></body></html>".utf8)
            let page = start + Data(bytes) + rest
            XCTAssertTrue(extract(page).text.contains(expected), "\(charset) from <meta>")
            // The charset HTTP names wins over none in the page.
            let bare = Data("<html><body><div id=\"story\"><p>".utf8) + Data(bytes) + rest
            XCTAssertTrue(ArticleExtractor.extract(from: bare, url: nil, encoding: charset).text.contains(expected), "\(charset) from HTTP")
        }
        // UTF-16 with a byte-order mark.
        let utf16 = String(decoding: Self.page(body: "<div id=\"story\"><p>Grüße \(Self.sentence)</p>\(Self.article())</div>"), as: UTF8.self)
            .replacingOccurrences(of: "<meta charset=\"utf-8\">", with: "")
        var data = Data([0xFF, 0xFE])
        for unit in utf16.utf16 { data.append(UInt8(unit & 0xFF)); data.append(UInt8(unit >> 8)) }
        XCTAssertTrue(extract(data).text.contains("Grüße"))
    }

    func testPicturesInTableCellsAreNotText() {
        let table = "<table><thead><tr><th>Pier</th><th>Photo</th></tr></thead><tbody>"
            + "<tr><td>North</td><td><img src=\"/n.jpg\" alt=\"North pier\"></td></tr><tr><td>South</td><td><img src=\"/s.jpg\"></td></tr></tbody></table>"
        let article = extract(Self.page(body: "<div id=\"story\">\(Self.article())\(table)</div>"))
        XCTAssertTrue(article.blocks.contains { if case .table = $0 { return true } else { return false } })
        XCTAssertTrue(article.text.contains("Pier Photo\nNorth \nSouth "), article.text.suffix(80).description)
        XCTAssertFalse(article.text.contains("[picture"))
        XCTAssertEqual(ExtractedArticle.withoutPictureMarks("a [picture] b [picture: x y] c [pictures] [picture"), "a  b  c [pictures] [picture")
    }

    // MARK: Plain text and Markdown

    func testTextSeparatesParagraphsWithBlankLinesAndCountsWords() {
        let article = extract(Self.page(body: "<div id=\"story\">\(Self.article())</div>"))
        let paragraphs = article.text.components(separatedBy: "\n\n")
        XCTAssertEqual(paragraphs.count, 6)
        XCTAssertTrue(paragraphs[0].hasPrefix("Harbourmaster0 The committee"))
        XCTAssertEqual(article.wordCount, 6 * (1 + 3 * Self.sentence.split(separator: " ").count))
    }

    func testMarkdownRendering() {
        let article = ExtractedArticle(title: "A *title*", byline: "Ann", readerable: true, blocks: [
            .heading(level: 2, text: "Part"),
            .paragraph(StyledText([StyledRun("See "), StyledRun("this[1]", link: TextLink(number: 1, url: URL(string: "https://e.example/x")!)),
                                   StyledRun(" and "), StyledRun("bold", style: .bold)])),
            .listItem(depth: 0, marker: "•", text: "one"), .listItem(depth: 0, marker: "•", text: "two"),
            .preformatted("code here"), .quote("Quoted"),
        ])
        let markdown = ArticleMarkdown.render(article, source: URL(string: "https://e.example/a"))
        XCTAssertEqual(markdown, """
            # A \\*title\\*

            *Ann · <https://e.example/a>*

            ### Part

            See [this](https://e.example/x) and **bold**

            - one
            - two

            ```
            code here
            ```

            > Quoted

            """)
    }

    // MARK: Scoring

    func testWordScore() {
        let perfect = ArticleWordScore(extracted: "The cat sat.", expected: "the CAT, sat")
        XCTAssertEqual(perfect.f1, 1)
        let half = ArticleWordScore(extracted: "a b c d", expected: "a b")
        XCTAssertEqual(half.precision, 0.5)
        XCTAssertEqual(half.recall, 1)
        XCTAssertEqual(half.f1, 2 * 0.5 / 1.5, accuracy: 1e-9)
        XCTAssertEqual(ArticleWordScore(extracted: "", expected: "words").f1, 0)
    }
}
