import Foundation

/// The article of a web page: what a reader view shows instead of the page (`ArticleExtractor`).
///
/// Every field is sanitised text. `readerable` says whether the page has an article at all: a
/// link farm or a front page has none, and then `blocks` is whatever little was found.
public struct ExtractedArticle: Sendable, Equatable {
    public var title: String?
    public var byline: String?
    /// A sentence or two about the article: the page's description, else its first paragraph.
    public var excerpt: String?
    /// When it was published, as the page gives it (usually ISO 8601).
    public var published: String?
    public var siteName: String?
    /// The page's language (`lang`), e.g. "en", "fa-IR".
    public var lang: String?
    /// The text direction: "rtl", "ltr" or nil when the page does not say.
    public var dir: String?
    public var readerable: Bool
    /// The picture that stands for the article (`og:image`, JSON-LD, else the article's first picture).
    public var leadImage: URL?
    /// The body as the reader's blocks; links numbered, relative URLs resolved against the page.
    public var blocks: [TextBlock]

    public init(title: String? = nil, byline: String? = nil, excerpt: String? = nil, published: String? = nil,
                siteName: String? = nil, lang: String? = nil, dir: String? = nil, readerable: Bool = false,
                leadImage: URL? = nil, blocks: [TextBlock] = []) {
        self.title = title
        self.byline = byline
        self.excerpt = excerpt
        self.published = published
        self.siteName = siteName
        self.lang = lang
        self.dir = dir
        self.readerable = readerable
        self.leadImage = leadImage
        self.blocks = blocks
    }

    /// The body as plain text: each block a paragraph, paragraphs separated by blank lines; link
    /// numbers and pictures left out.
    public var text: String {
        blocks.compactMap(Self.plainText).filter { !$0.isEmpty }.joined(separator: "\n\n")
    }

    /// How many words the body holds.
    public var wordCount: Int {
        var count = 0
        for block in blocks {
            guard let text = Self.plainText(block) else { continue }
            count += text.split(whereSeparator: { $0.isWhitespace }).count
        }
        return count
    }

    private static func plainText(_ block: TextBlock) -> String? {
        switch block {
        case .heading(_, let text), .paragraph(let text), .listItem(_, _, let text), .quote(let text), .caption(let text),
             .footnote(_, let text):
            return withoutLinkNumbers(text)
        case .preformatted(let text): return text
        case .table(let table):
            return table.rows.map { $0.map { withoutPictureMarks(withoutLinkNumbers($0)) }.joined(separator: " ") }.joined(separator: "\n")
        case .image, .rule: return nil
        }
    }

    /// A table cell's text without the `[picture]` and `[picture: ALT]` marks set for its pictures
    /// (pictures are not text).
    static func withoutPictureMarks(_ text: String) -> String {
        guard text.contains("[picture") else { return text }
        var result = ""
        var rest = text[...]
        while let start = rest.range(of: "[picture") {
            let after = rest[start.upperBound...]
            guard after.hasPrefix("]") || after.hasPrefix(": "), let end = after.firstIndex(of: "]") else {
                result += rest[..<start.upperBound]
                rest = after
                continue
            }
            result += rest[..<start.lowerBound]
            rest = after[after.index(after: end)...]
        }
        result += rest
        return result
    }

    /// The text without the `[N]` marks that follow links.
    public static func withoutLinkNumbers(_ text: StyledText) -> String {
        var result = ""
        for run in text.runs {
            if let link = run.link, run.text.hasSuffix("[\(link.number)]") {
                result += run.text.dropLast("[\(link.number)]".count)
            } else {
                result += run.text
            }
        }
        return result
    }
}

/// How much of a page the extractor reads: bytes, nesting and elements.
public struct ArticleLimits: Sendable, Equatable {
    /// The most bytes of a page read (fetched pages stop arriving here; longer files are refused).
    public var maxPageBytes: Int
    /// Deeper elements are flattened into the one at this depth (their text kept).
    public var maxDepth: Int
    /// Nodes (elements and text) past this many are left out.
    public var maxNodes: Int

    public init(maxPageBytes: Int = 32 << 20, maxDepth: Int = 400, maxNodes: Int = 1_000_000) {
        self.maxPageBytes = maxPageBytes
        self.maxDepth = maxDepth
        self.maxNodes = maxNodes
    }

    /// 32 MB, 400 levels, a million nodes.
    public static let `default` = ArticleLimits()
}
