import Foundation

/// An account on a feed server: the source of the subscriptions marked as coming from it, and of their items and
/// read and starred states. The password is never kept; the server's session token is kept with the saved logins.
public struct Account: Sendable, Equatable, Identifiable {
    public let id: Int64
    public var kind: AccountKind
    /// The API's base (FreshRSS: `https://host/api/greader.php`).
    public var url: URL
    public var user: String
    public var addedAt: Date
    public var lastSync: Date?
    /// Why the last sync failed, or what it had to leave out; nil when all went well.
    public var lastError: String?
    /// The newest item's crawl time seen, in microseconds: the next sync asks only for items after it.
    public var syncedToMicroseconds: Int64?

    public init(id: Int64, kind: AccountKind, url: URL, user: String, addedAt: Date = Date(), lastSync: Date? = nil,
                lastError: String? = nil, syncedToMicroseconds: Int64? = nil) {
        self.id = id
        self.kind = kind
        self.url = url
        self.user = user
        self.addedAt = addedAt
        self.lastSync = lastSync
        self.lastError = lastError
        self.syncedToMicroseconds = syncedToMicroseconds
    }
}
