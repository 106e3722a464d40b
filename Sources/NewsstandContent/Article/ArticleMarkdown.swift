import Foundation

/// An extracted article as Markdown: a title heading, the byline and source, then the blocks
/// (headings, paragraphs with inline styles and links, lists, quotes, code, tables, pictures).
public enum ArticleMarkdown {
    public static func render(_ article: ExtractedArticle, source: URL?) -> String {
        var parts: [String] = []
        if let title = article.title { parts.append("# " + escape(title)) }
        var about: [String] = []
        if let byline = article.byline { about.append(escape(byline)) }
        if let published = article.published { about.append(escape(published)) }
        if let source { about.append("<\(source.absoluteString)>") }
        if !about.isEmpty { parts.append("*" + about.joined(separator: " · ") + "*") }
        for block in article.blocks {
            switch block {
            case .heading(let level, let text): parts.append(String(repeating: "#", count: min(level + 1, 6)) + " " + inline(text))
            case .paragraph(let text): parts.append(inline(text))
            case .listItem(let depth, let marker, let text):
                let indent = String(repeating: "  ", count: depth)
                let bullet = marker.isEmpty ? "  " : (marker == "•" ? "-" : marker)
                parts.append(indent + bullet + " " + inline(text))
            case .quote(let text): parts.append("> " + inline(text))
            case .preformatted(let text): parts.append("```\n" + text.replacingOccurrences(of: "```", with: "ˋˋˋ") + "\n```")
            case .image(let source, let alt):
                parts.append(source.map { "![\(escape(alt))](\($0.absoluteString))" } ?? "")
            case .caption(let text): parts.append("*" + inline(text) + "*")
            case .table(let table):
                var lines: [String] = []
                for (index, row) in table.rows.enumerated() {
                    var cells = row.map { inline($0).replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ") }
                    while cells.count < table.columnCount { cells.append("") }
                    lines.append("| " + cells.joined(separator: " | ") + " |")
                    if index == 0 { lines.append("|" + String(repeating: " --- |", count: max(table.columnCount, 1))) }
                }
                parts.append(lines.joined(separator: "\n"))
            case .footnote(let number, let text): parts.append("[^\(number)]: " + inline(text))
            case .rule: parts.append("---")
            }
        }
        // List items of one list stay together; everything else is a paragraph.
        var text = ""
        var previousWasListItem = false
        var index = 0
        let headerCount = parts.count - article.blocks.count
        for part in parts {
            defer { index += 1 }
            if part.isEmpty { continue }
            let isListItem: Bool
            if index >= headerCount, case .listItem = article.blocks[index - headerCount] { isListItem = true } else { isListItem = false }
            if !text.isEmpty { text += isListItem && previousWasListItem ? "\n" : "\n\n" }
            text += part
            previousWasListItem = isListItem
        }
        return text + "\n"
    }

    /// Styled text as Markdown: bold, italic, code; links as `[text](url)`.
    static func inline(_ text: StyledText) -> String {
        var result = ""
        var openLink: TextLink?
        var linkText = ""
        func closeLink() {
            if let link = openLink { result += "[\(linkText)](\(link.url.absoluteString))" }
            openLink = nil
            linkText = ""
        }
        for run in text.runs {
            var body = run.text
            if let link = run.link, body.hasSuffix("[\(link.number)]") { body = String(body.dropLast("[\(link.number)]".count)) }
            var piece = escape(body)
            if run.style.contains(.code) { piece = "`" + body.replacingOccurrences(of: "`", with: "ˋ") + "`" }
            if run.style.contains(.bold), !piece.trimmingCharacters(in: .whitespaces).isEmpty { piece = "**" + piece + "**" }
            if run.style.contains(.italic), !piece.trimmingCharacters(in: .whitespaces).isEmpty { piece = "*" + piece + "*" }
            if let link = run.link {
                if openLink != link { closeLink(); openLink = link }
                linkText += piece
            } else {
                closeLink()
                result += piece
            }
        }
        closeLink()
        return result.replacingOccurrences(of: "\n", with: "  \n")
    }

    static func escape(_ text: String) -> String {
        var result = ""
        for character in text {
            if "\\*_[]`<>".contains(character) { result.append("\\") }
            result.append(character)
        }
        return result
    }
}
