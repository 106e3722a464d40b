/// A saved login as lists show it: the server, the realm and the user, never the password.
public struct SavedLogin: Sendable, Equatable, CustomStringConvertible {
    public var host: CredentialHost
    public var realm: String?
    public var user: String

    public init(host: CredentialHost, realm: String?, user: String) {
        self.host = host
        self.realm = realm
        self.user = user
    }

    /// `alice at example.com`, with the realm when there is one.
    public var description: String { "\(user) at \(host)" + (realm.map { " (realm “\($0)”)" } ?? "") }
}
