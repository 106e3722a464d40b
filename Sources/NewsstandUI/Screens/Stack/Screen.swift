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
    case reader(ReaderScreen)
    case help(HelpScreen)
    case subscriptions(SubscriptionsScreen)
    case headlines(HeadlinesScreen)
    /// A headline read as an article (keys as in an issue's article).
    case feedArticle(FeedArticleScreen)
    case storage(StorageScreen)
    /// Accounts on feed servers, to add and remove.
    case accounts(AccountsScreen)
    case catalog(CatalogScreen)
    /// The acquisition links of one catalog entry, to download one into the Library shelf.
    case acquisitions(AcquisitionScreen)
    /// A catalog entry's pages streamed one at a time (OPDS-PSE), nothing downloaded.
    case streamedPages(PageStreamScreen)
    case searchResults(SearchResultsScreen)
    case downloads(DownloadsScreen)
    /// The open issue's bookmarks or highlights, over its reader.
    case marks(MarksScreen)

    /// What kind of screen this is, for the key table and hints.
    public var kind: ScreenKind { model.kind }

    var readerScreen: ReaderScreen? {
        if case .reader(let reader) = self { return reader }
        return nil
    }
}
