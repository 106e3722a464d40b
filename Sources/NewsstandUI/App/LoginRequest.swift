import NewsstandCore

/// A server that asked for a login (HTTP 401), and the work to do again once one is given.
public struct LoginRequest: Equatable, Sendable {
    /// The server as `CredentialHost` writes it: `example.com`, `example.com:8080`, `[::1]:8080`.
    public var host: String
    /// The realm of the server's challenge, when it named one.
    public var realm: String?
    /// The effects that failed for want of this login, carried out again (in order) after it is given.
    public var retries: [Effect]

    public init(host: String, realm: String?, retries: [Effect]) {
        self.host = host
        self.realm = realm.flatMap { $0.isEmpty ? nil : $0 }
        self.retries = retries
    }

    /// Whether `other` asks for the same login (same host and realm).
    func isSameLogin(as other: LoginRequest) -> Bool {
        host == other.host && realm == other.realm
    }

    /// `127.0.0.1:8080`, `127.0.0.1:8080 (Library)` or `127.0.0.1:8080 (progress sync)`: the server as prompts name it.
    var serverText: String {
        if realm == CredentialEntry.progressSyncRealm { return host + " (progress sync)" }
        return host + (realm.map { " (\($0))" } ?? "")
    }
}
