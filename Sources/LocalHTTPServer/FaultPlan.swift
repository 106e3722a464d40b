/// Faults a ``LocalHTTPServer`` injects into its responses, for exercising a client's error handling.
///
/// Assigning a plan to ``LocalHTTPServer/faults`` resets the server's fault counters, so
/// `failFirstRequests` and `dropCount` count from the moment of assignment.
/// Faults are applied in this order: `failFirstRequests`, `requiredProxyLogin`, `requiredLogin`, `redirectLoop`,
/// `redirectTo`, `endlessBody`, `gzipBombInflatedBytes` (these last four for any path), `htmlErrorPageWith200`,
/// then (for a found resource) `ignoreRange`, `wrongContentLength`, `dropConnectionAfterBytes`,
/// `stallAfterBytes` and `slowDrip`.
public struct FaultPlan: Sendable {
    /// Close the socket after sending this many body bytes (the announced Content-Length stays the full length).
    /// Applies to the next `dropCount` GET responses that carry a resource body (200 or 206); `nil` = never.
    public var dropConnectionAfterBytes: Int?
    /// How many responses `dropConnectionAfterBytes` applies to. Default 1.
    public var dropCount: Int
    /// Answer the first `count` requests (any path, GET or HEAD) with `status`, adding `Retry-After: retryAfter`
    /// when given; later requests are served normally. For example `(2, 503, nil)` or `(1, 429, 1)`.
    public var failFirstRequests: (count: Int, status: Int, retryAfter: Int?)?
    /// Announce a Content-Length larger (by 1024) than the bytes actually sent, then close the connection.
    public var wrongContentLength: Bool
    /// Answer 200 with the full body even when a Range is asked for (and say `Accept-Ranges: none`).
    public var ignoreRange: Bool
    /// Answer 200 `text/html` with an HTML error page instead of the resource (a captive-portal-like failure).
    public var htmlErrorPageWith200: Bool
    /// Leave the whole length out of a 206's Content-Range (`bytes N-M/*`), as servers of generated files do.
    public var unknownTotalInRanges: Bool
    /// Answer every GET with 200 and a body that never ends (no Content-Length; lines of XML-ish text) until the
    /// client goes away or the server stops.
    public var endlessBody: Bool
    /// Answer every GET with 200, `Content-Encoding: gzip` and a body about 1/1,032 of this size that inflates to
    /// about this many zero bytes: a gzip bomb, made as it is sent (a valid gzip stream, CRC included).
    public var gzipBombInflatedBytes: Int64?
    /// Send a resource's body one byte a second (whatever ``LocalHTTPServer/bytesPerSecond`` says).
    public var slowDrip: Bool
    /// Send this many body bytes of a resource, then nothing, keeping the connection open until the client goes
    /// away or the server stops (at most ``LocalHTTPServer``'s connection timeout): a server that stops answering.
    public var stallAfterBytes: Int?
    /// Answer every GET or HEAD with `302 Found` and `Location:` the request's own target, forever.
    public var redirectLoop: Bool
    /// Answer every GET or HEAD with `302 Found` and `Location:` this URL.
    public var redirectTo: String?
    /// Answer `401 Unauthorized` with a Basic or Digest challenge (`WWW-Authenticate`) unless the request's
    /// `Authorization` proves this login.
    public var requiredLogin: RequiredLogin?
    /// Act as a proxy that asks for a login: `407 Proxy Authentication Required` with `Proxy-Authenticate: Basic`
    /// unless `Proxy-Authorization` proves this login (Basic only); then serve the request's path (an absolute-form
    /// target, `GET http://host/path HTTP/1.1`, is served by its path). Also answers CONNECT, with 407 or 405.
    public var requiredProxyLogin: RequiredLogin?

    /// A plan with no faults.
    public init() {
        dropConnectionAfterBytes = nil
        dropCount = 1
        failFirstRequests = nil
        wrongContentLength = false
        ignoreRange = false
        htmlErrorPageWith200 = false
        unknownTotalInRanges = false
        endlessBody = false
        gzipBombInflatedBytes = nil
        slowDrip = false
        stallAfterBytes = nil
        redirectLoop = false
        redirectTo = nil
        requiredLogin = nil
        requiredProxyLogin = nil
    }
}
