/// One saved login: the server, the realm it answers for (nil: any realm of that server) and the user and password.
public struct CredentialEntry: Sendable, Equatable, CustomStringConvertible {
    public var host: CredentialHost
    /// The realm the server names in its `WWW-Authenticate` challenge; nil matches every realm of the host.
    public var realm: String?
    public var credentials: Credentials

    public init(host: CredentialHost, realm: String?, credentials: Credentials) {
        self.host = host
        self.realm = realm.flatMap { $0.isEmpty ? nil : $0 }
        self.credentials = credentials
    }

    /// The realms accounts' sessions are saved under start with this (see ``AccountSessions``).
    public static let accountSessionRealmPrefix = "newsstand account session "

    /// Whether this is an account's session token rather than a login a server asks for.
    public var isAccountSession: Bool { realm?.hasPrefix(Self.accountSessionRealmPrefix) ?? false }

    /// The entry without its password, for lists.
    public var login: SavedLogin { SavedLogin(host: host, realm: realm, user: credentials.user) }

    /// Never shows the password.
    public var description: String { "\(credentials.user) at \(host)" + (realm.map { " (realm “\($0)”)" } ?? "") }

    /// The entry that serves a request to `host`/`port` challenged for `realm`, among `entries` (oldest first):
    /// with a realm, the entry for exactly that realm, else the host's entry without a realm; with no realm
    /// (before any challenge), the host's entry without a realm, else its most recently saved one.
    /// Hosts are compared without case, ports exactly (nil being the scheme's default).
    /// An account's session (``AccountSessions``) is never one: it is not a password for HTTP.
    static func best(in entries: [CredentialEntry], host: String, port: Int?, realm: String?) -> CredentialEntry? {
        let server = CredentialHost(host: host, port: port)
        let candidates = entries.filter { $0.host == server && !$0.isAccountSession }
        if let realm, !realm.isEmpty, realm != progressSyncRealm {
            return candidates.last { $0.realm == realm } ?? candidates.last { $0.realm == nil }
        }
        // A progress-sync login holds a key for that protocol's own header fields: it is never an HTTP login.
        return candidates.last { $0.realm == nil } ?? candidates.last { $0.realm != progressSyncRealm }
    }
}
