import Foundation

/// One request for ``HTTPClient``: what to fetch, how, and within which limits.
public struct HTTPRequest: Sendable {
    /// The methods the client makes: it reads, and posts forms to the APIs of feed servers (accounts).
    public enum Method: String, Sendable {
        case get = "GET"
        case head = "HEAD"
        /// With ``body`` as `application/x-www-form-urlencoded`.
        case post = "POST"
    }

    /// An http or https URL. Credentials do not belong in it: they come from the client's ``CredentialSource``
    /// or from `~/.netrc`.
    public var url: URL
    public var method: Method
    /// Extra request header fields (`If-None-Match`, `Range`, ...). `User-Agent` and `Accept-Encoding` are the
    /// client's: set ``decodesContent`` instead of the latter.
    public var headers: [String: String]
    public var limits: HTTPLimits
    /// A POST's form (`a=1&b=2`, already encoded); it may carry a password, so it is never logged or named in an error.
    public var body: String?
    /// Whether the client's rate limit (``HTTPClient/setRateLimit(bytesPerSecond:)``) applies: downloads, not feeds.
    public var isRateLimited: Bool
    /// Ask for gzip, deflate, brotli or zstd and decode them (`Accept-Encoding` with everything libcurl knows).
    /// Turn it off for ranged requests of files, whose bytes must arrive exactly as stored.
    public var decodesContent: Bool

    public init(url: URL, method: Method = .get, headers: [String: String] = [:], limits: HTTPLimits = HTTPLimits(),
                isRateLimited: Bool = false, decodesContent: Bool = true) {
        self.url = url
        self.method = method
        self.headers = headers
        self.limits = limits
        self.isRateLimited = isRateLimited
        self.decodesContent = decodesContent
    }

    /// The host named in messages: never the user or password a URL may carry.
    var hostForMessages: String { url.host ?? "the server" }
}
