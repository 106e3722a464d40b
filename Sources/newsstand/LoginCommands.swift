import Foundation
import NewsstandCore

/// `newsstand login URL`, `newsstand logout HOST` and `newsstand logins`: the logins kept in the credential store.
/// A password is never printed, and never taken from the command line itself (except inside a URL, accepted once).
enum LoginCommands {
    static func login(_ arguments: inout ArgumentList) throws {
        let givenUser = arguments.option("--user")
        let passwordFromStandardInput = arguments.flag("--password-stdin")
        let register = arguments.flag("--register")
        let text = try arguments.positional("URL or host of the server")
        try arguments.finish()
        let parts = URLCredentials.split(text)
        guard let host = CredentialHost(parts.address) else {
            throw UsageError("'\(parts.address)' is not a server: give its URL, or HOST or HOST:PORT")
        }
        let paths = LibraryPaths.fromEnvironment()
        let progressSync = Configuration.load(from: paths.configFile).progressSync
        let isProgressSync = progressSync.server.map { ProgressSyncLogin.names($0, parts.address) } ?? false
        if register && !isProgressSync {
            throw UsageError("--register makes an account on a progress sync server: set progress-sync URL in the config to that server first")
        }
        let store = CredentialStore(paths: paths)
        // Fail before asking anything when the login could not be saved anyway.
        if let problem = store.problem() { throw CommandFailure(problem) }

        var user = givenUser ?? parts.user
        if user?.isEmpty ?? true {
            let typed: String?
            do {
                typed = try TerminalInput.line("User for \(host): ")
            } catch {
                throw CommandFailure("\(error) for the user: give it with --user NAME")
            }
            user = typed?.trimmingCharacters(in: .whitespaces)
        }
        guard let user, !user.isEmpty else { throw CommandFailure("no user given; nothing was saved") }

        let password: String?
        if passwordFromStandardInput {
            password = TerminalInput.firstLineOfStandardInput()
        } else if let fromURL = parts.password, !fromURL.isEmpty {
            password = fromURL
        } else {
            do {
                password = try TerminalInput.secret("Password for \(user) at \(host): ")
            } catch {
                throw CommandFailure("\(error): pipe the password in with --password-stdin")
            }
        }
        guard let password, !password.isEmpty else { throw CommandFailure("no password given; nothing was saved") }

        if isProgressSync, let server = progressSync.server {
            try ProgressSyncLogin.save(user: user, password: password, server: server, register: register, store: store)
            return
        }
        do {
            try store.save(Credentials(user: user, password: password), for: host)
        } catch {
            throw CommandFailure("cannot save the login: \(error)")
        }
        print("Saved the login for \(user) at \(host).")
    }

    static func logout(_ arguments: inout ArgumentList) throws {
        let text = try arguments.positional("host")
        try arguments.finish()
        guard let host = CredentialHost(URLCredentials.split(text).address) else {
            throw UsageError("'\(URLCredentials.split(text).address)' is not a host: give HOST, HOST:PORT or a URL")
        }
        let store = CredentialStore(paths: LibraryPaths.fromEnvironment())
        let forgotten: [SavedLogin]
        do {
            // A port given names that port's logins; none, every login of the host.
            forgotten = host.port == nil ? try store.forget(host: host.host) : try store.forget(host)
        } catch {
            throw CommandFailure("cannot forget the logins: \(error)")
        }
        if forgotten.isEmpty {
            print("No login was saved for \(host).")
        } else {
            let users = Set(forgotten.map(\.user)).sorted().joined(separator: ", ")
            print("Forgot \(forgotten.count == 1 ? "the login" : "\(forgotten.count) logins") for \(host) (\(users)).")
        }
    }

    static func logins(_ arguments: inout ArgumentList) throws {
        try arguments.finish()
        let store = CredentialStore(paths: LibraryPaths.fromEnvironment())
        let logins: [SavedLogin]
        do {
            logins = try store.logins()
        } catch {
            throw CommandFailure("\(error)")
        }
        if logins.isEmpty {
            print("No logins are saved (newsstand login URL saves one).")
            return
        }
        let width = logins.map { $0.host.description.count }.max() ?? 0
        for login in logins.sorted(by: { ($0.host.description, $0.realm ?? "") < ($1.host.description, $1.realm ?? "") }) {
            let host = login.host.description.padding(toLength: width, withPad: " ", startingAt: 0)
            let realm = login.realm == CredentialEntry.progressSyncRealm ? "  (progress sync)" : login.realm.map { "  (realm “\($0)”)" } ?? ""
            print("\(host)  \(login.user)" + realm)
        }
    }
}
