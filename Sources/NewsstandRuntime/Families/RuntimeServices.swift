import Foundation
import NewsstandContent
import NewsstandCore
import NewsstandUI

/// What every family of effects shares: the library, its folders, the settings, the logins and the one HTTP client,
/// the way back to the interface (`send`), and the queue of saves that quitting waits for. Immutable, so any queue
/// may use it.
struct RuntimeServices: Sendable {
    let store: LibraryStore
    let paths: LibraryPaths
    let configuration: Configuration
    let credentialStore: CredentialStore
    let credentials: SessionCredentials
    let client: HTTPClient
    let loader: LibraryLoader
    let send: @Sendable (Message) -> Void
    /// Saves that must not be lost (reading positions, marks, settings, logins): `.quit` waits for them.
    let saves = DispatchQueue(label: "newsstand.saves", qos: .userInitiated)

    /// Bytes downloaded issues may take; refreshes remove the oldest read issues beyond it.
    var storageBudget: Int64? { configuration.storageBudget }

    /// Sync logic with the configured limits on automatic downloads.
    var sync: SyncService {
        SyncService(store: store, paths: paths, limits: configuration.autoDownloadLimits, client: client,
                    maxCatalogEntries: configuration.maxCatalogEntries, maxHeadlines: configuration.maxHeadlines,
                    accountSessions: AccountSessions(store: credentialStore), fullText: configuration.fullText)
    }

    /// Sends the library's overview (on the caller's queue); returns it, or nil when it could not be read.
    @discardableResult
    func sendLibrary() -> LibraryOverview? {
        do {
            let overview = try loader.overview()
            StartupTrace.mark("overview read")
            send(.libraryLoaded(overview))
            return overview
        } catch {
            send(.publicationsRefreshed([]))
            return nil
        }
    }

    /// Sends what the downloaded issues take against the budget.
    func sendStorage() {
        if let report = try? StorageReport.measure(store: store, paths: paths, budget: storageBudget) { send(.storageMeasured(report)) }
    }

    /// Tells the interface what happened, for the status line (the interface words it).
    func report(_ report: RuntimeReport) {
        send(.happened(report))
    }

    /// An issue's folder. Safe from any queue.
    func issueFolder(_ issueID: Int64) -> Result<URL, ReaderFailure> {
        guard let issue = try? store.issue(id: issueID), let publication = try? store.publication(id: issue.publicationID) else {
            return .failure(ReaderFailure("the issue is no longer in the library"))
        }
        return .success(paths.folder(for: issue, of: publication))
    }

    /// When `error` is a server asking for a login, asks the user for one (the interface then retries `retry`).
    func askForLogin(after error: Error, at url: URL, retry: Effect) -> Bool {
        guard case .loginRequired(_, let realm)? = error as? HTTPError, let host = CredentialHost(url: url) else { return false }
        send(.loginRequired(host: host.description, realm: realm, retry: retry))
        return true
    }
}

/// One family of effects (downloads, pictures, reading…): a small type with its own queue that carries out the
/// effects `EffectRunner` hands it and keeps the state they need.
protocol EffectFamily: Sendable {
    /// Carries out one of the family's effects, in the background; others are not its business.
    func perform(_ effect: Effect)
}
