import Foundation
import NewsstandContent
import NewsstandCore

/// An installed issue's text: an EPUB's articles, a PDF's pages, or a comic book's pages (each its
/// title and a `[picture: FILE]` line).
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
        case .epub(let book) where book.isComicBook:
            return try IssueContent.blocks(of: book, article: index)
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
