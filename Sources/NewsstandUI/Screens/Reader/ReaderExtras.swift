import Foundation
import NewsstandContent
import NewsstandCore
import NewsstandImaging

/// A picture of an article to be drawn as text art: which file, at what size and in what mode.
/// Art is cached by the whole request, so a width or mode change asks again.
public struct PictureRequest: Hashable, Sendable {
    public let issueID: Int64
    /// The image file; only files inside the issue's folder are drawn.
    public let source: URL
    public let columns: Int
    public let rows: Int
    public let mode: CoverArtMode
    public let background: TerminalBackground
    /// The cell size in pixels when the picture is shown as a terminal picture; nil for text art.
    public let cellPixels: CellPixelSize?

    public init(issueID: Int64, source: URL, columns: Int, rows: Int, mode: CoverArtMode = .ascii, background: TerminalBackground = .dark,
                cellPixels: CellPixelSize? = nil) {
        self.cellPixels = cellPixels
        self.issueID = issueID
        self.source = source
        self.columns = columns
        self.rows = rows
        self.mode = mode
        self.background = background
    }
}

/// A place in an issue where the searched text occurs: an article's block.
public struct IssueMatch: Hashable, Sendable, Comparable {
    public let articleIndex: Int
    public let blockIndex: Int

    public init(articleIndex: Int, blockIndex: Int) {
        self.articleIndex = articleIndex
        self.blockIndex = blockIndex
    }

    public static func < (lhs: IssueMatch, rhs: IssueMatch) -> Bool {
        (lhs.articleIndex, lhs.blockIndex) < (rhs.articleIndex, rhs.blockIndex)
    }
}

/// A search within the open issue: the text, and (once found) where it occurs.
public struct IssueSearch: Equatable, Sendable {
    public var query: String
    /// Blocks containing the text, in reading order; nil while the search runs.
    public var matches: [IssueMatch]?
    /// Go to the first match when the results arrive (a search typed in the reader; not one opened from the results screen).
    public var jumpsToFirstMatch: Bool

    public init(query: String, matches: [IssueMatch]? = nil, jumpsToFirstMatch: Bool = true) {
        self.query = query
        self.matches = matches
        self.jumpsToFirstMatch = jumpsToFirstMatch
    }
}

/// A row of the table of contents: an entry of the publication's nested contents.
public struct ContentsRow: Equatable, Sendable {
    public let title: String
    public let depth: Int
    /// The article it opens (nil for a heading that points nowhere in the issue).
    public let articleIndex: Int?

    public init(title: String, depth: Int, articleIndex: Int?) {
        self.title = title
        self.depth = depth
        self.articleIndex = articleIndex
    }

    /// The book's nested contents, flattened depth first; one row per article when it has none.
    public static func rows(for book: EPUBBook?) -> [ContentsRow] {
        guard let book else { return [] }
        var rows: [ContentsRow] = []
        func visit(_ entries: [EPUBTableOfContentsEntry], depth: Int) {
            for entry in entries {
                rows.append(ContentsRow(title: entry.title, depth: depth, articleIndex: book.articleIndex(for: entry)))
                visit(entry.children, depth: depth + 1)
            }
        }
        visit(book.tableOfContents, depth: 0)
        if !rows.contains(where: { $0.articleIndex != nil }) {
            rows = book.articles.enumerated().map { ContentsRow(title: $0.element.title, depth: 0, articleIndex: $0.offset) }
        }
        return rows
    }
}

/// A PDF page drawn as a picture (`P`).
public struct PagePicture: Equatable, Sendable {
    public let articleIndex: Int
    public let art: TextArt
}
