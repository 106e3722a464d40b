import Foundation
import NewsstandContent
import NewsstandCore
import NewsstandUI

/// `newsstand read ISSUE [--plain] [--article N] [--width N]`: prints an issue's set text to stdout.
enum ReadCommand {
    static func run(_ arguments: inout ArgumentList) throws {
        let plain = arguments.flag("--plain")
        let articleNumber = try arguments.integerOption("--article", range: 1...100_000)
        let width = try arguments.integerOption("--width", range: 20...1000)
        let reference = try arguments.positional("issue name")
        try arguments.finish()
        let context = try LibraryContext.open()
        let issue = try context.issue(reference)
        guard issue.state == .available, let publication = try context.store.publication(id: issue.publicationID) else {
            throw CommandFailure("\(issue.title) is not downloaded yet: run `newsstand download \(issue.name)` first")
        }
        let book = try IssueContent.openBook(folder: context.paths.folder(for: issue, of: publication))
        let indices: [Int]
        if let articleNumber {
            guard articleNumber <= book.articles.count else {
                throw CommandFailure("\(issue.title) has \(book.articles.count) articles; there is no article \(articleNumber)")
            }
            indices = [articleNumber - 1]
        } else {
            indices = Array(book.articles.indices)
        }
        let styled = !plain && isatty(STDOUT_FILENO) == 1 && (ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty
        let columns = width ?? (isatty(STDOUT_FILENO) == 1 ? min(ArticleLayout.defaultMeasure, TerminalWidth.current() - 2) : ArticleLayout.defaultMeasure)
        var output = ""
        for (position, index) in indices.enumerated() {
            let article = book.articles[index]
            guard let data = FileManager.default.contents(atPath: article.file.path) else {
                throw CommandFailure("the file \(article.file.lastPathComponent) is missing from \(issue.title)")
            }
            if position > 0 { output += "\n\n" }
            let layout = ArticleLayout(blocks: XHTMLDocumentParser.blocks(from: data, baseURL: article.file), width: columns + 2, maximumMeasure: columns)
            for line in layout.lines {
                let text = String(repeating: " ", count: line.indent) + line.text
                output += (styled && line.element == .heading ? "\u{1B}[1m\(text)\u{1B}[0m" : text) + "\n"
            }
        }
        try? context.store.markOpened(issueID: issue.id)
        FileHandle.standardOutput.write(Data(output.utf8))
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
