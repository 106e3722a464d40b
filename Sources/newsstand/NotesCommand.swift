import Foundation
import NewsstandContent
import NewsstandCore
import NewsstandRuntime
import NewsstandUI

/// `newsstand notes ISSUE|--all [--format markdown|json]`: an issue's highlights and notes (every issue's with
/// `--all`) with their articles and places, as Markdown or JSON. A downloaded issue's highlights are checked
/// against its text first, as the reader does; a passage found nowhere is printed as no longer found.
enum NotesCommand {
    /// The formats of this command's own (the exchange formats are `AnnotationExchange.Format`).
    enum Format: String, CaseIterable {
        case markdown
        case json
    }

    /// Everything `--format` takes: this command's own formats, then the exchange formats.
    static var formatNames: [String] { Format.allCases.map(\.rawValue) + AnnotationExchange.Format.allCases.map(\.rawValue) }

    /// One highlight as an object of `--format json`.
    struct Note: Encodable {
        /// Counted from 1, as `read --article` takes it.
        let article: Int
        let articleTitle: String
        /// The block the passage starts in (§, counted from 1), and how far through the article it starts (nil when the issue is not downloaded).
        let section: Int
        let percent: Int?
        let start: Place
        let end: Place
        let text: String
        let note: String
        let found: Bool
        let created: String

        enum CodingKeys: String, CodingKey {
            case article, articleTitle = "article_title", section, percent, start, end, text, note, found, created
        }
    }

    /// A width-independent place: a block (from 0) and the characters before it in the block other than white space.
    struct Place: Encodable {
        let block: Int
        let offset: Int
    }

    struct IssueNotes: Encodable {
        let issue: String
        let title: String
        let publication: String
        let highlights: [Note]
    }

    static func run(_ arguments: inout ArgumentList) throws {
        let all = arguments.flag("--all")
        let importing = arguments.option("--import")
        let format = arguments.option("--format") ?? Format.markdown.rawValue
        let exchange = AnnotationExchange.Format(rawValue: format)
        guard formatNames.contains(format) else {
            throw UsageError("--format is markdown, json, webannotation or koreader, not '\(format)'")
        }
        let reference = all ? nil : try arguments.positional("issue name (or --all)")
        try arguments.finish()
        let context = try LibraryContext.open()
        if let importing {
            guard let reference else { throw UsageError("--import FILE needs the issue to import into") }
            print(try NotesExchange.importFile(importing, into: try context.issue(reference), context))
            return
        }
        if let exchange {
            guard let reference else { throw UsageError("--format \(format) exports one issue: name it instead of --all") }
            FileHandle.standardOutput.write(try NotesExchange.export(try context.issue(reference), format: exchange, context))
            print()
            return
        }
        let issues = try reference.map { [try context.issue($0)] }
            ?? context.store.issuesWithHighlights().compactMap { try context.store.issue(id: $0) }
        let exported = try issues.map { try notes(of: $0, context) }
        if format == Format.json.rawValue {
            try JSONOutput.print(["issues": exported])
            return
        }
        if exported.isEmpty { print("No highlights or notes in the library: `v` in an article chooses a passage to highlight.") }
        FileHandle.standardOutput.write(Data(exported.map(markdown).joined(separator: "\n").utf8))
    }

    /// An issue's highlights, checked against its text when it is downloaded.
    static func notes(of issue: Issue, _ context: LibraryContext) throws -> IssueNotes {
        let publication = try context.store.publication(id: issue.publicationID)
        var book: EPUBBook?
        if issue.state == .available, let publication {
            book = try? IssueContent.openBook(folder: context.paths.folder(for: issue, of: publication))
            if let book { try HighlightRecheck.run(issueID: issue.id, book: book, store: context.store) }
        }
        var passages: [Int: ArticlePassages] = [:]
        let formatter = ISO8601DateFormatter()
        let notes = try context.store.highlights(issueID: issue.id).map { highlight -> Note in
            var percent: Int?
            if let book, !highlight.isLost, book.articles.indices.contains(highlight.articleIndex) {
                let index = highlight.articleIndex
                if passages[index] == nil, let blocks = try? IssueContent.blocks(of: book, article: index) {
                    passages[index] = HighlightAnchoring.passages(of: blocks, articleIndex: index)
                }
                if let words = passages[index]?.words, !words.isEmpty {
                    percent = (words.firstIndex { $0.start >= highlight.start } ?? words.count) * 100 / words.count
                }
            }
            return Note(article: highlight.articleIndex + 1, articleTitle: highlight.articleTitle, section: highlight.start.blockIndex + 1,
                        percent: percent, start: Place(block: highlight.start.blockIndex, offset: highlight.start.characterOffset),
                        end: Place(block: highlight.end.blockIndex, offset: highlight.end.characterOffset),
                        text: highlight.text, note: highlight.note, found: !highlight.isLost, created: formatter.string(from: highlight.created))
        }
        return IssueNotes(issue: try context.reference(to: issue), title: issue.title, publication: publication?.title ?? "", highlights: notes)
    }

    /// "# Title", then per article a "## N. Title" and its passages quoted, each with its note and place.
    static func markdown(_ issue: IssueNotes) -> String {
        var text = "# \(issue.title)\n\n\(issue.publication) — `\(issue.issue)`\n"
        if issue.highlights.isEmpty { text += "\nNo highlights or notes yet.\n" }
        var article: (Int, String)?
        for note in issue.highlights {
            if article.map({ $0 != (note.article, note.articleTitle) }) ?? true {
                article = (note.article, note.articleTitle)
                text += "\n## \(note.article). \(note.articleTitle)\n"
            }
            text += "\n> \(note.text)\n"
            if !note.note.isEmpty { text += "\nNote: \(note.note)\n" }
            let place = "article \(note.article), § \(note.section)" + (note.percent.map { ", \($0)%" } ?? "")
            text += note.found ? "\n*\(place)*\n" : "\n*passage no longer found (was at \(place))*\n"
        }
        return text
    }
}
