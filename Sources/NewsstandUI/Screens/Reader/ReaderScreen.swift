import NewsstandContent
import NewsstandCore
import NewsstandImaging

/// The reader: an open issue's book, its contents or the article on screen, and where the reader is in it.
public struct ReaderScreen: Equatable, Sendable {
    public let issueID: Int64
    public var book: EPUBBook? {
        didSet { contents = ContentsRow.rows(for: book) }
    }
    /// The book's nested table of contents, as rows.
    public private(set) var contents: [ContentsRow] = []
    public var failure: String?
    /// The table of contents' cursor (over the rows of `contents`).
    public var contentsCursor = ListCursor()
    /// An article is shown (else the table of contents).
    public var isShowingArticle = false
    public var articleIndex = 0
    /// The article shown: its blocks, layout, scroll and pictures.
    public var view: ArticleView
    /// Where to land once the article's blocks arrive (restoring a saved position).
    public var pendingPosition: ReadingPosition?

    /// Where to open the issue instead of the saved position (a search result).
    public var openAt: ReadingPosition?
    /// The search in this issue, highlighted in the article.
    public var search: IssueSearch?
    /// The line of the current match in the article shown (for `n` / `N`).
    public var matchLine: Int?
    /// Where to land once the article arrives after `n` / `N`: its first match (true) or last (false).
    public var pendingMatchIsFirst: Bool?
    /// The page shown as a picture — a PDF page after `P`, a comic book's page always — and its art once drawn.
    public var showsPagePicture = false
    public var pagePicture: PagePicture?
    /// Why the comic book page shown could not be drawn (said in place of the picture).
    public var pageFailure: String?
    /// The issue's bookmarks and highlights; nil until they are read.
    public var marks: IssueMarks?
    /// A passage being chosen to highlight (`v`); the screen is then `.selection`.
    public var selection: PassageSelection?

    public init(issueID: Int64) {
        self.issueID = issueID
        view = ArticleView(issueID: issueID)
    }

    /// The first contents row that opens `article` (else the last row before it).
    public func contentsRow(forArticle article: Int) -> Int {
        if let row = contents.firstIndex(where: { $0.articleIndex == article }) { return row }
        return contents.lastIndex(where: { ($0.articleIndex ?? -1) < article && $0.articleIndex != nil }) ?? 0
    }

    /// The width-independent position of the line at the top.
    public var position: ReadingPosition {
        view.position(articleIndex: articleIndex)
    }
}
