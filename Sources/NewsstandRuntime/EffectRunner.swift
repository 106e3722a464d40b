import Foundation
import NewsstandContent
import NewsstandCore
import NewsstandImaging
import NewsstandUI

/// Carries out effects in the background and reports back with messages.
///
/// Owns the long-lived services (download queue, cover service); `send` must hop to the UI
/// thread (the terminal front end passes a closure that does `DispatchQueue.main.async`).
/// Quitting is its job too: `.quit` returns only once the saves asked for before it (the reading
/// position) are on disk.
public final class EffectRunner: @unchecked Sendable {
    public let store: LibraryStore
    public let paths: LibraryPaths
    private let send: @Sendable (Message) -> Void
    private let work = DispatchQueue(label: "newsstand.effects", qos: .userInitiated)
    /// Saves that must not be lost (reading positions, settings): `.quit` waits for them.
    private let saves = DispatchQueue(label: "newsstand.saves", qos: .userInitiated)
    /// The library's overview and shelf windows, so a keypress never waits behind slower work.
    private let libraryQueue = DispatchQueue(label: "newsstand.library", qos: .userInteractive)
    private let loader: LibraryLoader
    private let refreshQueue = DispatchQueue(label: "newsstand.refresh", qos: .utility)
    /// Article pictures and PDF pages; `pictureCache` is used on it only.
    private let pictureQueue = DispatchQueue(label: "newsstand.pictures", qos: .userInitiated)
    private var pictureCache: [PictureRequest: TextArt] = [:]
    /// Pixels held by terminal pictures in `pictureCache`, in bytes.
    private var pictureCacheBytes = 0
    /// Counts the pages asked to be drawn (`.renderPage`), so a page turned past before it was drawn is skipped.
    private let pageRequestLock = NSLock()
    private var pageRequests = 0
    /// Streamed pages, fetched one at a time; `latestStreamedPage` (under its lock) is the last one asked for,
    /// by which those the reader has moved past are skipped.
    private let streamQueue = DispatchQueue(label: "newsstand.page-stream", qos: .userInitiated)
    private let streamLock = NSLock()
    private var latestStreamedPage: StreamedPageRequest?
    /// Headlines' pages fetched for their whole articles, one at a time, so they never hold up the library or pictures.
    private let articleQueue = DispatchQueue(label: "newsstand.whole-articles", qos: .userInitiated)
    /// Searches (an issue's articles, the library's index), so they never hold up loading articles.
    private let searchQueue = DispatchQueue(label: "newsstand.search", qos: .utility)
    public private(set) var downloads: DownloadQueue!
    public private(set) var covers: CoverArtService!
    /// Reading positions shared with a kosync server; nil when progress sync is off.
    private var progressSync: ProgressSyncWork?

    /// The user's settings: transfers at once, rate limit, storage budget, automatic download limits.
    public let configuration: Configuration

    /// The library's saved logins (`credentials` in the data folder).
    public let credentialStore: CredentialStore
    /// Where the network looks logins up: those given for this session only, then the saved ones.
    public let credentials: SessionCredentials
    /// Every request of the program goes through this client (libcurl), with `credentials` for logins.
    public let client: HTTPClient

    /// Bytes downloaded issues may take; refreshes remove the oldest read issues beyond it.
    var storageBudget: Int64? { configuration.storageBudget }

    /// Sync logic with the configured limits on automatic downloads.
    var sync: SyncService {
        SyncService(store: store, paths: paths, limits: configuration.autoDownloadLimits, client: client,
                    maxCatalogEntries: configuration.maxCatalogEntries, maxHeadlines: configuration.maxHeadlines,
                    accountSessions: AccountSessions(store: credentialStore), fullText: configuration.fullText)
    }

    /// What the library knows of a headline's whole article: its feed's `full-text`, the item's length, the article kept.
    func fullText(of headline: Headline, publicationID: Int64) -> HeadlineFullText {
        let mode = ((try? store.publication(id: publicationID)) ?? nil)?.fullText ?? configuration.fullText
        let stored = headline.link.flatMap { (try? store.headlineArticle(publicationID: publicationID, link: $0)) ?? nil }
        return HeadlineFullText(link: headline.link, mode: mode, itemWordCount: HeadlineArticle.itemWordCount(of: headline), stored: stored)
    }

    /// Reads the accounts for the accounts screen.
    func sendAccounts() {
        send(.accountsLoaded((try? AccountSummary.all(in: store)) ?? []))
    }

    /// Logs in to a feed server's API, saves the session (never the password) and the account, and syncs it.
    func addAccount(_ text: String, _ credentials: Credentials) {
        var address = text.trimmingCharacters(in: .whitespaces)
        while address.hasSuffix("/") { address.removeLast() }
        guard let url = URL(string: address), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil else {
            send(.reported(StatusMessage("'\(TextSanitizer.singleLine(address))' is not the http or https address of a feed server's API.", isError: true)))
            return
        }
        do {
            let token = try GoogleReaderClient.logIn(baseURL: url, user: credentials.user, password: credentials.password, http: client)
            let sessions = AccountSessions(store: credentialStore)
            try sessions.save(token: token, user: credentials.user, for: url)
            let account = try store.addAccount(kind: .googleReader, url: url, user: credentials.user)
            let report = sync.accountSync?.sync(account)
            let count = report?.subscriptions ?? 0
            send(.reported(StatusMessage("Added the account \(credentials.user): \(count) subscription\(count == 1 ? "" : "s")"
                                         + (report?.problem.map { " (\($0))" } ?? "") + ".")))
        } catch {
            send(.reported(StatusMessage("Cannot add the account: \(error).", isError: true)))
        }
    }

    /// Sends the queued marks of the account an issue comes from, in the background (after `N`, opening an issue);
    /// when the server cannot be reached they stay queued for the next refresh.
    func sendAccountMarks(ofIssue issueID: Int64) {
        refreshQueue.async {
            guard let issue = try? self.store.issue(id: issueID) else { return }
            self.sendAccountMarksNow(ofPublication: issue.publicationID)
        }
    }

    /// Sends the queued marks of the account a publication comes from (after `N` or `*` on a headline, opening one).
    func sendAccountMarks(ofPublication publicationID: Int64) {
        refreshQueue.async { self.sendAccountMarksNow(ofPublication: publicationID) }
    }

    private func sendAccountMarksNow(ofPublication publicationID: Int64) {
        guard let accountSync = sync.accountSync, let accountID = (try? store.publication(id: publicationID))?.accountID,
              let account = (try? store.accounts())?.first(where: { $0.id == accountID }) else { return }
        _ = try? accountSync.sendMarks(of: account)
    }

    /// The most bytes one feed article's picture may take (it stops arriving there).
    static let webPictureLimit = 8 << 20

    public init(store: LibraryStore, paths: LibraryPaths, configuration: Configuration = Configuration(),
                credentialStore: CredentialStore? = nil, send: @escaping @Sendable (Message) -> Void) {
        self.store = store
        self.paths = paths
        self.configuration = configuration
        self.send = send
        let credentialStore = credentialStore ?? CredentialStore(paths: paths)
        self.credentialStore = credentialStore
        credentials = SessionCredentials(over: credentialStore)
        client = HTTPClient(credentials: credentials)
        loader = LibraryLoader(store: store)
        let policy = DownloadPolicy(configuration: configuration)
        downloads = DownloadQueue(store: store, paths: paths, policy: policy, client: client) { send(.downloadReported($0)) }
        covers = CoverArtService(store: store, cacheDirectory: paths.coverCacheDirectory, client: client,
                                 issueFolder: CoverArtService.folders(of: store, in: paths)) { send(.coverReported($0)) }
        if configuration.progressSync.isOn {
            progressSync = ProgressSyncWork(service: ProgressSyncService(settings: configuration.progressSync, store: store, paths: paths,
                                                                         credentials: credentialStore, http: client), send: send)
        }
    }

    public func perform(_ effects: [Effect]) {
        effects.forEach(perform)
    }

    public func perform(_ effect: Effect) {
        switch effect {
        case .loadLibrary:
            libraryQueue.async { self.sendLibrary() }
        case .loadIssues(let request):
            libraryQueue.async {
                guard let window = try? self.loader.window(request) else { return }
                self.send(.issuesLoaded(window, selecting: request.selecting))
            }
        case .loadUnfinishedDownloads:
            libraryQueue.async {
                if let issues = try? self.store.unfinishedDownloads() { self.send(.unfinishedDownloadsLoaded(issues)) }
            }
        case .lookUpIssues(let ids):
            libraryQueue.async {
                if let issues = try? self.store.issues(ids: ids) { self.send(.issuesLookedUp(issues)) }
            }
        case .loadHeadlines(let publicationID):
            libraryQueue.async {
                let result = Result { try self.store.headlines(publicationID: publicationID) }.mapError { ReaderFailure("\($0)") }
                self.send(.headlinesLoaded(publicationID: publicationID, result))
                if let links = try? self.store.wholeArticleLinks(publicationID: publicationID), !links.isEmpty {
                    self.send(.wholeArticlesListed(publicationID: publicationID, links))
                }
            }
        case .acquireTitle(let entry, let link):
            work.async {
                let result = Result { try TitleAcquirer(store: self.store).acquire(entry, through: link) }
                if case .success(let issue) = result {
                    self.sendLibrary()
                    self.downloads.enqueue(issueID: issue.id)
                }
                self.send(.titleAcquired(result.map(\.title).mapError { ReaderFailure("cannot get \(entry.title): \($0)") }))
            }
        case .removeTitle(let issueID):
            work.async {
                let title = (try? self.store.issue(id: issueID))?.title ?? "The title"
                do {
                    try TitleAcquirer(store: self.store).remove(issueID: issueID, paths: self.paths)
                    self.send(.reported(StatusMessage("\(title) was removed from the Library shelf.")))
                } catch {
                    self.send(.reported(StatusMessage("Cannot remove \(title): \(error)", isError: true)))
                }
                self.sendLibrary()
            }
        case .deleteDownload(let issueID):
            work.async {
                do {
                    guard let issue = try self.store.issue(id: issueID), let publication = try self.store.publication(id: issue.publicationID) else { return }
                    try IssueStorage(store: self.store, paths: self.paths).evict(issue, of: publication)
                    self.send(.reported(StatusMessage("The file of “\(issue.title)” was deleted; it stays on the shelf to download again.")))
                } catch {
                    self.send(.reported(StatusMessage("Cannot delete the download: \(error)", isError: true)))
                }
                self.sendLibrary()
            }
        case .markRead(let issueID, let read):
            saves.async {
                do {
                    try self.store.setRead(read, issueID: issueID)
                } catch {
                    self.send(.reported(StatusMessage("Cannot mark the issue \(read ? "read" : "unread"): \(error)", isError: true)))
                }
                self.libraryQueue.async { self.sendLibrary() }
                self.sendAccountMarks(ofIssue: issueID)
            }
        case .loadHeadlineArticle(let publicationID, let index):
            libraryQueue.async {
                let headline = Result { () throws -> Headline in
                    guard let headline = try self.store.headline(publicationID: publicationID, at: index) else {
                        throw CatalogError("the headline is no longer in the feed (it was refreshed)")
                    }
                    return headline
                }.mapError { ReaderFailure("\($0)") }
                self.send(.headlineArticleLoaded(publicationID: publicationID, index: index, headline.map(HeadlineArticle.blocks(for:))))
                if case .success(let headline) = headline {
                    self.send(.headlineFullTextLoaded(publicationID: publicationID, index: index, self.fullText(of: headline, publicationID: publicationID)))
                    // Opening a headline reads it (on its account's server too).
                    if !headline.isRead, let key = headline.key {
                        self.perform(.markHeadlineRead(publicationID: publicationID, key: key, read: true))
                    }
                }
            }
        case .fetchHeadlineArticle(let publicationID, let index, let link):
            articleQueue.async {
                let result: Result<StoredHeadlineArticle, ReaderFailure>
                do {
                    guard let publication = try self.store.publication(id: publicationID) else { throw CatalogError("the feed is no longer in the library") }
                    result = .success(try HeadlineArticleFetcher(store: self.store, client: self.client).fetch(link, of: publication))
                } catch {
                    // A page behind a login: asked for, then fetched again.
                    let asked = self.askForLogin(after: error, at: link, retry: effect)
                    result = .failure(ReaderFailure(asked ? "the page asks for a login" : "\(error)"))
                }
                self.send(.headlineArticleFetched(publicationID: publicationID, index: index, link: link, result))
            }
        case .setFullText(let publicationID, let mode):
            work.async {
                try? self.store.setFullText(mode, publicationID: publicationID)
                self.sendLibrary()
            }
        case .markHeadlineRead(let publicationID, let key, let read):
            saves.async {
                do {
                    try self.store.setHeadlineRead(read, publicationID: publicationID, key: key)
                } catch {
                    self.send(.reported(StatusMessage("Cannot mark the headline \(read ? "read" : "unread"): \(error)", isError: true)))
                }
                self.sendAccountMarks(ofPublication: publicationID)
            }
        case .starHeadline(let publicationID, let key, let starred):
            saves.async {
                do {
                    try self.store.setHeadlineStarred(starred, publicationID: publicationID, key: key)
                } catch {
                    self.send(.reported(StatusMessage("Cannot star the headline: \(error)", isError: true)))
                }
                self.sendAccountMarks(ofPublication: publicationID)
            }
        case .reloadLibraryIfChangedElsewhere:
            libraryQueue.async {
                guard let counter = try? self.store.externalChangeCounter(), counter != self.lastExternalChangeCounter else { return }
                let isFirstLook = self.lastExternalChangeCounter == nil
                self.lastExternalChangeCounter = counter
                if !isFirstLook { self.sendLibrary() }
            }
        case .refreshPublications:
            refreshQueue.async {
                let sync = self.sync
                let reports = sync.refreshAndQueue(into: self.downloads)
                sync.enforceLimits(budget: self.storageBudget)
                self.send(.publicationsRefreshed(reports.map(\.outcome)))
                self.askForLogins(reports.map(\.outcome))
                self.notify(reports.map(\.outcome))
            }
        case .download(let issueID):
            downloads.enqueue(issueID: issueID)
        case .cancelDownload(let issueID):
            downloads.cancel(issueID: issueID)
        case .requestCovers(let requests):
            covers.request(requests)
        case .openIssue(let issueID):
            work.async {
                let result = self.openBook(issueID: issueID)
                let position = try? self.store.readingPosition(issueID: issueID)
                if case .success = result {
                    try? self.store.markOpened(issueID: issueID)
                    self.sendAccountMarks(ofIssue: issueID)
                }
                self.send(.issueOpened(issueID: issueID, result, resumeAt: position))
                if case .success(let book) = result {
                    self.loadMarks(issueID)
                    self.progressSync?.opened(issueID: issueID, book: book)
                }
                self.sendLibrary()
            }
        case .loadArticle(let issueID, let articleIndex):
            work.async {
                let result = self.openBook(issueID: issueID).flatMap { book -> Result<[TextBlock], ReaderFailure> in
                    Result { try IssueContent.blocks(of: book, article: articleIndex) }.mapError { ReaderFailure("\($0)") }
                }
                self.send(.articleLoaded(issueID: issueID, articleIndex: articleIndex, result))
            }
        case .saveReadingPosition(let issueID, let position):
            saves.async {
                try? self.store.saveReadingPosition(position, issueID: issueID)
                self.progressSync?.saved(issueID: issueID, position: position)
            }
        case .pushProgress(let issueID):
            saves.async { self.progressSync?.pushNow(issueID: issueID) }
        case .resumeProgressSync:
            progressSync?.resume()
        case .saveSetting(let key, let value):
            saves.async { try? self.store.setSetting(key, to: value) }
        case .quit:
            finishPendingSaves()
            progressSync?.finish(timeout: 2)
        case .subscribe(let text, let destination):
            refreshQueue.async {
                let result: Result<String, ReaderFailure>
                let accounts = (try? self.store.accounts()) ?? []
                let parsed = SubscriptionURL.parse(text)
                let isWebFeed = ["http", "https"].contains(parsed?.scheme?.lowercased() ?? "")
                // The account: the one chosen, else the only one; with several and no choice, the user is asked.
                var chosen: Account?
                switch destination {
                case .ownFeed: chosen = nil
                case .account(let address):
                    chosen = accounts.first { $0.url.absoluteString == address }
                    if chosen == nil {
                        self.send(.subscriptionAdded(.failure(ReaderFailure("the account at \(address) is gone; nothing was subscribed"))))
                        return
                    }
                case .unchosen:
                    if isWebFeed, accounts.count > 1 {
                        self.send(.subscriptionAccountNeeded(url: text, accounts: accounts))
                        return
                    }
                    chosen = accounts.first
                }
                if let url = parsed, isWebFeed, let account = chosen, let accountSync = self.sync.accountSync {
                    // With an account, a web feed is subscribed on its server.
                    do {
                        let added = try accountSync.subscribe(account, to: url)
                        if let publication = added.publication {
                            result = .success(publication.title)
                        } else {
                            result = .failure(ReaderFailure("subscribed on \(account.url.host ?? "the server"), but its sync failed: \(added.report.problem ?? "it did not list the feed")"))
                        }
                    } catch {
                        result = .failure(ReaderFailure("cannot subscribe to \(url.absoluteString) on the account's server: \(error)"))
                    }
                } else if let url = parsed {
                    self.moveLogin(from: text)
                    do {
                        result = .success(try PublicationRefresher(store: self.store, maxEntries: self.configuration.maxCatalogEntries, client: self.client,
                                                                   maxHeadlines: self.configuration.maxHeadlines).subscribe(to: url).subscribedTitle)
                    } catch {
                        if self.askForLogin(after: error, at: url, retry: .subscribe(url: url.absoluteString, on: destination)) { return }
                        result = .failure(ReaderFailure("cannot subscribe to \(url.absoluteString): \(error)"))
                    }
                } else {
                    result = .failure(ReaderFailure("that is not a feed URL (http, https or file, or a path)"))
                }
                self.send(.subscriptionAdded(result))
                self.sendLibrary()
            }
        case .unsubscribe(let publicationID, let keepDownloads):
            work.async {
                if let publication = try? self.store.publication(id: publicationID), publication.accountID != nil, let accountSync = self.sync.accountSync {
                    // On the account's server first: when it cannot be reached, nothing changes here.
                    do {
                        try accountSync.unsubscribe(publication)
                    } catch {
                        self.send(.reported(StatusMessage("Cannot unsubscribe on the account's server: \(error); nothing was changed.", isError: true)))
                        return
                    }
                }
                if keepDownloads {
                    try? self.store.unsubscribeKeepingDownloads(publicationID: publicationID)
                } else if let publication = try? self.store.publication(id: publicationID) {
                    try? IssueStorage(store: self.store, paths: self.paths).removePublication(publication)
                }
                self.sendLibrary()
            }
        case .renamePublication(let publicationID, let title):
            work.async {
                if let publication = try? self.store.publication(id: publicationID), publication.accountID != nil, let accountSync = self.sync.accountSync {
                    do {
                        try accountSync.rename(publication, to: title)
                    } catch {
                        self.send(.reported(StatusMessage("Cannot rename on the account's server: \(error); nothing was changed.", isError: true)))
                    }
                } else {
                    try? self.store.renamePublication(id: publicationID, to: title)
                }
                self.sendLibrary()
            }
        case .refreshPublication(let publicationID):
            refreshQueue.async {
                guard let publication = try? self.store.publication(id: publicationID) else { return }
                let report = self.sync.refreshAndQueue(publication, into: self.downloads)
                self.send(.publicationsRefreshed([report.outcome]))
                self.askForLogins([report.outcome])
            }
        case .setPolicy(let publicationID, let autoDownload, let keepNewest):
            work.async {
                try? self.store.setPolicy(publicationID: publicationID, autoDownload: autoDownload, keepNewest: keepNewest)
                self.sendLibrary()
            }
        case .loadCatalogPage(let url):
            refreshQueue.async {
                // The browser follows only links its pages kept (`Feed.keepingReferences`): each page is read
                // with its own origin, which admits no more than the page that linked to it.
                let result = Result { try CatalogPages(client: self.client).page(at: url, from: DocumentOrigin(documentURL: url)) }
                if case .failure(let error) = result, self.askForLogin(after: error, at: url, retry: .loadCatalogPage(url)) { return }
                self.send(.catalogPageLoaded(url, result.mapError { ReaderFailure("\($0)") }))
            }
        case .searchCatalog(let link, let terms, let key):
            refreshQueue.async {
                let origin = switch link {
                case .description(let url): DocumentOrigin(documentURL: url)
                case .template(let template): SearchTemplate.fill(template, with: terms).map(DocumentOrigin.init(documentURL:)) ?? .network
                }
                let result = Result { try CatalogPages(client: self.client).search(terms, with: link, from: origin).feed }
                self.send(.feedLoaded(key, result.mapError { ReaderFailure("\($0)") }))
            }
        case .switchCatalogFeed(let publicationID, let url, let title):
            refreshQueue.async {
                guard let publication = try? self.store.publication(id: publicationID) else { return }
                do {
                    let refresher = PublicationRefresher(store: self.store, maxEntries: self.configuration.maxCatalogEntries, client: self.client)
                    let outcome = try refresher.switchFeed(of: publication, to: url, title: title)
                    let issues = "\(outcome.issueCount) issue\(outcome.issueCount == 1 ? "" : "s")"
                    self.send(.reported(StatusMessage("\(publication.title) now reads \(title): \(issues).")))
                } catch {
                    self.send(.reported(StatusMessage("\(publication.title) still reads its feed: \(title) could not be read: \(error)", isError: true)))
                }
                self.sendLibrary()
            }
        case .loadFeed(let url):
            refreshQueue.async {
                // One page at a time: the browser asks for the next as the reader nears the end.
                let result = Result { try CatalogPages(client: self.client).page(at: url, from: DocumentOrigin(documentURL: url)) }
                if case .failure(let error) = result, self.askForLogin(after: error, at: url, retry: .loadFeed(url)) { return }
                let answer = result.mapError { ReaderFailure("\($0)") }
                self.send(.feedLoaded(url, answer))
            }
        case .measureStorage:
            work.async { self.sendStorage() }
        case .loadAccounts:
            work.async { self.sendAccounts() }
        case .addAccount(let text, let credentials):
            refreshQueue.async {
                self.addAccount(text, credentials)
                self.sendAccounts()
                self.sendLibrary()
            }
        case .removeAccount(let text):
            work.async {
                do {
                    guard let url = URL(string: text), let account = try self.store.account(url: url) else { return }
                    try self.store.removeAccount(id: account.id)
                    try? AccountSessions(store: self.credentialStore).forget(account.url)
                    self.send(.reported(StatusMessage("Removed the account \(account.user); its subscriptions stay as feeds of your own.")))
                } catch {
                    self.send(.reported(StatusMessage("Cannot remove the account: \(error)", isError: true)))
                }
                self.sendAccounts()
                self.sendLibrary()
            }
        case .toggleStar(let issueID):
            saves.async {
                do {
                    guard let issue = try self.store.issue(id: issueID) else { return }
                    let starred = !(try self.store.starredIssueIDs().contains(issueID))
                    try self.store.setStarred(starred, issueID: issueID)
                    self.send(.reported(StatusMessage("\(starred ? "Starred" : "Unstarred") “\(issue.title)”\(starred ? ": it is kept whatever the storage budget" : "").")))
                } catch {
                    self.send(.reported(StatusMessage("Cannot star the issue: \(error)", isError: true)))
                }
                self.sendAccountMarks(ofIssue: issueID)
            }
        case .enforceStorageLimits:
            refreshQueue.async {
                let removed = self.sync.enforceLimits(budget: self.storageBudget)
                self.send(.reported(StatusMessage("Removed \(removed.count) issue\(removed.count == 1 ? "" : "s").")))
                self.sendStorage()
                self.sendLibrary()
            }
        case .importOPML(let path):
            refreshQueue.async {
                let file = URL(fileURLWithPath: SubscriptionURL.expandingHome(path))
                let message: StatusMessage
                do {
                    guard let data = FileManager.default.contents(atPath: file.path) else { throw CatalogError("cannot read \(file.path)") }
                    let result = try OPMLImport.run(try OPMLDocument.parse(data), store: self.store, credentials: self.credentialStore, client: self.client)
                    message = result.failures.isEmpty ? StatusMessage(result.summary)
                        : StatusMessage(result.summary + " Not added: " + result.failures.joined(separator: "; "), isError: true)
                } catch {
                    message = StatusMessage("\(file.lastPathComponent): \(error)", isError: true)
                }
                self.send(.reported(message))
                self.sendLibrary()
            }
        case .exportOPML(let path):
            work.async {
                let file = URL(fileURLWithPath: SubscriptionURL.expandingHome(path))
                do {
                    try Data(try OPMLImport.export(store: self.store).xml().utf8).write(to: file, options: .atomic)
                    self.send(.reported(StatusMessage("Subscriptions written to \(file.path).")))
                } catch {
                    self.send(.reported(StatusMessage("Cannot write \(file.path): \(error.localizedDescription)", isError: true)))
                }
            }
        case .requestPictures(let requests):
            pictureQueue.async {
                for request in requests {
                    let result: Result<TextArt, ReaderFailure>
                    if let art = self.pictureCache[request] {
                        result = .success(art)
                    } else {
                        result = self.issueFolder(request.issueID).flatMap { ReaderWork.picture(request, issueFolder: $0) }
                        if case .success(let art) = result { self.cachePicture(art, for: request) }
                    }
                    self.send(.pictureRendered(request, result))
                }
            }
        case .requestWebPictures(let requests):
            pictureQueue.async {
                for request in requests {
                    let result: Result<TextArt, ReaderFailure>
                    if let art = self.pictureCache[request] {
                        result = .success(art)
                    } else if !["http", "https"].contains(request.source.scheme?.lowercased() ?? "") {
                        result = .failure(ReaderFailure("only pictures on the web are fetched for feed articles"))
                    } else {
                        result = Result {
                            try ResourceFetcher.fetch(request.source, from: .network, maxBytes: Self.webPictureLimit, timeout: 20, client: self.client)
                        }.mapError { ReaderFailure("the picture cannot be fetched: \($0)") }.flatMap {
                            ReaderWork.draw($0, columns: request.columns, rows: request.rows, mode: request.mode, background: request.background,
                                            cellPixels: request.cellPixels)
                        }
                        if case .success(let art) = result { self.cachePicture(art, for: request) }
                    }
                    self.send(.webPictureRendered(request, result))
                }
            }
        case .fetchStreamedPage(let request):
            streamLock.withLock { latestStreamedPage = request }
            streamQueue.async {
                if let latest = self.streamLock.withLock({ self.latestStreamedPage }), request.isOutdated(by: latest) {
                    self.send(.streamedPageSkipped(request))
                    return
                }
                let result: Result<TextArt, ReaderFailure>
                do {
                    result = try StreamedPageWork.page(request, client: self.client)
                } catch {
                    // The page says why it is missing until the login is given and the page fetched again.
                    result = .failure(ReaderFailure("page \(request.page + 1) could not be fetched: \(error)"))
                    if let url = request.stream.url(forPage: request.page) {
                        _ = self.askForLogin(after: error, at: url, retry: .fetchStreamedPage(request))
                    }
                }
                self.send(.streamedPageFetched(request, result))
            }
        case .searchIssue(let issueID, let query):
            searchQueue.async {
                let result = self.issueFolder(issueID).flatMap { folder in
                    Result { ReaderWork.matches(of: query, in: try IssueContent.allBlocks(of: try IssueContent.openBook(folder: folder))) }
                        .mapError { ReaderFailure("\($0)") }
                }
                self.send(.issueSearched(issueID: issueID, query: query, result))
            }
        case .renderPage(let issueID, let articleIndex, let columns, let rows, let mode, let background, let cellPixels):
            let serial = pageRequestLock.withLock { () -> Int in
                pageRequests += 1
                return pageRequests
            }
            // The book (cached) comes from `work`; the drawing happens on `pictureQueue`.
            work.async {
                let book = try? self.openBook(issueID: issueID).get()
                self.pictureQueue.async {
                    // Pages turned faster than they are drawn: only the last one asked for is drawn.
                    guard self.pageRequestLock.withLock({ self.pageRequests }) == serial else { return }
                    let result = self.issueFolder(issueID).flatMap { folder in
                        if let book, book.isComicBook {
                            return ReaderWork.comicPage(book, index: articleIndex, issueFolder: folder, columns: columns, rows: rows, mode: mode,
                                                        background: background, cellPixels: cellPixels)
                        }
                        return ReaderWork.pdfPage(issueFolder: folder, page: articleIndex + 1, columns: columns, rows: rows, mode: mode,
                                                  background: background, cellPixels: cellPixels)
                    }
                    self.send(.pageRendered(issueID: issueID, articleIndex: articleIndex, result))
                }
            }
        case .openLink(let url):
            DispatchQueue.global(qos: .utility).async { self.open(url, with: self.configuration.browser, role: "the browser", setting: "browser") }
        case .playMedia(let url):
            DispatchQueue.global(qos: .utility).async {
                if self.configuration.player == nil {
                    self.open(url, with: self.configuration.browser, role: "the browser", setting: "browser")
                } else {
                    self.open(url, with: self.configuration.player, role: "the player", setting: "player")
                }
            }
        case .searchLibrary(let query):
            searchQueue.async {
                let result = Result { try IssueSearchIndex(store: self.store, paths: self.paths).search(query) }.mapError { ReaderFailure("\($0)") }
                self.send(.librarySearched(query: query, result))
            }
        case .pauseDownload(let issueID):
            downloads.pause(issueID: issueID)
        case .moveDownload(let issueID, let offset):
            downloads.move(issueID: issueID, by: offset)
        case .setMaxConcurrentDownloads(let count):
            downloads.setMaxConcurrent(count)
        case .setRateLimit(let bytesPerSecond):
            downloads.setRateLimit(bytesPerSecond: bytesPerSecond)
        case .loadMarks(let issueID):
            work.async { self.loadMarks(issueID) }
        case .addBookmark(let bookmark):
            saves.async {
                try? self.store.addBookmark(bookmark)
                self.sendMarks(bookmark.issueID)
            }
        case .addHighlight(let highlight):
            saves.async {
                try? self.store.addHighlight(highlight)
                self.sendMarks(highlight.issueID)
            }
        case .setNote(let issueID, let highlightID, let note):
            saves.async {
                try? self.store.setNote(note, highlightID: highlightID)
                self.sendMarks(issueID)
            }
        case .deleteMark(let mark):
            saves.async {
                switch mark {
                case .bookmark(let bookmark): try? self.store.deleteBookmark(id: bookmark.id)
                case .highlight(let highlight): try? self.store.deleteHighlight(id: highlight.id)
                }
                self.sendMarks(mark.issueID)
            }
        case .saveLogin(let host, let realm, let login, let remember):
            saveLogin(login, host: host, realm: realm, remember: remember)
        }
    }

    /// Keeps a login the user typed: in memory at once (so the work retried after this effect finds it), and in the
    /// credential store when `remember` (written on `saves`, which quitting waits for).
    private func saveLogin(_ login: Credentials, host text: String, realm: String?, remember: Bool) {
        // Progress sync keeps a key made from the password, checked with its server first.
        if realm == CredentialEntry.progressSyncRealm {
            progressSync?.logIn(login, remember: remember)
            return
        }
        guard let host = CredentialHost(text) else {
            send(.reported(StatusMessage("The login was not kept: '\(text)' is not a host.", isError: true)))
            return
        }
        credentials.remember(login, for: host, realm: realm)
        guard remember else {
            send(.reported(StatusMessage("Using the login for \(login.user) at \(host) until Newsstand quits.")))
            return
        }
        saves.async {
            do {
                try self.credentialStore.save(login, for: host, realm: realm)
                self.send(.reported(StatusMessage("Saved the login for \(login.user) at \(host).")))
            } catch {
                self.send(.reported(StatusMessage("The login for \(login.user) at \(host) is used until Newsstand quits but was not saved: \(error)",
                                                  isError: true)))
            }
        }
    }

    /// Moves the login in a feed URL as typed (`user:password@`) to the credential store, or, when it cannot be
    /// saved there, keeps it for this session and says why. The URL is subscribed without it either way.
    private func moveLogin(from text: String) {
        let parts = URLCredentials.split(text)
        guard let login = parts.credentials, let host = CredentialHost(parts.address) else { return }
        credentials.remember(login, for: host)
        do {
            try credentialStore.save(login, for: host)
        } catch {
            send(.reported(StatusMessage("The login for \(login.user) at \(host) is used until Newsstand quits but was not saved: \(error)",
                                         isError: true)))
        }
    }

    /// Resumes downloads a previous run left unfinished.
    public func resumeInterruptedDownloads() {
        downloads.resumeInterrupted()
    }

    /// Asks for the logins refreshed feeds' servers wanted; each publication is refreshed again once one is given.
    private func askForLogins(_ outcomes: [PublicationRefresher.Outcome]) {
        for outcome in outcomes {
            guard let challenge = outcome.loginRequired else { continue }
            send(.loginRequired(host: challenge.host, realm: challenge.realm, retry: .refreshPublication(publicationID: outcome.publicationID)))
        }
    }

    /// When `error` is a server asking for a login, asks the user for one (the interface then retries `retry`).
    private func askForLogin(after error: Error, at url: URL, retry: Effect) -> Bool {
        guard case .loginRequired(_, let realm)? = error as? HTTPError, let host = CredentialHost(url: url) else { return false }
        send(.loginRequired(host: host.description, realm: realm, retry: retry))
        return true
    }

    /// Waits until every save asked for so far is on disk (called when the program ends, however it ends).
    public func finishPendingSaves() {
        saves.sync {}
    }

    private func sendStorage() {
        if let report = try? StorageReport.measure(store: store, paths: paths, budget: storageBudget) { send(.storageMeasured(report)) }
    }

    /// Sends an issue's marks as stored, then checks its highlights against its text (off the reader's queue: a
    /// re-downloaded issue may have moved or lost a passage) and sends them again when that changed any.
    private func loadMarks(_ issueID: Int64) {
        sendMarks(issueID)
        searchQueue.async {
            guard case .success(let folder) = self.issueFolder(issueID), let book = try? IssueContent.openBook(folder: folder),
                  (try? HighlightRecheck.run(issueID: issueID, book: book, store: self.store)) == true else { return }
            self.sendMarks(issueID)
        }
    }

    private func sendMarks(_ issueID: Int64) {
        send(.marksLoaded(issueID: issueID, Result { try store.marks(issueID: issueID) }.mapError { ReaderFailure("\($0)") }))
    }

    /// Hands a URL to the program configured for it (`browser`, `player`), else the system opener, watching it for a
    /// moment so that a failure is reported in plain words.
    private func open(_ url: URL, with command: HookCommand?, role: String, setting: String) {
        let failure: HookRunner.Failure?
        if let command {
            failure = HookRunner.run(command.invocation(for: url), role: role, wait: .watch(seconds: HookRunner.openerWatch))
                .map { HookRunner.Failure(description: "\($0) (\(setting) in the config file)") }
        } else {
            failure = HookRunner.run(("xdg-open", [url.absoluteString]), role: "the system opener", wait: .watch(seconds: HookRunner.openerWatch))
        }
        if let failure { send(.linkOpened(url, failure: failure.description)) }
    }

    /// Runs `notify-program` when a refresh brought new issues; a failure is reported on the status line.
    private func notify(_ outcomes: [PublicationRefresher.Outcome]) {
        guard let command = configuration.notifyProgram, let notice = NewIssuesNotice(outcomes: outcomes, store: store) else { return }
        if let failure = HookRunner.notify(command, notice) {
            send(.reported(StatusMessage(failure.description, isError: true)))
        }
    }

    private func sendLibrary() {
        do {
            send(.libraryLoaded(try loader.overview()))
        } catch {
            send(.publicationsRefreshed([]))
        }
    }

    private var bookCache: (issueID: Int64, book: EPUBBook)?
    /// The last `externalChangeCounter` seen; used on `libraryQueue` only.
    private var lastExternalChangeCounter: Int64?

    /// An issue's folder. Safe from any queue.
    /// Keeps drawn art on `pictureQueue`: at most 256 pictures, and at most 64 MB of terminal pictures' pixels.
    private func cachePicture(_ art: TextArt, for request: PictureRequest) {
        let bytes = art.picture?.image.pixels.count ?? 0
        if pictureCache.count >= 256 || pictureCacheBytes + bytes > 64 << 20 {
            pictureCache.removeAll()
            pictureCacheBytes = 0
        }
        pictureCache[request] = art
        pictureCacheBytes += bytes
    }

    private func issueFolder(_ issueID: Int64) -> Result<URL, ReaderFailure> {
        guard let issue = try? store.issue(id: issueID), let publication = try? store.publication(id: issue.publicationID) else {
            return .failure(ReaderFailure("the issue is no longer in the library"))
        }
        return .success(paths.folder(for: issue, of: publication))
    }

    /// Opens an installed issue's book (kept while the same issue is read). Called on `work` only.
    private func openBook(issueID: Int64) -> Result<EPUBBook, ReaderFailure> {
        if let cached = bookCache, cached.issueID == issueID { return .success(cached.book) }
        do {
            guard let issue = try store.issue(id: issueID), let publication = try store.publication(id: issue.publicationID) else {
                return .failure(ReaderFailure("the issue is no longer in the library"))
            }
            guard issue.state == .available else { return .failure(ReaderFailure("the issue is no longer downloaded")) }
            let book = try IssueContent.openBook(folder: paths.folder(for: issue, of: publication))
            bookCache = (issueID, book)
            return .success(book)
        } catch {
            return .failure(ReaderFailure("\(error)"))
        }
    }
}
