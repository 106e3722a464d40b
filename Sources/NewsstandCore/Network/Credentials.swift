/// A user name and password for a server (HTTP Basic or Digest).
/// Never printed: `description` hides the password, so it cannot reach a log or an error message by accident.
public struct Credentials: Sendable, Equatable, CustomStringConvertible {
    public var user: String
    public var password: String

    public init(user: String, password: String) {
        self.user = user
        self.password = password
    }

    public var description: String { "\(user):••••••" }
}

/// Where the network layer looks up the login for a server: the library's credential store first, then
/// `~/.netrc` (which libcurl reads itself).
public protocol CredentialSource: Sendable {
    /// The login for `host` (and `port`, when not the scheme's default) and the realm the server named, if any.
    func credentials(forHost host: String, port: Int?, realm: String?) -> Credentials?
}
