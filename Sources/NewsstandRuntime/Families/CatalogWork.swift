import Foundation
import NewsstandContent
import NewsstandCore
import NewsstandUI

/// Subscriptions, catalogs and logins: refreshing feeds (and the storage limits refreshes keep), subscribing and
/// unsubscribing, renaming, download policies, browsing catalogs and feeds, switching a publication's feed, and
/// logins the user typed (those a server asked for are requested here too, and the work retried once given).
final class CatalogWork: EffectFamily {
    private let services: RuntimeServices
    private let downloads: DownloadQueue
    private let hooks: FilesAndHooks
    /// Work that waits on servers: refreshes, subscribing, catalog pages. Account traffic shares it.
    let refreshes = DispatchQueue(label: "newsstand.refresh", qos: .utility)
    /// Changes to subscriptions that need no feed's server.
    private let edits = DispatchQueue(label: "newsstand.subscriptions", qos: .userInitiated)

    init(services: RuntimeServices, downloads: DownloadQueue, hooks: FilesAndHooks) {
        self.services = services
        self.downloads = downloads
        self.hooks = hooks
    }

    func perform(_ effect: Effect) {
        let services = services
        let store = services.store
        let configuration = services.configuration
        switch effect {
        case .refreshPublications:
            refreshes.async {
                let sync = services.sync
                let outcomes = sync.refreshAndQueue(into: self.downloads).map(\.outcome)
                sync.enforceLimits(budget: services.storageBudget)
                services.send(.publicationsRefreshed(outcomes))
                self.askForLogins(outcomes)
                self.hooks.notify(outcomes)
            }
        case .refreshPublication(let publicationID):
            refreshes.async {
                guard let publication = try? store.publication(id: publicationID) else { return }
                let report = services.sync.refreshAndQueue(publication, into: self.downloads)
                services.send(.publicationsRefreshed([report.outcome]))
                self.askForLogins([report.outcome])
            }
        case .enforceStorageLimits:
            refreshes.async {
                let removed = services.sync.enforceLimits(budget: services.storageBudget)
                services.report(.storageLimitsEnforced(removed: removed.count))
                services.sendStorage()
                services.sendLibrary()
            }
        case .subscribe(let text, let destination):
            refreshes.async {
                guard let result = self.subscribe(text, on: destination) else { return }
                services.send(.subscriptionAdded(result))
                services.sendLibrary()
            }
        case .unsubscribe(let publicationID, let keepDownloads):
            edits.async {
                self.unsubscribe(publicationID, keepDownloads: keepDownloads)
                services.sendLibrary()
            }
        case .renamePublication(let publicationID, let title):
            edits.async {
                if let publication = try? store.publication(id: publicationID), publication.accountID != nil, let accountSync = services.sync.accountSync {
                    do {
                        try accountSync.rename(publication, to: title)
                    } catch {
                        services.report(.notRenamedOnServer(reason: "\(error)"))
                    }
                } else {
                    try? store.renamePublication(id: publicationID, to: title)
                }
                services.sendLibrary()
            }
        case .setPolicy(let publicationID, let autoDownload, let keepNewest):
            edits.async {
                try? store.setPolicy(publicationID: publicationID, autoDownload: autoDownload, keepNewest: keepNewest)
                services.sendLibrary()
            }
        case .loadCatalogPage(let url):
            refreshes.async {
                // The browser follows only links its pages kept (`Feed.keepingReferences`): each page is read
                // with its own origin, which admits no more than the page that linked to it.
                let result = Result { try CatalogPages(client: services.client).page(at: url, from: DocumentOrigin(documentURL: url)) }
                if case .failure(let error) = result, services.askForLogin(after: error, at: url, retry: .loadCatalogPage(url)) { return }
                services.send(.catalogPageLoaded(url, result.mapError { ReaderFailure("\($0)") }))
            }
        case .searchCatalog(let link, let terms, let key):
            refreshes.async {
                let origin = switch link {
                case .description(let url): DocumentOrigin(documentURL: url)
                case .template(let template): SearchTemplate.fill(template, with: terms).map(DocumentOrigin.init(documentURL:)) ?? .network
                }
                let result = Result { try CatalogPages(client: services.client).search(terms, with: link, from: origin).feed }
                services.send(.feedLoaded(key, result.mapError { ReaderFailure("\($0)") }))
            }
        case .switchCatalogFeed(let publicationID, let url, let title):
            refreshes.async {
                guard let publication = try? store.publication(id: publicationID) else { return }
                do {
                    let refresher = PublicationRefresher(store: store, maxEntries: configuration.maxCatalogEntries, client: services.client)
                    let outcome = try refresher.switchFeed(of: publication, to: url, title: title)
                    services.report(.feedSwitched(publication: publication.title, feed: title, issues: outcome.issueCount))
                } catch {
                    services.report(.feedNotSwitched(publication: publication.title, feed: title, reason: "\(error)"))
                }
                services.sendLibrary()
            }
        case .loadFeed(let url):
            refreshes.async {
                // One page at a time: the browser asks for the next as the reader nears the end.
                let result = Result { try CatalogPages(client: services.client).page(at: url, from: DocumentOrigin(documentURL: url)) }
                if case .failure(let error) = result, services.askForLogin(after: error, at: url, retry: .loadFeed(url)) { return }
                services.send(.feedLoaded(url, result.mapError { ReaderFailure("\($0)") }))
            }
        case .saveLogin(let host, let realm, let login, let remember):
            saveLogin(login, host: host, realm: realm, remember: remember)
        default:
            break
        }
    }

    /// Subscribes to a feed as typed: on an account's server (the one chosen, else the only one), else as a feed of
    /// the user's own. Nil when the answer was sent already: another question (which account, a login) or an account gone.
    private func subscribe(_ text: String, on destination: SubscriptionDestination) -> Result<String, ReaderFailure>? {
        let services = services
        let accounts = (try? services.store.accounts()) ?? []
        let parsed = SubscriptionURL.parse(text)
        let isWebFeed = ["http", "https"].contains(parsed?.scheme?.lowercased() ?? "")
        // The account: the one chosen, else the only one; with several and no choice, the user is asked.
        var chosen: Account?
        switch destination {
        case .ownFeed: chosen = nil
        case .account(let address):
            chosen = accounts.first { $0.url.absoluteString == address }
            if chosen == nil {
                services.send(.subscriptionAdded(.failure(ReaderFailure("the account at \(address) is gone; nothing was subscribed"))))
                return nil
            }
        case .unchosen:
            if isWebFeed, accounts.count > 1 {
                services.send(.subscriptionAccountNeeded(url: text, accounts: accounts))
                return nil
            }
            chosen = accounts.first
        }
        guard let url = parsed else { return .failure(ReaderFailure("that is not a feed URL (http, https or file, or a path)")) }
        if isWebFeed, let account = chosen, let accountSync = services.sync.accountSync {
            // With an account, a web feed is subscribed on its server.
            do {
                let added = try accountSync.subscribe(account, to: url)
                if let publication = added.publication { return .success(publication.title) }
                return .failure(ReaderFailure("subscribed on \(account.url.host ?? "the server"), but its sync failed: \(added.report.problem ?? "it did not list the feed")"))
            } catch {
                return .failure(ReaderFailure("cannot subscribe to \(url.absoluteString) on the account's server: \(error)"))
            }
        }
        moveLogin(from: text)
        do {
            return .success(try PublicationRefresher(store: services.store, maxEntries: services.configuration.maxCatalogEntries, client: services.client,
                                                     maxHeadlines: services.configuration.maxHeadlines).subscribe(to: url).subscribedTitle)
        } catch {
            if services.askForLogin(after: error, at: url, retry: .subscribe(url: url.absoluteString, on: destination)) { return nil }
            return .failure(ReaderFailure("cannot subscribe to \(url.absoluteString): \(error)"))
        }
    }

    /// Unsubscribes: on the account's server first (when it cannot be reached, nothing changes here), then here,
    /// keeping the downloaded issues or not.
    private func unsubscribe(_ publicationID: Int64, keepDownloads: Bool) {
        let store = services.store
        if let publication = try? store.publication(id: publicationID), publication.accountID != nil, let accountSync = services.sync.accountSync {
            do {
                try accountSync.unsubscribe(publication)
            } catch {
                services.report(.notUnsubscribedOnServer(reason: "\(error)"))
                return
            }
        }
        if keepDownloads {
            try? store.unsubscribeKeepingDownloads(publicationID: publicationID)
        } else if let publication = try? store.publication(id: publicationID) {
            try? IssueStorage(store: store, paths: services.paths).removePublication(publication)
        }
    }

    /// Asks for the logins refreshed feeds' servers wanted; each publication is refreshed again once one is given.
    private func askForLogins(_ outcomes: [PublicationRefresher.Outcome]) {
        for outcome in outcomes {
            guard let challenge = outcome.loginRequired else { continue }
            services.send(.loginRequired(host: challenge.host, realm: challenge.realm, retry: .refreshPublication(publicationID: outcome.publicationID)))
        }
    }

    /// Keeps a login the user typed: in memory at once (so the work retried after this effect finds it), and in the
    /// credential store when `remember` (written on `saves`, which quitting waits for).
    private func saveLogin(_ login: Credentials, host text: String, realm: String?, remember: Bool) {
        let services = services
        guard let host = CredentialHost(text) else {
            services.report(.loginNotKept(host: text))
            return
        }
        services.credentials.remember(login, for: host, realm: realm)
        guard remember else {
            services.report(.loginUsedForSession(user: login.user, host: host.description))
            return
        }
        services.saves.async {
            do {
                try services.credentialStore.save(login, for: host, realm: realm)
                services.report(.loginSaved(user: login.user, host: host.description))
            } catch {
                services.report(.loginNotSaved(user: login.user, host: host.description, reason: "\(error)"))
            }
        }
    }

    /// Moves the login in a feed URL as typed (`user:password@`) to the credential store, or, when it cannot be
    /// saved there, keeps it for this session and says why. The URL is subscribed without it either way.
    private func moveLogin(from text: String) {
        let parts = URLCredentials.split(text)
        guard let login = parts.credentials, let host = CredentialHost(parts.address) else { return }
        services.credentials.remember(login, for: host)
        do {
            try services.credentialStore.save(login, for: host)
        } catch {
            services.report(.loginNotSaved(user: login.user, host: host.description, reason: "\(error)"))
        }
    }
}
