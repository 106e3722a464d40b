import Foundation
import NewsstandCore

/// `newsstand login` for the progress sync server (`progress-sync URL`): registers first with `--register`, checks
/// the login with the server, and saves what the protocol sends — the MD5 of the password as `x-auth-key` — under
/// the progress-sync realm. The password itself is never stored or shown.
enum ProgressSyncLogin {
    /// Whether `typed` (a URL, HOST or HOST:PORT) names the progress-sync server: its host and port, and a path
    /// within the server's when a path is given.
    static func names(_ server: URL, _ typed: String) -> Bool {
        guard let serverHost = CredentialHost(url: server), let typedHost = CredentialHost(typed), serverHost == typedHost else { return false }
        guard typed.contains("://"), let url = URL(string: typed) else { return true }
        let path = url.path.hasSuffix("/") ? String(url.path.dropLast()) : url.path
        return path.isEmpty || server.path.hasPrefix(path) || path.hasPrefix(server.path)
    }

    static func save(user: String, password: String, server: URL, register: Bool, store: CredentialStore) throws {
        let key = try KOSyncClient.key(forPassword: password)
        let client = KOSyncClient(server: server, user: user, key: key)
        let host = CredentialHost(url: server)!
        do {
            if register { try client.register() }
            try client.authorize()
        } catch let failure as KOSyncClient.Failure {
            throw CommandFailure("\(failure); nothing was saved")
        }
        do {
            try store.save(Credentials(user: user, password: key), for: host, realm: CredentialEntry.progressSyncRealm)
        } catch {
            throw CommandFailure("cannot save the login: \(error)")
        }
        print(register ? "Made the account \(user) at \(host) and saved its login for progress sync."
                       : "Saved the progress sync login for \(user) at \(host).")
    }
}
