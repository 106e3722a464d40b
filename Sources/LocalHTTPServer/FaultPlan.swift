/// Faults a ``LocalHTTPServer`` injects into its responses, for exercising a client's error handling.
///
/// Assigning a plan to ``LocalHTTPServer/faults`` resets the server's fault counters, so
/// `failFirstRequests` and `dropCount` count from the moment of assignment.
/// Faults are applied in this order: `failFirstRequests`, `htmlErrorPageWith200`,
/// then (for a found resource) `ignoreRange`, `wrongContentLength` and `dropConnectionAfterBytes`.
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

    /// A plan with no faults.
    public init() {
        dropConnectionAfterBytes = nil
        dropCount = 1
        failFirstRequests = nil
        wrongContentLength = false
        ignoreRange = false
        htmlErrorPageWith200 = false
        unknownTotalInRanges = false
    }
}
