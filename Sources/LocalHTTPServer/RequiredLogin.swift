/// A login the server asks for (``FaultPlan/requiredLogin``) or, acting as a proxy, its proxy asks for
/// (``FaultPlan/requiredProxyLogin``, Basic only).
public struct RequiredLogin: Sendable, Equatable {
    /// How the login is asked for and checked.
    public enum Scheme: Sendable, Equatable {
        /// `WWW-Authenticate: Basic realm="..."`; `Authorization: Basic base64(user:password)`.
        case basic
        /// RFC 7616 with MD5 and `qop="auth"` (what libcurl and browsers answer); one nonce per server.
        case digest
    }

    public var scheme: Scheme
    public var realm: String
    public var user: String
    public var password: String

    public init(scheme: Scheme = .basic, realm: String = "LocalHTTPServer", user: String, password: String) {
        self.scheme = scheme
        self.realm = realm
        self.user = user
        self.password = password
    }
}
