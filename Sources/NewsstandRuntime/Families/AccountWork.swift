import Foundation
import NewsstandContent
import NewsstandCore
import NewsstandUI

/// Feed-server accounts and progress sync: the accounts screen's list, adding (logging in) and removing accounts,
/// sending the marks queued for an account's server, and reading positions shared with a kosync server.
/// Its network work runs on `network`, the refresh queue, so an account is never synced twice at once.
final class AccountWork: EffectFamily {
    private let services: RuntimeServices
    private let library: LibraryWindows
    /// Account changes that need no server (the list, removing one).
    private let queue = DispatchQueue(label: "newsstand.accounts", qos: .userInitiated)
    /// Logging in, syncing an account and sending its marks: shared with refreshes.
    private let network: DispatchQueue
    /// Reading positions shared with a kosync server; nil when progress sync is off.
    let progressSync: ProgressSyncWork?

    init(services: RuntimeServices, library: LibraryWindows, network: DispatchQueue) {
        self.services = services
        self.library = library
        self.network = network
        let configuration = services.configuration
        progressSync = configuration.progressSync.isOn
            ? ProgressSyncWork(service: ProgressSyncService(settings: configuration.progressSync, store: services.store, paths: services.paths,
                                                           credentials: services.credentialStore, http: services.client), send: services.send)
            : nil
    }

    func perform(_ effect: Effect) {
        switch effect {
        case .loadAccounts:
            queue.async { self.sendAccounts() }
        case .addAccount(let text, let credentials):
            network.async {
                self.addAccount(text, credentials)
                self.sendAccounts()
                self.services.sendLibrary()
            }
        case .removeAccount(let text):
            queue.async {
                self.removeAccount(text)
                self.sendAccounts()
                self.services.sendLibrary()
            }
        case .pushProgress(let issueID):
            services.saves.async { self.progressSync?.pushNow(issueID: issueID) }
        case .resumeProgressSync:
            progressSync?.resume()
        case .saveLogin(_, _, let login, let remember):
            // Progress sync keeps a key made from the password, checked with its server first.
            progressSync?.logIn(login, remember: remember)
        default:
            break
        }
    }

    /// Sends the queued marks of the account an issue comes from, in the background (after `N`, opening an issue);
    /// when the server cannot be reached they stay queued for the next refresh.
    func sendMarks(ofIssue issueID: Int64) {
        network.async {
            guard let issue = try? self.services.store.issue(id: issueID) else { return }
            self.sendMarksNow(ofPublication: issue.publicationID)
        }
    }

    /// Sends the queued marks of the account a publication comes from (after `N` or `*` on a headline, opening one).
    func sendMarks(ofPublication publicationID: Int64) {
        network.async { self.sendMarksNow(ofPublication: publicationID) }
    }

    private func sendMarksNow(ofPublication publicationID: Int64) {
        let store = services.store
        guard let accountSync = services.sync.accountSync, let accountID = (try? store.publication(id: publicationID))?.accountID,
              let account = (try? store.accounts())?.first(where: { $0.id == accountID }) else { return }
        _ = try? accountSync.sendMarks(of: account)
    }

    /// Reads the accounts for the accounts screen.
    private func sendAccounts() {
        services.send(.accountsLoaded((try? AccountSummary.all(in: services.store)) ?? []))
    }

    /// Logs in to a feed server's API, saves the session (never the password) and the account, and syncs it.
    private func addAccount(_ text: String, _ credentials: Credentials) {
        var address = text.trimmingCharacters(in: .whitespaces)
        while address.hasSuffix("/") { address.removeLast() }
        guard let url = URL(string: address), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil else {
            services.report(.notAnAccountAddress(address))
            return
        }
        do {
            let token = try GoogleReaderClient.logIn(baseURL: url, user: credentials.user, password: credentials.password, http: services.client)
            let sessions = AccountSessions(store: services.credentialStore)
            try sessions.save(token: token, user: credentials.user, for: url)
            let account = try services.store.addAccount(kind: .googleReader, url: url, user: credentials.user)
            let report = services.sync.accountSync?.sync(account)
            let count = report?.subscriptions ?? 0
            services.report(.accountAdded(user: credentials.user, subscriptions: count, problem: report?.problem))
        } catch {
            services.report(.accountNotAdded(reason: "\(error)"))
        }
    }

    /// Removes an account; its subscriptions stay as feeds of the user's own.
    private func removeAccount(_ text: String) {
        do {
            guard let url = URL(string: text), let account = try services.store.account(url: url) else { return }
            try services.store.removeAccount(id: account.id)
            try? AccountSessions(store: services.credentialStore).forget(account.url)
            services.report(.accountRemoved(user: account.user))
        } catch {
            services.report(.accountNotRemoved(reason: "\(error)"))
        }
    }
}
