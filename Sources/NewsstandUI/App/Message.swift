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
    /// A window read before the interface asked for it (at start, the shown shelf's, read right after the overview):
    /// taken as `issuesLoaded` only when the shelf's outstanding request is this one, else dropped.
    case issuesReadAhead(IssueWindowRequest, IssueWindow)
    /// Issues looked up by id (to name downloads whose issues no window holds).
    case issuesLookedUp([Issue])
    /// The library's downloads left downloading, paused or failed (for the downloads model).
    case unfinishedDownloadsLoaded([Issue])
    case headlinesLoaded(publicationID: Int64, Result<[Headline], ReaderFailure>)
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
    /// Background work that has only something to say, already in words.
    case reported(StatusMessage)
    /// What background work did or could not do, as a fact; the words are written here (`RuntimeReport.statusMessage`).
    case happened(RuntimeReport)
    /// A picture of an article was drawn (an issue's from its files, a feed article's fetched from the web), or could
    /// not be; the article view that asked for it keeps it (`ArticleView.pictures`).
    case articlePictureRendered(PictureRequest, Result<TextArt, ReaderFailure>)
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

/// What the runtime did, or could not do and why, for the status line: the runtime says what happened, the
/// interface says it in words (`statusMessage`). `reason` is the error as the runtime described it.
public enum RuntimeReport: Equatable, Sendable {
    // Downloads
    case titleRemoved(title: String)
    case titleNotRemoved(title: String, reason: String)
    case downloadDeleted(title: String)
    case downloadNotDeleted(reason: String)
    // Reading
    case issueNotMarked(read: Bool, reason: String)
    case issueStarred(title: String, starred: Bool)
    case issueNotStarred(reason: String)
    case headlineNotMarked(read: Bool, reason: String)
    case headlineNotStarred(reason: String)
    // Subscriptions, catalogs and logins
    case storageLimitsEnforced(removed: Int)
    case notUnsubscribedOnServer(reason: String)
    case notRenamedOnServer(reason: String)
    case feedSwitched(publication: String, feed: String, issues: Int)
    case feedNotSwitched(publication: String, feed: String, reason: String)
    case loginNotKept(host: String)
    case loginUsedForSession(user: String, host: String)
    case loginSaved(user: String, host: String)
    case loginNotSaved(user: String, host: String, reason: String)
    // Accounts
    case notAnAccountAddress(String)
    case accountAdded(user: String, subscriptions: Int, problem: String?)
    case accountNotAdded(reason: String)
    case accountRemoved(user: String)
    case accountNotRemoved(reason: String)
    // Progress sync
    case progressSyncLoginRefused(user: String, reason: String)
    case progressSyncLoginNotSaved(user: String, reason: String)
    case progressSyncLoggedIn(user: String, saved: Bool)
    case progressSyncWorksAgain
    /// The server did not answer; `detail` says how.
    case progressSyncUnavailable(detail: String)
    case progressSyncFailed(reason: String)
    // Files and hooks
    case opmlImported(summary: String, failures: [String])
    case opmlNotImported(file: String, reason: String)
    case opmlExported(path: String)
    case opmlNotExported(path: String, reason: String)
    /// A program the config file names (`notify-program`) failed; what it said, in plain words.
    case hookFailed(String)

    /// The sentence on the status line.
    public var statusMessage: StatusMessage {
        switch self {
        case .titleRemoved(let title): StatusMessage("\(title) was removed from the Library shelf.")
        case .titleNotRemoved(let title, let reason): StatusMessage("Cannot remove \(title): \(reason)", isError: true)
        case .downloadDeleted(let title): StatusMessage("The file of “\(title)” was deleted; it stays on the shelf to download again.")
        case .downloadNotDeleted(let reason): StatusMessage("Cannot delete the download: \(reason)", isError: true)
        case .issueNotMarked(let read, let reason): StatusMessage("Cannot mark the issue \(read ? "read" : "unread"): \(reason)", isError: true)
        case .issueStarred(let title, true): StatusMessage("Starred “\(title)”: it is kept whatever the storage budget.")
        case .issueStarred(let title, false): StatusMessage("Unstarred “\(title)”.")
        case .issueNotStarred(let reason): StatusMessage("Cannot star the issue: \(reason)", isError: true)
        case .headlineNotMarked(let read, let reason): StatusMessage("Cannot mark the headline \(read ? "read" : "unread"): \(reason)", isError: true)
        case .headlineNotStarred(let reason): StatusMessage("Cannot star the headline: \(reason)", isError: true)
        case .storageLimitsEnforced(let removed): StatusMessage("Removed \(removed) issue\(removed == 1 ? "" : "s").")
        case .notUnsubscribedOnServer(let reason):
            StatusMessage("Cannot unsubscribe on the account's server: \(reason); nothing was changed.", isError: true)
        case .notRenamedOnServer(let reason): StatusMessage("Cannot rename on the account's server: \(reason); nothing was changed.", isError: true)
        case .feedSwitched(let publication, let feed, let issues):
            StatusMessage("\(publication) now reads \(feed): \(issues) issue\(issues == 1 ? "" : "s").")
        case .feedNotSwitched(let publication, let feed, let reason):
            StatusMessage("\(publication) still reads its feed: \(feed) could not be read: \(reason)", isError: true)
        case .loginNotKept(let host): StatusMessage("The login was not kept: '\(host)' is not a host.", isError: true)
        case .loginUsedForSession(let user, let host): StatusMessage("Using the login for \(user) at \(host) until Newsstand quits.")
        case .loginSaved(let user, let host): StatusMessage("Saved the login for \(user) at \(host).")
        case .loginNotSaved(let user, let host, let reason):
            StatusMessage("The login for \(user) at \(host) is used until Newsstand quits but was not saved: \(reason)", isError: true)
        case .notAnAccountAddress(let address):
            StatusMessage("'\(TextSanitizer.singleLine(address))' is not the http or https address of a feed server's API.", isError: true)
        case .accountAdded(let user, let count, let problem):
            StatusMessage("Added the account \(user): \(count) subscription\(count == 1 ? "" : "s")" + (problem.map { " (\($0))" } ?? "") + ".")
        case .accountNotAdded(let reason): StatusMessage("Cannot add the account: \(reason).", isError: true)
        case .accountRemoved(let user): StatusMessage("Removed the account \(user); its subscriptions stay as feeds of your own.")
        case .accountNotRemoved(let reason): StatusMessage("Cannot remove the account: \(reason)", isError: true)
        case .progressSyncLoginRefused(let user, let reason): StatusMessage("Progress sync did not log in as \(user): \(reason)", isError: true)
        case .progressSyncLoginNotSaved(let user, let reason):
            StatusMessage("Progress sync uses the login for \(user) until Newsstand quits; it was not saved: \(reason)", isError: true)
        case .progressSyncLoggedIn(let user, true): StatusMessage("Progress sync: saved the login for \(user); your places are sent.")
        case .progressSyncLoggedIn(let user, false): StatusMessage("Progress sync: using the login for \(user) until Newsstand quits.")
        case .progressSyncWorksAgain: StatusMessage("Progress sync works again; your place was sent.")
        // Short enough for the status line: what happened, and that nothing is lost.
        case .progressSyncUnavailable(let detail):
            StatusMessage("Progress sync: the server is not answering (\(detail)); your place is kept and sent later", isError: true)
        case .progressSyncFailed(let reason): StatusMessage("Progress sync: \(reason)", isError: true)
        case .opmlImported(let summary, let failures):
            failures.isEmpty ? StatusMessage(summary) : StatusMessage(summary + " Not added: " + failures.joined(separator: "; "), isError: true)
        case .opmlNotImported(let file, let reason): StatusMessage("\(file): \(reason)", isError: true)
        case .opmlExported(let path): StatusMessage("Subscriptions written to \(path).")
        case .opmlNotExported(let path, let reason): StatusMessage("Cannot write \(path): \(reason)", isError: true)
        case .hookFailed(let failure): StatusMessage(failure, isError: true)
        }
    }
}
