import Foundation
import NewsstandContent
import NewsstandCore
import NewsstandImaging
import NewsstandUI

/// Carries out effects in the background and reports back with messages.
///
/// A short dispatcher: each effect goes to its family (`Families/`), a small type with its own queue that keeps
/// the state its work needs: library windows, downloads, covers and pictures, issue reading, headline reading,
/// subscriptions and catalogs with their logins, accounts and progress sync, files and hooks. `send` must hop to
/// the UI thread (the terminal front end passes a closure that does `DispatchQueue.main.async`).
/// Quitting is its job too: `.quit` returns only once the saves asked for before it (the reading position) are
/// on disk.
public final class EffectRunner: Sendable {
    public let store: LibraryStore
    public let paths: LibraryPaths
    /// The user's settings: transfers at once, rate limit, storage budget, automatic download limits.
    public let configuration: Configuration
    /// The library's saved logins (`credentials` in the data folder).
    public let credentialStore: CredentialStore
    /// Where the network looks logins up: those given for this session only, then the saved ones.
    public let credentials: SessionCredentials
    /// Every request of the program goes through this client (libcurl), with `credentials` for logins.
    public let client: HTTPClient
    public var downloads: DownloadQueue { downloadWork.downloads }
    public var covers: CoverArtService { pictures.covers }

    private let services: RuntimeServices
    private let library: LibraryWindows
    private let downloadWork: DownloadWork
    private let pictures: PictureWork
    private let reading: IssueReading
    private let headlines: HeadlineReading
    private let catalogs: CatalogWork
    private let accounts: AccountWork
    private let files: FilesAndHooks

    /// The most bytes one feed article's picture may take (it stops arriving there).
    static let webPictureLimit = PictureWork.webPictureLimit

    public init(store: LibraryStore, paths: LibraryPaths, configuration: Configuration = Configuration(),
                credentialStore: CredentialStore? = nil, send: @escaping @Sendable (Message) -> Void) {
        self.store = store
        self.paths = paths
        self.configuration = configuration
        let credentialStore = credentialStore ?? CredentialStore(paths: paths)
        self.credentialStore = credentialStore
        credentials = SessionCredentials(over: credentialStore)
        client = HTTPClient(credentials: credentials)
        services = RuntimeServices(store: store, paths: paths, configuration: configuration, credentialStore: credentialStore,
                                   credentials: credentials, client: client, loader: LibraryLoader(store: store), send: send)
        library = LibraryWindows(services: services)
        files = FilesAndHooks(services: services)
        downloadWork = DownloadWork(services: services)
        catalogs = CatalogWork(services: services, downloads: downloadWork.downloads, hooks: files)
        accounts = AccountWork(services: services, library: library, network: catalogs.refreshes)
        reading = IssueReading(services: services, library: library, accounts: accounts)
        headlines = HeadlineReading(services: services, library: library, accounts: accounts)
        pictures = PictureWork(services: services, reading: reading)
    }

    public func perform(_ effects: [Effect]) {
        effects.forEach(perform)
    }

    public func perform(_ effect: Effect) {
        switch effect {
        case .quit:
            finishPendingSaves()
            accounts.progressSync?.finish(timeout: 2)
        case .saveSetting(let key, let value):
            services.saves.async { try? self.store.setSetting(key, to: value) }
        default:
            family(of: effect).perform(effect)
        }
    }

    /// The family that carries out `effect`: every effect is named here, so a new one must be given a home.
    private func family(of effect: Effect) -> any EffectFamily {
        switch effect {
        case .loadLibrary, .loadIssues, .loadUnfinishedDownloads, .lookUpIssues, .reloadLibraryIfChangedElsewhere:
            library
        case .download, .cancelDownload, .pauseDownload, .moveDownload, .setMaxConcurrentDownloads, .setRateLimit,
             .acquireTitle, .removeTitle, .deleteDownload, .measureStorage:
            downloadWork
        case .requestCovers, .requestPictures, .requestWebPictures, .renderPage, .fetchStreamedPage:
            pictures
        case .openIssue, .loadArticle, .saveReadingPosition, .markRead, .toggleStar, .loadMarks, .addBookmark, .addHighlight,
             .setNote, .deleteMark, .searchIssue, .searchLibrary:
            reading
        case .loadHeadlines, .loadHeadlineArticle, .fetchHeadlineArticle, .setFullText, .markHeadlineRead, .starHeadline:
            headlines
        case .saveLogin(_, let realm, _, _) where realm == CredentialEntry.progressSyncRealm:
            accounts
        case .refreshPublications, .refreshPublication, .enforceStorageLimits, .subscribe, .unsubscribe, .renamePublication,
             .setPolicy, .loadCatalogPage, .searchCatalog, .switchCatalogFeed, .loadFeed, .saveLogin:
            catalogs
        case .loadAccounts, .addAccount, .removeAccount, .pushProgress, .resumeProgressSync:
            accounts
        case .importOPML, .exportOPML, .openLink, .playMedia:
            files
        case .quit, .saveSetting:
            preconditionFailure("the runner itself carries out \(effect)")
        }
    }

    /// Has the first overview followed at once by the shown shelf's window, the request for it worked out by `request`
    /// (`AppUpdate.shownShelfRequest`), and sent as `Message.issuesReadAhead` (see `LibraryWindows.anticipate`).
    public func readShownShelfAhead(_ request: @escaping @Sendable (LibraryOverview) -> IssueWindowRequest?) {
        library.anticipate(request)
    }

    /// Resumes downloads a previous run left unfinished.
    public func resumeInterruptedDownloads() {
        downloads.resumeInterrupted()
    }

    /// Waits until every save asked for so far is on disk (called when the program ends, however it ends).
    public func finishPendingSaves() {
        services.saves.sync {}
    }

    /// Closes the library as the program ends, once every save is on disk. SQLite then folds its write-ahead log into
    /// the database and empties its file (`LibraryStore.writeAheadLogLimit`); left behind, the next start reads it all
    /// back first (up to 4 MB after a sync, which took 2 ms of a 50,000-issue start-up). Work still running on other
    /// queues finds the library closed: the program is ending.
    public func closeLibrary() {
        finishPendingSaves()
        store.close()
    }
}
