import Foundation
import NewsstandCore

/// `newsstand subscribe URL` and `newsstand unsubscribe PUBLICATION`.
enum SubscriptionCommands {
    static func subscribe(_ arguments: inout ArgumentList) throws {
        let policyText = arguments.option("--auto-download")
        let keep = try arguments.integerOption("--keep", range: 1...10_000)
        let fullTextText = arguments.option("--full-text")
        let accountText = arguments.option("--account")
        let ownFeed = arguments.flag("--no-account")
        // --local: the older spelling (hidden).
        let noAccount = arguments.flag("--local") || ownFeed
        let text = try arguments.positional("URL of a catalog")
        try arguments.finish()
        if accountText != nil, noAccount { throw UsageError("--account and --no-account do not go together: choose one") }
        let policy = try policyText.map { text -> AutoDownloadPolicy in
            guard let policy = AutoDownloadPolicy(rawValue: text) else { throw UsageError("--auto-download takes none, latest or all, not '\(text)'") }
            return policy
        }
        let fullText = try fullTextText.map { text -> FullTextMode in
            guard let mode = FullTextMode(rawValue: text) else { throw UsageError("--full-text takes \(FullTextMode.spelledOut), not '\(text)'") }
            return mode
        }
        let context = try LibraryContext.open()
        let parsed: (url: URL, saved: SavedLogin?)?
        do {
            parsed = try SubscriptionURL.parseMovingLogin(text, into: CredentialStore(paths: context.paths))
        } catch {
            throw CommandFailure("cannot save the login in the URL, so nothing was subscribed: \(error)")
        }
        guard let (url, saved) = parsed else {
            throw CommandFailure("only http, https and file URLs (or a path) can be subscribed to")
        }
        if let saved { print("Saved the login for \(saved.user) at \(saved.host).") }
        if let account = try account(for: url, named: accountText, noAccount: noAccount, in: context) {
            let sync = AccountSync(store: context.store, sessions: AccountSessions(store: CredentialStore(paths: context.paths)),
                                   http: context.client, maxHeadlines: context.configuration.maxHeadlines)
            let result: (publication: Publication?, report: AccountSync.Report)
            do {
                result = try sync.subscribe(account, to: url)
            } catch {
                throw CommandFailure("cannot subscribe to \(url.absoluteString) on \(AccountCommands.server(account.url)): \(error)")
            }
            guard let publication = result.publication else {
                throw CommandFailure("subscribed to \(url.absoluteString) on \(AccountCommands.server(account.url)), but the sync that followed failed: \(result.report.problem ?? "it did not list it")")
            }
            if policy != nil || keep != nil {
                try context.store.setPolicy(publicationID: publication.id, autoDownload: policy ?? publication.autoDownload, keepNewest: keep ?? publication.keepNewest)
            }
            if let fullText { try context.store.setFullText(fullText, publicationID: publication.id) }
            let count = try context.store.issues(publicationID: publication.id).count
            print("Subscribed to \(publication.title) (\(publication.name)) on the account \(account.user) at \(AccountCommands.server(account.url)): \(count) issue\(count == 1 ? "" : "s").")
            return
        }
        do {
            let refresher = PublicationRefresher(store: context.store, maxEntries: context.configuration.maxCatalogEntries, client: context.client,
                                                 maxHeadlines: context.configuration.maxHeadlines)
            let publication = try refresher.subscribe(to: url)
            if policy != nil || keep != nil {
                try context.store.setPolicy(publicationID: publication.id, autoDownload: policy ?? publication.autoDownload, keepNewest: keep ?? publication.keepNewest)
            }
            if let fullText { try context.store.setFullText(fullText, publicationID: publication.id) }
            let count = try context.store.issues(publicationID: publication.id).count
            let issues = "\(count) issue\(count == 1 ? "" : "s")"
            if publication.catalogFeedTitle != nil {
                // A catalog root: which of its feeds became the shelf.
                print("Subscribed to \(publication.subscribedTitle): \(issues), as \(publication.name).")
            } else {
                print("Subscribed to \(publication.title) (\(publication.name)): \(issues).")
            }
            if let problem = publication.lastError { print("Note: \(problem)") }
        } catch let error as HTTPError {
            if case .loginRequired = error {
                throw CommandFailure("cannot subscribe to \(url.absoluteString): \(error); save one with `newsstand login \(url.absoluteString)`")
            }
            throw CommandFailure("cannot subscribe to \(url.absoluteString): \(error)")
        } catch {
            throw CommandFailure("cannot subscribe to \(url.absoluteString): \(error)")
        }
    }

    /// The account a feed is subscribed on: the one `--account` names, none with `--no-account` or for a feed that is
    /// not on the web, else the only one there is. With several and no choice, nothing is subscribed: the user says which.
    private static func account(for url: URL, named text: String?, noAccount: Bool, in context: LibraryContext) throws -> Account? {
        let isWebFeed = ["http", "https"].contains(url.scheme?.lowercased() ?? "")
        let accounts = try context.store.accounts()
        if let text {
            let wanted = try AccountCommands.apiURL(text)
            guard let account = accounts.first(where: { $0.url == wanted }) else {
                throw CommandFailure("\(AccountError.noSuchAccount(wanted.absoluteString)); nothing was subscribed")
            }
            guard isWebFeed else { throw CommandFailure("only http and https feeds can be subscribed on an account's server; nothing was subscribed") }
            return account
        }
        guard !noAccount, isWebFeed, !accounts.isEmpty else { return nil }
        guard accounts.count == 1 else {
            let choices = accounts.map { "--account \($0.url.absoluteString) (\($0.user))" }.joined(separator: ", ")
            throw CommandFailure("there are \(accounts.count) accounts: say which to subscribe on with \(choices), or --no-account for a feed of your own; nothing was subscribed")
        }
        return accounts[0]
    }

    static func unsubscribe(_ arguments: inout ArgumentList) throws {
        let keepDownloads = arguments.flag("--keep-downloads")
        let reference = try arguments.positional("publication name")
        try arguments.finish()
        let context = try LibraryContext.open()
        guard let publication = try context.store.findPublication(reference) else {
            throw CommandFailure("no publication named '\(reference)'")
        }
        if publication.accountID != nil, publication.isSubscribed {
            // On the account's server first: if that fails, nothing changes here.
            let sync = AccountSync(store: context.store, sessions: AccountSessions(store: CredentialStore(paths: context.paths)), http: context.client)
            do {
                try sync.unsubscribe(publication)
            } catch {
                throw CommandFailure("cannot unsubscribe from \(publication.title) on its account's server: \(error); nothing was changed")
            }
        }
        if keepDownloads {
            try context.store.unsubscribeKeepingDownloads(publicationID: publication.id)
            print("Unsubscribed from \(publication.title); its downloaded issues stay on the shelf.")
            return
        }
        try IssueStorage(store: context.store, paths: context.paths).removePublication(publication)
        print("Unsubscribed from \(publication.title); its downloaded issues were removed.")
    }
}
