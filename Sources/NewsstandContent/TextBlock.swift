import Foundation

/// A block of article text, ready to be set by a front end.
///
/// Text is sanitised (no control characters, escape sequences or bidi overrides) and, except in
/// `preformatted`, has its white space collapsed and carries inline styles as `StyledText`. A
/// `<br>` becomes a `"\n"` in the text. No-break spaces (U+00A0) are kept as they are.
public enum TextBlock: Sendable, Equatable {
    /// `h1`…`h6`; `level` is 1…6.
    case heading(level: Int, text: StyledText)
    case paragraph(StyledText)
    /// A list item; `depth` is 0 for a top-level list, 1 for a list nested inside it, and so on.
    /// `marker` is "•" for unordered lists, "1.", "2."… (or "a.", "iv.") for ordered ones, and
    /// "" for further paragraphs of the same item.
    case listItem(depth: Int, marker: String, text: StyledText)
    /// A paragraph inside a blockquote.
    case quote(StyledText)
    /// Text from `<pre>`, with its line breaks and spacing kept (tabs expanded to 4-column stops).
    case preformatted(String)
    /// An image; `source` is resolved against the document's base URL (nil when missing or unresolvable).
    case image(source: URL?, alt: String)
    /// A figure's caption (`figcaption`) or a table's (`caption`).
    case caption(StyledText)
    /// A table of rows and cells.
    case table(TextTable)
    /// A footnote's text. The builder puts these after every other block, numbered in order of
    /// their first reference (`StyledRun.footnote`); front ends collect them under "Notes".
    case footnote(number: Int, text: StyledText)
    /// A thematic break (`<hr>`).
    case rule
}

extension TextBlock {
    /// The block's text without styles (empty for rules and images).
    public var plainText: String {
        switch self {
        case .heading(_, let text), .paragraph(let text), .listItem(_, _, let text), .quote(let text), .caption(let text),
             .footnote(_, let text):
            return text.plainText
        case .preformatted(let text): return text
        case .image(_, let alt): return alt
        case .table(let table): return table.rows.map { $0.map(\.plainText).joined(separator: " ") }.joined(separator: "\n")
        case .rule: return ""
        }
    }
}
