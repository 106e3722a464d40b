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
            throw CommandFailure("\(issue.title) is not downloaded yet: run `newsstand download \(try context.reference(to: issue))` first")
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
