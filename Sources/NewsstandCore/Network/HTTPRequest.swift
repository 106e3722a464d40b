import Foundation

/// One request for ``HTTPClient``: what to fetch, how, and within which limits.
public struct HTTPRequest: Sendable {
    /// The methods the client makes: reads, forms posted to feed servers' APIs (accounts) and the small JSON
    /// writes of progress sync.
    public enum Method: String, Sendable {
        case get = "GET"
        case head = "HEAD"
        /// With ``body``: a form (`application/x-www-form-urlencoded`, libcurl's default) unless `headers` say otherwise.
        case post = "POST"
        case put = "PUT"
    }

    /// An http or https URL. Credentials do not belong in it: they come from the client's ``CredentialSource``
    /// or from `~/.netrc`.
    public var url: URL
    public var method: Method
    /// Extra request header fields (`If-None-Match`, `Range`, ...). `User-Agent` and `Accept-Encoding` are the
    /// client's: set ``decodesContent`` instead of the latter.
    public var headers: [String: String]
    public var limits: HTTPLimits
    /// Whether the client's rate limit (``HTTPClient/setRateLimit(bytesPerSecond:)``) applies: downloads, not feeds.
    public var isRateLimited: Bool
    /// Ask for gzip, deflate, brotli or zstd and decode them (`Accept-Encoding` with everything libcurl knows).
    /// Turn it off for ranged requests of files, whose bytes must arrive exactly as stored.
    public var decodesContent: Bool
    /// The body sent with a POST or PUT: a form (`a=1&b=2`, already encoded) or JSON with its `Content-Type` in
    /// `headers`. It may carry a password, so it is never logged or named in an error.
    public var body: Data?
    /// Whether every status is an answer whose body is read (the caller judges it), not only 2xx and 304: for APIs
    /// that explain their errors in the body. 401 then does not look for a login either.
    public var acceptsAnyStatus: Bool
    /// Whether logins from the client's credential source and `.netrc` are offered (an API that sends its own
    /// credentials in header fields turns it off).
    public var usesStoredLogins: Bool

    public init(url: URL, method: Method = .get, headers: [String: String] = [:], limits: HTTPLimits = HTTPLimits(),
                isRateLimited: Bool = false, decodesContent: Bool = true, body: Data? = nil, acceptsAnyStatus: Bool = false,
                usesStoredLogins: Bool = true) {
        self.url = url
        self.method = method
        self.headers = headers
        self.limits = limits
        self.isRateLimited = isRateLimited
        self.decodesContent = decodesContent
        self.body = body
        self.acceptsAnyStatus = acceptsAnyStatus
        self.usesStoredLogins = usesStoredLogins
    }

    /// The host named in messages: never the user or password a URL may carry.
    var hostForMessages: String { url.host ?? "the server" }
}
