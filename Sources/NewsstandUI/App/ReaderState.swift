import NewsstandContent
import NewsstandCore

/// The open issue: its book, the article on screen, and where the reader is in it.
public struct ReaderState: Equatable, Sendable {
    public let issueID: Int64
    public var book: EPUBBook?
    public var failure: String?
    /// Selected row in the table of contents.
    public var contentsSelection = 0
    public var articleIndex = 0
    public var blocks: [TextBlock]?
    /// The article laid out for the current width; rebuilt on resize.
    public var layout: ArticleLayout?
    /// First line shown.
    public var topLine = 0
    /// Where to land once the article's blocks arrive (restoring a saved position).
    public var pendingBlockIndex: Int?

    public init(issueID: Int64) {
        self.issueID = issueID
    }

    /// The width-independent position of the line at the top.
    public var position: ReadingPosition {
        ReadingPosition(articleIndex: articleIndex, blockIndex: layout?.blockIndex(atLine: topLine) ?? 0)
    }
}
