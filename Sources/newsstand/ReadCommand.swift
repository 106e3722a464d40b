import Foundation
import NewsstandContent
import NewsstandCore
import NewsstandUI

/// `newsstand read ISSUE [--plain] [--toc] [--article N] [--width N]`: prints an issue's set text
/// (or its table of contents) to stdout. EPUB issues are read in spine order; PDF issues (an issue
/// folder holding a .pdf) page by page, each page an article "Page N".
enum ReadCommand {
    static func run(_ arguments: inout ArgumentList) throws {
        let plain = arguments.flag("--plain")
        let contentsOnly = arguments.flag("--toc")
        let articleNumber = try arguments.integerOption("--article", range: 1...100_000)
        let width = try arguments.integerOption("--width", range: 20...1000)
        let reference = try arguments.positional("issue name")
        try arguments.finish()
        let context = try LibraryContext.open()
        let issue = try context.issue(reference)
        guard issue.state == .available, let publication = try context.store.publication(id: issue.publicationID) else {
            throw CommandFailure("\(issue.title) is not downloaded yet: run `newsstand download \(issue.name)` first")
        }
        let text = try IssueText.open(folder: context.paths.folder(for: issue, of: publication))
        if contentsOnly {
            FileHandle.standardOutput.write(Data(text.tableOfContents().joined(separator: "\n").appending("\n").utf8))
            return
        }
        let indices: [Int]
        if let articleNumber {
            guard articleNumber <= text.articleCount else {
                throw CommandFailure("\(issue.title) has \(text.articleCount) articles; there is no article \(articleNumber)")
            }
            indices = [articleNumber - 1]
        } else {
            indices = Array(0..<text.articleCount)
        }
        let styled = !plain && isatty(STDOUT_FILENO) == 1 && (ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty
        let measure = context.configuration.measure
        let columns = width ?? (isatty(STDOUT_FILENO) == 1 ? min(measure, TerminalWidth.current() - 2) : measure)
        var output = ""
        for (position, index) in indices.enumerated() {
            if position > 0 { output += "\n\n" }
            let layout = ArticleLayout(blocks: try text.blocks(article: index), width: columns + 2, maximumMeasure: columns)
            for line in layout.lines {
                output += String(repeating: " ", count: line.indent)
                output += styled ? line.spans.map { Self.sgr($0, element: line.element) }.joined() : line.text
                output += "\n"
            }
        }
        try? context.store.markOpened(issueID: issue.id)
        FileHandle.standardOutput.write(Data(output.utf8))
    }

    /// A span with SGR attributes (bold, italic, underline; headings bold, links underlined).
    static func sgr(_ span: StyledRun, element: ThemeElement) -> String {
        var codes: [String] = []
        if span.style.contains(.bold) || element == .heading { codes.append("1") }
        if span.style.contains(.italic) || element == .quote { codes.append("3") }
        if span.style.contains(.underline) || span.link != nil { codes.append("4") }
        guard !codes.isEmpty, !span.text.isEmpty else { return span.text }
        return "\u{1B}[\(codes.joined(separator: ";"))m\(span.text)\u{1B}[0m"
    }
}

/// An installed issue's text: an EPUB's articles, or a PDF's pages.
enum IssueText {
    case epub(EPUBBook)
    case pdf(PDFDocumentReader, PDFInfo)

    /// An EPUB when the folder has `META-INF/container.xml`, else its first PDF, else whatever
    /// `IssueContent.openBook` makes of it (which explains what is wrong).
    static func open(folder: URL) throws -> IssueText {
        let manager = FileManager.default
        if !manager.fileExists(atPath: folder.appendingPathComponent("META-INF/container.xml").path),
           let pdf = (try? manager.contentsOfDirectory(atPath: folder.path))?.sorted().first(where: { $0.lowercased().hasSuffix(".pdf") }) {
            let reader = PDFDocumentReader(file: folder.appendingPathComponent(pdf))
            do {
                return .pdf(reader, try reader.info())
            } catch let error as PDFError {
                throw CommandFailure(error.description)
            }
        }
        return .epub(try IssueContent.openBook(folder: folder))
    }

    var articleCount: Int {
        switch self {
        case .epub(let book): return book.articles.count
        case .pdf(_, let info): return info.pageCount
        }
    }

    func blocks(article index: Int) throws -> [TextBlock] {
        switch self {
        case .epub(let book):
            let article = book.articles[index]
            guard let data = FileManager.default.contents(atPath: article.file.path) else {
                throw CommandFailure("the file \(article.file.lastPathComponent) is missing from the issue")
            }
            return XHTMLDocumentParser.blocks(from: data, baseURL: article.file)
        case .pdf(let reader, _):
            do {
                return [.heading(level: 2, text: "Page \(index + 1)")] + (try reader.blocks(page: index + 1))
            } catch let error as PDFError {
                throw CommandFailure(error.description)
            }
        }
    }

    /// The table of contents, nested, each entry numbered as `--article` numbers articles.
    func tableOfContents() -> [String] {
        func line(_ number: Int?, _ depth: Int, _ title: String) -> String {
            let label = number.map(String.init) ?? ""
            return String(repeating: " ", count: max(0, 4 - label.count)) + label + "  " + String(repeating: "  ", count: depth) + title
        }
        switch self {
        case .epub(let book):
            var numbers: [URL: Int] = [:]
            for (index, article) in book.articles.enumerated() where numbers[article.file.standardizedFileURL] == nil {
                numbers[article.file.standardizedFileURL] = index + 1
            }
            var lines = [book.title, ""]
            func visit(_ entries: [EPUBTableOfContentsEntry], depth: Int) {
                for entry in entries {
                    lines.append(line(entry.file.flatMap { numbers[$0.standardizedFileURL] }, depth, entry.title))
                    visit(entry.children, depth: depth + 1)
                }
            }
            visit(book.tableOfContents, depth: 0)
            return lines
        case .pdf(let reader, let info):
            return [info.title ?? reader.file.deletingPathExtension().lastPathComponent, ""]
                + (0..<info.pageCount).map { line($0 + 1, 0, "Page \($0 + 1)") }
        }
    }
}

/// The width of the terminal on stdout, or 80.
enum TerminalWidth {
    static func current() -> Int {
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0 { return Int(size.ws_col) }
        return 80
    }
}
