import Foundation
import NewsstandContent
import NewsstandCore
import NewsstandImaging

/// Something that happened, delivered to the UI loop: a key, a resize, or a report from background work.
public enum Message: Sendable {
    case keyPressed(Key)
    case resized(width: Int, height: Int)
    /// The library at a glance (publications, counts, the issue being read, unfinished downloads), read again after every change.
    case libraryLoaded(LibraryOverview)
    /// A window of a shelf's issues, read as an `IssueWindowRequest` asked; `selecting` is that request's.
    case issuesLoaded(IssueWindow, selecting: Int64?)
    /// Issues looked up by id (to name downloads whose issues no window holds).
    case issuesLookedUp([Issue])
    /// The library's downloads left downloading, paused or failed (for the downloads model).
    case unfinishedDownloadsLoaded([Issue])
    case headlinesLoaded(publicationID: Int64, Result<[Headline], ReaderFailure>)
    /// A feed article's web picture was fetched and drawn, or could not be.
    case webPictureRendered(PictureRequest, Result<TextArt, ReaderFailure>)
    /// A title from a catalog went into the Library shelf and its download was queued (its title), or could not.
    case titleAcquired(Result<String, ReaderFailure>)
    /// A headline's article was read (its blocks), or could not be.
    case headlineArticleLoaded(publicationID: Int64, index: Int, Result<[TextBlock], ReaderFailure>)
    /// What the library knows of an opened headline's whole article (sent after `headlineArticleLoaded`).
    case headlineFullTextLoaded(publicationID: Int64, index: Int, HeadlineFullText)
    /// A headline's page was fetched and its article extracted and kept (`readerable` false: it has none), or it
    /// could not be fetched (why, in plain words).
    case headlineArticleFetched(publicationID: Int64, index: Int, link: URL, Result<StoredHeadlineArticle, ReaderFailure>)
    /// The links of a publication's headlines whose whole article is kept (sent after `headlinesLoaded`).
    case wholeArticlesListed(publicationID: Int64, Set<URL>)
    /// A catalog refresh finished (successfully or not); the library is reloaded after it.
    case publicationsRefreshed([PublicationRefresher.Outcome])
    case downloadReported(DownloadEvent)
    case coverReported(CoverArtEvent)
    case issueOpened(issueID: Int64, Result<EPUBBook, ReaderFailure>, resumeAt: ReadingPosition?)
    case articleLoaded(issueID: Int64, articleIndex: Int, Result<[TextBlock], ReaderFailure>)
    /// A subscription was added (its title) or could not be (why).
    case subscriptionAdded(Result<String, ReaderFailure>)
    /// A web feed to subscribe to while there are several accounts: which one (or none) is for the user to say.
    case subscriptionAccountNeeded(url: String, accounts: [Account])
    case storageMeasured(StorageReport)
    /// The accounts, read for the accounts screen.
    case accountsLoaded([AccountSummary])
    case feedLoaded(URL, Result<Feed, ReaderFailure>)
    /// The page at the URL, asked for to continue a catalog page being browsed.
    case catalogPageLoaded(URL, Result<Feed, ReaderFailure>)
    /// A streamed page was fetched and drawn, or could not be.
    case streamedPageFetched(StreamedPageRequest, Result<TextArt, ReaderFailure>)
    /// A streamed page was not fetched: the reader had moved on, or to another size, before its turn came.
    case streamedPageSkipped(StreamedPageRequest)
    /// Background work that has only something to say (an OPML import or export).
    case reported(StatusMessage)
    case pictureRendered(PictureRequest, Result<TextArt, ReaderFailure>)
    case issueSearched(issueID: Int64, query: String, Result<[IssueMatch], ReaderFailure>)
    case pageRendered(issueID: Int64, articleIndex: Int, Result<TextArt, ReaderFailure>)
    /// A link could not be opened: its program (the browser, the player, xdg-open) is missing or failed; in plain words.
    case linkOpened(URL, failure: String?)
    case librarySearched(query: String, Result<[SearchHit], ReaderFailure>)
    /// A second has passed (sent while a countdown is shown, see `DownloadsState.hasCountdown`).
    case clockTicked
    /// A server answered 401 to `retry`'s work and no saved login served: asks for one (user, then password,
    /// then whether to save it), then emits `.saveLogin` and `retry`. `host` is `CredentialHost` text
    /// (`example.com`, `example.com:8080`, `[::1]:8080`); `realm` is the challenge's, when it named one.
    case loginRequired(host: String, realm: String?, retry: Effect)
    /// The progress sync server holds a place in an open issue from another device (see `ProgressSyncOffer`).
    case progressSyncOffered(ProgressSyncOffer)
    /// An issue's bookmarks and highlights, read after it opened or after one changed.
    case marksLoaded(issueID: Int64, Result<IssueMarks, ReaderFailure>)
}

/// Why an issue or article could not be shown, in plain words.
public struct ReaderFailure: Error, Equatable, Sendable {
    public let reason: String
    public init(_ reason: String) { self.reason = reason }
}
