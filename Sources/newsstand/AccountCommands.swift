import Foundation
import NewsstandCore

/// `newsstand account add URL`, `account list` and `account remove URL`: accounts on feed servers (the Google Reader
/// API), whose subscriptions, items and read states Newsstand shares. The password goes to the server once, to log
/// in; only the session it gives is kept, with the saved logins.
enum AccountCommands {
    /// The options, read for every action (each says which it takes).
    struct Options {
        var user: String?
        var passwordFromStandardInput: Bool
        var json: Bool
    }

    /// The words after `account`, as the command table offers them for completion.
    static let actions = ["add", "list", "remove"]

    static func run(_ arguments: inout ArgumentList) throws {
        let options = Options(user: arguments.option("--user"), passwordFromStandardInput: arguments.flag("--password-stdin"),
                              json: arguments.flag("--json"))
        let action = try arguments.positional("add, list or remove")
        if action != "add", options.user != nil || options.passwordFromStandardInput {
            throw UsageError("--user and --password-stdin go with account add")
        }
        if action != "list", options.json { throw UsageError("--json goes with account list") }
        switch action {
        case "add": try add(&arguments, options)
        case "list": try list(&arguments, options)
        case "remove": try remove(&arguments)
        default: throw UsageError("account takes add, list or remove, not '\(action)'")
        }
    }

    /// The API's base URL from the command line: http or https, without a login in it.
    static func apiURL(_ text: String) throws -> URL {
        let parts = URLCredentials.split(text)
        guard let url = URL(string: parts.address), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme), url.host != nil else {
            throw UsageError("'\(parts.address)' is not the http or https address of a feed server's API (like https://host/api/greader.php)")
        }
        var text = url.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        return URL(string: text) ?? url
    }

    static func add(_ arguments: inout ArgumentList, _ options: Options) throws {
        let givenUser = options.user
        let passwordFromStandardInput = options.passwordFromStandardInput
        let url = try apiURL(try arguments.positional("URL of the server's API"))
        try arguments.finish()
        let context = try LibraryContext.open()
        let sessions = AccountSessions(store: CredentialStore(paths: context.paths))
        if let problem = sessions.store.problem() { throw CommandFailure(problem) }
        var user = givenUser
        if user?.isEmpty ?? true {
            do {
                user = try TerminalInput.line("User at \(url.host ?? ""): ")?.trimmingCharacters(in: .whitespaces)
            } catch {
                throw CommandFailure("\(error) for the user: give it with --user NAME")
            }
        }
        guard let user, !user.isEmpty else { throw CommandFailure("no user given; no account was added") }
        let password: String?
        if passwordFromStandardInput {
            password = TerminalInput.firstLineOfStandardInput()
        } else {
            do {
                password = try TerminalInput.secret("Password for \(user): ")
            } catch {
                throw CommandFailure("\(error): pipe the password in with --password-stdin")
            }
        }
        guard let password, !password.isEmpty else { throw CommandFailure("no password given; no account was added") }

        let token: String
        do {
            token = try GoogleReaderClient.logIn(baseURL: url, user: user, password: password, http: context.client)
        } catch {
            throw CommandFailure("cannot log in: \(error); no account was added")
        }
        do {
            try sessions.save(token: token, user: user, for: url)
        } catch {
            throw CommandFailure("cannot save the session: \(error); no account was added")
        }
        let account = try context.store.addAccount(kind: .googleReader, url: url, user: user)
        let sync = AccountSync(store: context.store, sessions: sessions, http: context.client, maxHeadlines: context.configuration.maxHeadlines)
        let report = sync.sync(account)
        let subscriptions = "\(report.subscriptions) subscription\(report.subscriptions == 1 ? "" : "s")"
        let items = "\(report.newItems) item\(report.newItems == 1 ? "" : "s")"
        print("Added the account \(user) at \(Self.server(url)): \(subscriptions), \(items).")
        if let problem = report.problem { print("Note: \(problem)") }
    }

    static func list(_ arguments: inout ArgumentList, _ options: Options) throws {
        let json = options.json
        try arguments.finish()
        let context = try LibraryContext.open()
        let accounts = try context.store.accounts()
        let formatter = ISO8601DateFormatter()
        if json {
            let rows: [[String: Any]] = try accounts.map { account in
                let publications = try context.store.publications(accountID: account.id).filter(\.isSubscribed)
                var row: [String: Any] = ["url": account.url.absoluteString, "kind": account.kind.rawValue, "user": account.user,
                                          "subscriptions": publications.map(\.name)]
                row["last_sync"] = account.lastSync.map { formatter.string(from: $0) } ?? NSNull()
                row["last_error"] = account.lastError ?? NSNull()
                return row
            }
            let data = try JSONSerialization.data(withJSONObject: rows, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
            print(String(decoding: data, as: UTF8.self))
            return
        }
        if accounts.isEmpty {
            print("No accounts (newsstand account add URL --user NAME adds one).")
            return
        }
        for account in accounts {
            let count = try context.store.publications(accountID: account.id).filter(\.isSubscribed).count
            var line = "\(account.url.absoluteString)  \(account.user)  \(account.kind.displayName), \(count) subscription\(count == 1 ? "" : "s")"
            line += account.lastSync.map { ", synced \(formatter.string(from: $0))" } ?? ", not synced yet"
            if let error = account.lastError { line += "; last sync: \(error)" }
            print(line)
        }
    }

    static func remove(_ arguments: inout ArgumentList) throws {
        let url = try apiURL(try arguments.positional("URL of the account's API"))
        try arguments.finish()
        let context = try LibraryContext.open()
        guard let account = try context.store.account(url: url) else { throw CommandFailure("\(AccountError.noSuchAccount(url.absoluteString))") }
        let count = try context.store.publications(accountID: account.id).filter(\.isSubscribed).count
        try context.store.removeAccount(id: account.id)
        do {
            try AccountSessions(store: CredentialStore(paths: context.paths)).forget(account.url)
        } catch {
            print("Note: the saved session could not be forgotten: \(error) (newsstand logout \(Self.server(account.url)) forgets it)")
        }
        let kept = count == 0 ? "" : "; its \(count) subscription\(count == 1 ? " stays as a feed" : "s stay as feeds") of your own"
        print("Removed the account \(account.user) at \(Self.server(account.url))\(kept).")
    }

    static func server(_ url: URL) -> String {
        (url.host ?? url.absoluteString) + (url.port.map { ":\($0)" } ?? "")
    }
}
