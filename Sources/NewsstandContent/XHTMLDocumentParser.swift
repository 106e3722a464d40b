import Foundation

/// Turns an XHTML or HTML document into `TextBlock`s for reading in a terminal.
public enum XHTMLDocumentParser {
    /// Turns an XHTML/HTML document into blocks: whitespace collapsed inside paragraphs, block
    /// elements (p, div, h1–h6, li, blockquote, pre, figure/figcaption, img, hr, br) mapped to
    /// blocks, script/style/head dropped, entities decoded. `baseURL` resolves image sources.
    ///
    /// Well-formed documents are read with XMLParser; anything else (unclosed tags, HTML-only
    /// entities such as `&nbsp;`, stray `<`) goes through a lenient tag-soup pass that still
    /// yields the text. Never throws and never returns less than the text it could find.
    public static func blocks(from data: Data, baseURL: URL?) -> [TextBlock] {
        blocks(from: documentTree(from: data), baseURL: baseURL)
    }

    /// The document as a tree: strict XML when it parses, tag soup otherwise.
    static func documentTree(from data: Data) -> MarkupElement {
        if case .success(let tree) = XMLTreeParser.parse(data: data), tree.firstDescendant(where: { $0.name != "#document" }) != nil {
            return tree
        }
        return TagSoupParser.parse(data: data)
    }

    static func blocks(from tree: MarkupElement, baseURL: URL?) -> [TextBlock] {
        var builder = TextBlockBuilder(baseURL: baseURL)
        builder.add(tree)
        builder.flush()
        return builder.blocks
    }
}
