import Foundation

/// The kinds of feed server an account can be on. Only the Google Reader API so far (FreshRSS, Inoreader, The Old
/// Reader, BazQux, Miniflux's compatibility layer); Miniflux's own API and Nextcloud News would be further cases,
/// each with its own ``FeedServerClient``.
public enum AccountKind: String, Sendable, CaseIterable {
    case googleReader = "greader"

    /// Its name for people.
    public var displayName: String {
        switch self {
        case .googleReader: "Google Reader API"
        }
    }
}

/// What an account sync needs of a feed server, whatever its API: the subscriptions, the items since a time, the
/// ids of read and starred items, and the few writes. Every call is blocking, bounded (bytes and time) and throws
/// ``AccountError`` in plain words. The client holds the session (a token), never the password.
public protocol FeedServerClient: AnyObject, Sendable {
    /// Requests made so far (for the benchmark's "requests per sync" and tests).
    var requestCount: Int { get }
    func subscriptions() throws -> [ServerSubscription]
    /// Every item fetched after `microseconds` (nil: all the server keeps), oldest first: when the listing stops early
    /// (its problems say why), the items left out are all newer than those given.
    func items(since microseconds: Int64?) throws -> ServerItemBatch
    /// The ids of every item in a list (unread, starred).
    func itemIDs(_ list: ServerItemList) throws -> ServerItemIDs
    /// Every stream's unread count and newest item (one small answer), or nil when the server cannot say: what lets a
    /// sync see that nothing was read or unread without the whole unread list.
    func unreadCounts() throws -> [ServerUnreadCount]?
    /// Puts `items` into `state` (`adding`) or takes them out of it.
    func set(_ state: ServerItemState, _ adding: Bool, items: [ServerItemID]) throws
    /// Subscribes to a feed; the new subscription's stream id.
    func subscribe(to feedURL: URL) throws -> String
    func unsubscribe(streamID: String) throws
    func rename(streamID: String, to title: String) throws
}

extension FeedServerClient {
    /// A server that cannot say its unread counts: every sync reads the whole unread list.
    public func unreadCounts() throws -> [ServerUnreadCount]? { nil }
}
