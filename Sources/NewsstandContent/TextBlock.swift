import Foundation

/// A block of article text, ready to be set by a front end.
///
/// Text is plain Unicode with whitespace already collapsed, except in `preformatted`, which is
/// verbatim. A `<br>` inside a paragraph, heading, list item or quote becomes a `"\n"` in its
/// text. No-break spaces (U+00A0) are kept as they are.
public enum TextBlock: Sendable, Equatable {
    /// `h1`…`h6`; `level` is 1…6.
    case heading(level: Int, text: String)
    case paragraph(String)
    /// A list item; `depth` is 0 for a top-level list, 1 for a list nested inside it, and so on.
    /// `marker` is "•" for unordered lists, "1.", "2."… (or "a.", "iv.") for ordered ones, and
    /// "" for further paragraphs of the same item.
    case listItem(depth: Int, marker: String, text: String)
    /// A paragraph inside a blockquote.
    case quote(String)
    /// Text from `<pre>`, with its line breaks and spacing kept.
    case preformatted(String)
    /// An image; `source` is resolved against the document's base URL (nil when missing or unresolvable).
    case image(source: URL?, alt: String)
    /// A thematic break (`<hr>`).
    case rule
}
