import Foundation

/// How much, how long and how slowly a transfer may go before the client stops it, and the words its error
/// messages use for them.
///
/// The size limits are checked as the bytes arrive, so a transfer stops the moment one is passed: no more than
/// the limit ever reaches the sink, whatever the server sends or announces.
public struct HTTPLimits: Sendable, Equatable {
    /// Stop when the transfer makes less than `bytesPerSecond` for `seconds` (libcurl's low-speed limit):
    /// a server that stops sending, or drips.
    public struct LowSpeed: Sendable, Equatable {
        public var bytesPerSecond: Int
        public var seconds: Int

        public init(bytesPerSecond: Int, seconds: Int) {
            self.bytesPerSecond = max(1, bytesPerSecond)
            self.seconds = max(1, seconds)
        }
    }

    /// The most body bytes after decoding (gzip, deflate, brotli): what the sink would receive. nil = no limit.
    public var maxBodyBytes: Int64?
    /// The most body bytes as they come off the network (before decoding). nil = no limit.
    public var maxReceivedBytes: Int64?
    /// The longest the whole transfer may take, connecting included. nil = no limit (a download may take hours).
    public var deadline: TimeInterval?
    /// The longest connecting may take (name resolution and TLS included).
    public var connectTimeout: TimeInterval
    /// nil = none.
    public var lowSpeed: LowSpeed?
    /// How many redirects are followed; one more fails with ``HTTPError/tooManyRedirects(host:limit:)``.
    public var maxRedirects: Int

    /// What the body is, for messages: "the feed", "the cover".
    public var subject: String
    /// The size limits' name, for messages: "feed size limit".
    public var sizeLimitName: String
    /// How to change the size limits, when the user can: "set feed-size-limit in the config file".
    public var sizeLimitRemedy: String?

    public init(maxBodyBytes: Int64? = nil, maxReceivedBytes: Int64? = nil, deadline: TimeInterval? = nil,
                connectTimeout: TimeInterval = 15, lowSpeed: LowSpeed? = LowSpeed(bytesPerSecond: 1, seconds: 30),
                maxRedirects: Int = 10, subject: String = "the response", sizeLimitName: String = "size limit",
                sizeLimitRemedy: String? = nil) {
        self.maxBodyBytes = maxBodyBytes
        self.maxReceivedBytes = maxReceivedBytes
        self.deadline = deadline
        self.connectTimeout = connectTimeout
        self.lowSpeed = lowSpeed
        self.maxRedirects = maxRedirects
        self.subject = subject
        self.sizeLimitName = sizeLimitName
        self.sizeLimitRemedy = sizeLimitRemedy
    }

    /// A feed or catalog: at most 64 MB received and decoded, within 60 s, stopping when less than 1 KB a second
    /// arrives for 30 s (a server that stops sending, or drips a byte a second, gives up then, not at the deadline).
    public static let feed = HTTPLimits(maxBodyBytes: 64 << 20, maxReceivedBytes: 64 << 20, deadline: 60,
                                        lowSpeed: LowSpeed(bytesPerSecond: minimumRate, seconds: 30),
                                        subject: "the feed", sizeLimitName: "feed size limit")

    /// The slowest a feed, catalog page, cover or picture may arrive (bytes a second) for longer than its timeout:
    /// 1 KB/s, far below any real connection, far above a server that drips.
    public static let minimumRate = 1024

    /// A cover picture: at most `maxBytes` received and decoded, within 30 s.
    public static func cover(maxBytes: Int64) -> HTTPLimits {
        HTTPLimits(maxBodyBytes: maxBytes, maxReceivedBytes: maxBytes, deadline: 30, lowSpeed: LowSpeed(bytesPerSecond: 1, seconds: 15),
                   subject: "the cover", sizeLimitName: "cover size limit")
    }
}
