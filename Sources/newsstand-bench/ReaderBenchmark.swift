import Foundation
import NewsstandContent
import NewsstandCore
import NewsstandUI

/// Case `reader`: time to open a 300-article issue to its first page (read the package and
/// navigation, parse the first article, set it, draw the frame), and time to reflow a
/// 20,000-word article when the window is resized (the `.resized` update, then the frame).
struct ReaderBenchmark {
    var articles = 300
    var words = 20_000
    var repetitions = 10

    func run() throws {
        var table = ResultTable(title: "Reader: a \(articles)-article issue, a \(Format.count(words))-word article, 100×40 cells")
        let folder = try TemporaryFolder(prefix: "newsstand-bench-reader")
        defer { folder.remove() }
        progress("writing a \(articles)-article EPUB and a \(Format.count(words))-word article")
        try Self.writeIssue(at: folder.url, articles: articles, wordsPerArticle: 800)

        var openTimes: [Double] = []
        for _ in 0..<repetitions {
            let (_, seconds) = try MonotonicClock.measure { () -> CellBuffer in
                let book = try EPUBReader.open(folder: folder.url)
                let data = try Data(contentsOf: book.articles[0].file)
                let blocks = XHTMLDocumentParser.blocks(from: data, baseURL: book.articles[0].file)
                var state = AppState(width: 100, height: 40)
                var reader = ReaderScreen(issueID: 1)
                reader.book = book
                reader.isShowingArticle = true
                state.screens.append(.reader(reader))
                _ = AppUpdate.update(&state, .articleLoaded(issueID: 1, articleIndex: 0, .success(blocks)))
                return AppView.render(state, theme: .fallback)
            }
            openTimes.append(seconds)
        }
        table.add("open issue → first page drawn", Statistics(openTimes), notes: "EPUBReader.open + first article parsed, set and drawn")

        let long = Self.article(title: "A very long read", words: words)
        let blocks = XHTMLDocumentParser.blocks(from: Data(long.utf8), baseURL: nil)
        var state = AppState(width: 100, height: 40)
        var opened = ReaderScreen(issueID: 1)
        opened.isShowingArticle = true
        state.screens.append(.reader(opened))
        _ = AppUpdate.update(&state, .articleLoaded(issueID: 1, articleIndex: 0, .success(blocks)))
        if var reader = state.reader {
            reader.view.topLine = (reader.view.layout?.lines.count ?? 0) / 2
            state.screens[state.screens.count - 1] = .reader(reader)
        }
        var reflowTimes: [Double] = []
        var lines = 0
        for index in 0..<repetitions {
            let width = index % 2 == 0 ? 80 : 100
            let (_, seconds) = MonotonicClock.measure { () -> CellBuffer in
                _ = AppUpdate.update(&state, .resized(width: width, height: 40))
                return AppView.render(state, theme: .fallback)
            }
            lines = state.reader?.view.layout?.lines.count ?? 0
            reflowTimes.append(seconds)
        }
        table.add("reflow \(Format.count(words)) words on resize", Statistics(reflowTimes),
                  notes: "\(blocks.count) blocks → \(Format.count(lines)) lines; update(.resized) + frame, same text kept at the top")
        table.print()
    }

    /// An unpacked EPUB 3 with `articles` chapters of `wordsPerArticle` words.
    static func writeIssue(at root: URL, articles: Int, wordsPerArticle: Int) throws {
        let manager = FileManager.default
        let text = root.appendingPathComponent("OEBPS", isDirectory: true)
        try manager.createDirectory(at: root.appendingPathComponent("META-INF"), withIntermediateDirectories: true)
        try manager.createDirectory(at: text, withIntermediateDirectories: true)
        try Data("application/epub+zip".utf8).write(to: root.appendingPathComponent("mimetype"))
        try Data("""
            <?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
            <rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>
            """.utf8).write(to: root.appendingPathComponent("META-INF/container.xml"))
        var manifest = #"<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>"#
        var spine = ""
        var nav = ""
        for index in 1...articles {
            manifest += #"<item id="a\#(index)" href="a\#(index).xhtml" media-type="application/xhtml+xml"/>"#
            spine += #"<itemref idref="a\#(index)"/>"#
            nav += #"<li><a href="a\#(index).xhtml">Article \#(index)</a></li>"#
            try Data(article(title: "Article \(index)", words: wordsPerArticle).utf8).write(to: text.appendingPathComponent("a\(index).xhtml"))
        }
        try Data("""
            <?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">
            <metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">bench</dc:identifier><dc:title>Bench</dc:title>
            <dc:language>en</dc:language></metadata><manifest>\(manifest)</manifest><spine>\(spine)</spine></package>
            """.utf8).write(to: text.appendingPathComponent("content.opf"))
        try Data("""
            <?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><head><title>Contents</title></head>
            <body><nav epub:type="toc"><ol>\(nav)</ol></nav></body></html>
            """.utf8).write(to: text.appendingPathComponent("nav.xhtml"))
    }

    /// An XHTML article of about `words` words: a heading every twenty paragraphs, some emphasis and links.
    static func article(title: String, words: Int) -> String {
        let vocabulary = ["the", "harbour", "light", "kept", "turning", "while", "ships", "passed", "slowly", "through", "fog",
                          "and", "keepers", "wrote", "careful", "notes", "about", "weather", "tides", "金継ぎ", "café"]
        var body = "<h1>\(title)</h1>"
        var written = 0
        var paragraph = 0
        while written < words {
            if paragraph % 20 == 0 { body += "<h2>Part \(paragraph / 20 + 1)</h2>" }
            var sentence: [String] = []
            for index in 0..<100 { sentence.append(vocabulary[(paragraph * 7 + index * 3) % vocabulary.count]) }
            sentence[10] = "<em>\(sentence[10])</em>"
            sentence[50] = #"<a href="https://example.com/\#(paragraph)">\#(sentence[50])</a>"#
            body += "<p>" + sentence.joined(separator: " ") + ".</p>"
            written += 100
            paragraph += 1
        }
        return #"<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>\#(title)</title></head><body>\#(body)</body></html>"#
    }
}
