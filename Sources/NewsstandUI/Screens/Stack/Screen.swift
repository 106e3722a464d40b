import Foundation
import NewsstandCore

/// A screen on the interface's stack, carrying its own state: a screen cannot be shown without it,
/// and going back pops the top one, restoring exactly what was under it.
public enum Screen: Equatable, Sendable {
    /// A publication's issues (its state, shared with the issue page, is `AppState.shelf`).
    case shelf
    /// The selected issue's page: its cover large, with its details.
    case detail
    /// An open issue: its table of contents, or an article.
    case reader(ReaderState)
    case help(HelpScreen)
    case subscriptions(ListCursor)
    case headlines(HeadlinesState)
    /// A headline read as an article (keys as in an issue's article).
    case feedArticle(FeedArticleState)
    case storage(StorageScreen)
    /// Accounts on feed servers, to add and remove.
    case accounts(AccountsState)
    case catalog(CatalogBrowser)
    /// The acquisition links of one catalog entry, to download one into the Library shelf.
    case acquisitions(AcquisitionChoice)
    /// A catalog entry's pages streamed one at a time (OPDS-PSE), nothing downloaded.
    case streamedPages(PageStreamViewer)
    case searchResults(LibrarySearch)
    case downloads(DownloadsCursor)
    /// The open issue's bookmarks or highlights (the reader under it has them).
    case marks(MarksList)

    /// What kind of screen this is, for the key table and hints.
    public var kind: ScreenKind {
        switch self {
        case .shelf: .shelf
        case .detail: .detail
        case .reader(let reader): reader.isShowingArticle ? (reader.selection != nil ? .selection : .article) : .contents
        case .help(let screen): screen.kind
        case .subscriptions: .subscriptions
        case .headlines: .headlines
        case .feedArticle: .article
        case .storage(let screen): screen.kind
        case .accounts: .accounts
        case .catalog: .catalog
        case .acquisitions: .acquisitions
        case .streamedPages: .streamedPages
        case .searchResults: .searchResults
        case .downloads: .downloads
        case .marks(let list): list.showsHighlights ? .highlights : .bookmarks
        }
    }

    var readerState: ReaderState? {
        if case .reader(let reader) = self { return reader }
        return nil
    }
}

/// The headlines screen's state: whose headlines, the list once loaded, and the cursor.
public struct HeadlinesState: Equatable, Sendable {
    public let publicationID: Int64
    public let title: String
    /// nil while they load.
    public var headlines: [Headline]?
    public var cursor = ListCursor()
    /// The links whose whole article is kept (they open offline), read after the list.
    public var wholeArticles: Set<URL> = []

    public init(publicationID: Int64, title: String, headlines: [Headline]? = nil) {
        self.publicationID = publicationID
        self.title = title
        self.headlines = headlines
    }

    /// Changes the listed headline known by `key` (a mark shown at once; the library is changed in the background).
    mutating func update(_ key: String, _ change: (inout Headline) -> Void) {
        guard let index = headlines?.firstIndex(where: { $0.key == key }) else { return }
        change(&headlines![index])
    }
}

/// The downloads screen's cursor: the selection follows its download when rows move.
public struct DownloadsCursor: Equatable, Sendable {
    public var selectedIssueID: Int64?
    public var cursor = ListCursor()

    public init(selectedIssueID: Int64? = nil) {
        self.selectedIssueID = selectedIssueID
    }
}
