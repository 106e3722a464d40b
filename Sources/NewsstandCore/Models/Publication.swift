import Foundation

/// A subscribed publication: where its catalog lives and how its last refresh went.
public struct Publication: Sendable, Equatable, Identifiable {
    public let id: Int64
    /// Short unique name used on the command line and for folders (a slug of the title).
    public var name: String
    public var title: String
    /// The feed's address, parsed from `feedAddress` when asked: the shelf reads every publication at start (its
    /// header's tabs; 1,000 in a large library) and needs none of their addresses, each costing microseconds to parse.
    public var feedURL: URL {
        get { URL(string: feedAddress) ?? URL(fileURLWithPath: "/") }
        set { feedAddress = newValue.absoluteString }
    }
    /// `feedURL` as text, as the library keeps it.
    public internal(set) var feedAddress: String
    public var lastRefresh: Date?
    /// Why the last refresh failed or what it had to skip, in plain words; nil when all went well.
    public var lastError: String?
    /// False once unsubscribed with its downloaded issues kept: still readable, never refreshed.
    public var isSubscribed: Bool
    public var autoDownload: AutoDownloadPolicy
    /// Downloaded issues to keep (older ones are removed after a sync); nil keeps all.
    public var keepNewest: Int?
    /// The format the feed was last read as (nil before its first successful read).
    public var feedFormat: FeedFormat?
    /// The catalog root this publication was subscribed through (an OPDS navigation feed), and the title
    /// of the feed of it chosen as the shelf (`feedURL`); nil for a feed subscribed directly.
    public var catalogRoot: URL?
    public var catalogFeedTitle: String?
    /// The account this publication comes from (its subscriptions on a feed server), and the server's id of the
    /// feed (`feed/2`); nil for a feed of one's own, fetched by Newsstand itself.
    public var accountID: Int64?
    public var accountStream: String?
    /// When its headlines get their whole article (`full-text`); nil: the config's `full-text` (default `ask`).
    public var fullText: FullTextMode?

    public init(id: Int64, name: String, title: String, feedURL: URL, lastRefresh: Date? = nil, lastError: String? = nil,
                isSubscribed: Bool = true, autoDownload: AutoDownloadPolicy = .none, keepNewest: Int? = nil, feedFormat: FeedFormat? = nil) {
        self.init(id: id, name: name, title: title, feedAddress: feedURL.absoluteString, lastRefresh: lastRefresh, lastError: lastError,
                  isSubscribed: isSubscribed, autoDownload: autoDownload, keepNewest: keepNewest, feedFormat: feedFormat)
    }

    /// With the feed's address as the library keeps it (`feedAddress`), parsed only when `feedURL` is asked for.
    init(id: Int64, name: String, title: String, feedAddress: String, lastRefresh: Date?, lastError: String?,
         isSubscribed: Bool, autoDownload: AutoDownloadPolicy, keepNewest: Int?, feedFormat: FeedFormat?) {
        self.id = id
        self.name = name
        self.title = title
        self.feedAddress = feedAddress
        self.lastRefresh = lastRefresh
        self.lastError = lastError
        self.isSubscribed = isSubscribed
        self.autoDownload = autoDownload
        self.keepNewest = keepNewest
        self.feedFormat = feedFormat
    }
}
