import Foundation

/// Turns an XHTML or HTML document into `TextBlock`s for reading in a terminal.
public enum XHTMLDocumentParser {
    /// Turns an XHTML/HTML document into blocks: whitespace collapsed inside paragraphs, block
    /// elements (p, div, h1–h6, li, blockquote, pre, figure/figcaption, table, img, hr, br) mapped
    /// to blocks, inline b/strong, i/em, u and code kept as `InlineStyle`s, links to other
    /// resources numbered, footnotes collected at the end as `.footnote` blocks, script/style/head
    /// dropped, entities decoded, and all text sanitised. `baseURL` resolves image sources and links.
    ///
    /// Well-formed documents are read as XML (`XMLTreeParser`); anything else (unclosed tags, HTML-only
    /// entities such as `&nbsp;`, stray `<`) goes through libxml2's HTML parser, whose recovery
    /// still yields the text. Never throws and never returns less than the text it could find.
    public static func blocks(from data: Data, baseURL: URL?) -> [TextBlock] {
        blocks(from: documentTree(from: data), baseURL: baseURL)
    }

    /// The document as a tree: strict XML when it parses, libxml2's HTML parser otherwise.
    static func documentTree(from data: Data) -> MarkupElement {
        if case .success(let tree) = XMLTreeParser.parse(data: data), tree.firstDescendant(where: { $0.name != "#document" }) != nil {
            return tree
        }
        return HTMLTreeParser.parse(data: data)
    }

    static func blocks(from tree: MarkupElement, baseURL: URL?) -> [TextBlock] {
        var builder = TextBlockBuilder(baseURL: baseURL)
        builder.addDocument(tree)
        return builder.blocks
    }
}
