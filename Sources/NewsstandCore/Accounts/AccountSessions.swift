import Foundation

/// Where an account's session (the server's `Auth` token) is kept: with the saved logins, in the credential store
/// (mode 0600, never in the library), under a realm of its own that the HTTP client never offers to a server
/// (``CredentialEntry/isAccountSession``). `newsstand logins` lists it like a login, without the token.
public struct AccountSessions: Sendable {
    public let store: CredentialStore

    public init(store: CredentialStore) {
        self.store = store
    }

    /// The realm an account's session is saved under: the API's path on its host.
    static func realm(for url: URL) -> String {
        CredentialEntry.accountSessionRealmPrefix + (url.path.isEmpty ? "/" : url.path)
    }

    public func save(token: String, user: String, for url: URL) throws {
        guard let host = CredentialHost(url: url) else { throw AccountError.session("\(url.absoluteString) names no server") }
        try store.save(Credentials(user: user, password: token), for: host, realm: Self.realm(for: url))
    }

    /// The saved session's token, or nil.
    public func token(for url: URL) -> String? {
        guard let host = CredentialHost(url: url), let entries = try? store.entries() else { return nil }
        let realm = Self.realm(for: url)
        return entries.last { $0.host == host && $0.realm == realm }?.credentials.password
    }

    public func forget(_ url: URL) throws {
        guard let host = CredentialHost(url: url) else { return }
        try store.forget(host: host, realm: Self.realm(for: url))
    }
}
