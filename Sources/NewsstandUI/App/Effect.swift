import Foundation
import NewsstandCore
import NewsstandImaging

/// Work the UI asks for; an `EffectRunner` carries it out in the background and answers with messages.
/// Effects are plain data so tests can assert on them.
public enum Effect: Equatable, Sendable {
    /// Reads the library at a glance (answered by `.libraryLoaded`).
    case loadLibrary
    /// Reads a window of a shelf's issues by keyset paging (answered by `.issuesLoaded`).
    case loadIssues(IssueWindowRequest)
    /// Reads issues by id (answered by `.issuesLookedUp`).
    case lookUpIssues([Int64])
    /// Reads the downloads left unfinished (answered by `.unfinishedDownloadsLoaded`); after the first frame, as
    /// only the downloads model needs them.
    case loadUnfinishedDownloads
    /// Reads a publication's headlines (answered by `.headlinesLoaded`).
    case loadHeadlines(publicationID: Int64)
    /// Adds a catalog entry to the Library shelf with `link` as its file and queues its download (answered by `.titleAcquired`).
    case acquireTitle(CatalogEntry, AcquisitionLink)
    /// Removes a title and its file from the Library shelf (answered by `.happened` and the library read again).
    case removeTitle(issueID: Int64)
    /// Deletes an issue's downloaded files, keeping it on its shelf to download again (answered by `.happened` and the library read again).
    case deleteDownload(issueID: Int64)
    /// Marks an issue read or unread (the library is read again).
    case markRead(issueID: Int64, read: Bool)
    /// Reads the headline at `index` of a publication as an article (answered by `.headlineArticleLoaded`).
    case loadHeadlineArticle(publicationID: Int64, index: Int)
    /// Fetches the page `link` of the headline at `index` (a feed's item), extracts its article and keeps it with the
    /// headline (answered by `.headlineArticleFetched`).
    case fetchHeadlineArticle(publicationID: Int64, index: Int, link: URL)
    /// Sets a publication's own `full-text` (nil: the config's); the library is read again.
    case setFullText(publicationID: Int64, FullTextMode?)
    /// Reloads the library only if another process (a sync) changed it.
    case reloadLibraryIfChangedElsewhere
    case refreshPublications
    /// Queues an issue's download: a new one, a paused one (continuing from its partial) or a failed one (again).
    case download(issueID: Int64)
    case cancelDownload(issueID: Int64)
    case requestCovers([CoverArtRequest])
    case openIssue(issueID: Int64)
    case loadArticle(issueID: Int64, articleIndex: Int)
    case saveReadingPosition(issueID: Int64, ReadingPosition)
    /// Remembers a small preference in the library (like the shelf's view).
    case saveSetting(key: String, value: String)
    /// Finishes the work that must not be lost (the reading position being saved) and ends the program.
    case quit
    /// Fetches and checks a feed, then subscribes to it (answered by `.subscriptionAdded`): on the account `on` says;
    /// when it says nothing and there are several accounts, the runner asks which (`.subscriptionAccountNeeded`).
    case subscribe(url: String, on: SubscriptionDestination = .unchosen)
    case unsubscribe(publicationID: Int64, keepDownloads: Bool)
    case renamePublication(publicationID: Int64, title: String)
    case refreshPublication(publicationID: Int64)
    case setPolicy(publicationID: Int64, autoDownload: AutoDownloadPolicy, keepNewest: Int?)
    /// Measures the space issues take (answered by `.storageMeasured`).
    case measureStorage
    /// Reads the accounts (answered by `.accountsLoaded`).
    case loadAccounts
    /// Logs in to a feed server's API and adds the account, then syncs it (answered by `.happened`, then `.accountsLoaded`).
    /// The password goes to the server only; `Credentials` never prints it.
    case addAccount(url: String, credentials: Credentials)
    /// Removes an account and forgets its session; its publications stay, as feeds of one's own.
    case removeAccount(url: String)
    /// Stars an issue that is not starred, or unstars it (on its account's server too).
    case toggleStar(issueID: Int64)
    /// Marks a headline (by its publication and key) read or unread, on its account's server too.
    case markHeadlineRead(publicationID: Int64, key: String, read: Bool)
    /// Stars or unstars a headline, on its account's server too.
    case starHeadline(publicationID: Int64, key: String, starred: Bool)
    /// Fetches a feed to look at, saving nothing (answered by `.feedLoaded`).
    case loadFeed(URL)
    /// Fetches one more page of a catalog being browsed (answered by `.catalogPageLoaded`).
    case loadCatalogPage(URL)
    /// Searches a catalog for `terms` (reading an OpenSearch description first when need be); answered by
    /// `.feedLoaded(pageKey, …)`, `pageKey` being the URL of the page pushed for the results.
    case searchCatalog(CatalogSearchLink, terms: String, pageKey: URL)
    /// Points a publication at another feed of its catalog and refreshes it (answered by `.happened`).
    case switchCatalogFeed(publicationID: Int64, url: URL, title: String)
    /// Removes issues beyond keep-N and the budget now, then measures again.
    case enforceStorageLimits
    /// Subscribes to the feeds of an OPML file (answered by `.happened`).
    case importOPML(path: String)
    /// Writes the subscriptions to an OPML file (answered by `.happened`).
    case exportOPML(path: String)
    /// Draws article pictures as text art (off the UI thread); answered by `articlePictureRendered` per request.
    case requestPictures([PictureRequest])
    /// Fetches web pictures of a feed article (http and https only, each within `EffectRunner.webPictureLimit`
    /// bytes) and draws them as text art; answered by `articlePictureRendered` per request.
    case requestWebPictures([PictureRequest])
    /// Fetches a page of a page stream (OPDS-PSE) with the catalog's login, within the picture limits, and draws
    /// it; answered by `streamedPageFetched`, or `streamedPageSkipped` when a later request made it pointless.
    case fetchStreamedPage(StreamedPageRequest)
    /// Finds `query` in every article of an issue; answered by `issueSearched`.
    case searchIssue(issueID: Int64, query: String)
    /// Draws a PDF issue's page as a picture (pdftoppm); answered by `pageRendered`.
    case renderPage(issueID: Int64, articleIndex: Int, columns: Int, rows: Int, mode: CoverArtMode, background: TerminalBackground,
                    cellPixels: CellPixelSize? = nil)
    /// Opens a link with the configured browser, else the system opener (xdg-open), without a shell and in the
    /// background; answered by `linkOpened` when the program is missing or fails.
    case openLink(URL)
    /// Hands an audio or video file to the configured player (`player` in the config file), else the
    /// browser as `openLink` does; answered by `linkOpened` when the program is missing or fails.
    case playMedia(URL)
    /// Searches every downloaded issue (indexing those not indexed yet); answered by `librarySearched`.
    case searchLibrary(query: String)
    /// Stops a download and keeps its partial (the issue is stored as paused).
    case pauseDownload(issueID: Int64)
    /// Moves a queued download `by` places in line (negative: towards the front).
    case moveDownload(issueID: Int64, by: Int)
    case setMaxConcurrentDownloads(Int)
    /// Bytes per second for all downloads together; nil for no limit.
    case setRateLimit(Int?)
    /// Keeps a login the user typed for `host` (`CredentialHost` text: `example.com`, `example.com:8080`) and `realm`
    /// (nil: any): in the credential store when `remember`, else in memory until the program ends. Effects after
    /// it (the work to retry) find the login at once. Answered by `.happened`.
    case saveLogin(host: String, realm: String?, credentials: Credentials, remember: Bool)
    /// Reads an issue's bookmarks and highlights, checking the highlights against its text (a re-downloaded issue
    /// may have moved or lost a passage); answered by `.marksLoaded`.
    case loadMarks(issueID: Int64)
    /// Stores a bookmark or highlight, changes a note, or deletes one; each answered by `.marksLoaded`.
    case addBookmark(Bookmark)
    case addHighlight(Highlight)
    case setNote(issueID: Int64, highlightID: Int64, note: String)
    case deleteMark(IssueMark)
    /// Sends the issue's place to the progress sync server now (closing the issue), else keeps it to send later.
    case pushProgress(issueID: Int64)
    /// Progress sync was given a login after its server refused one: send the places kept meanwhile.
    case resumeProgressSync
}

/// Where a web feed is subscribed: on an account's server (by its API's URL), as a feed of one's own, or not chosen yet
/// (the only account, else none; with several, the user is asked).
public enum SubscriptionDestination: Equatable, Sendable {
    case unchosen
    case account(url: String)
    case ownFeed
}
