import Foundation

/// A subscribed publication: where its catalog lives and how its last refresh went.
public struct Publication: Sendable, Equatable, Identifiable {
    public let id: Int64
    /// Short unique name used on the command line and for folders (a slug of the title).
    public var name: String
    public var title: String
    public var feedURL: URL
    public var lastRefresh: Date?
    /// Why the last refresh failed or what it had to skip, in plain words; nil when all went well.
    public var lastError: String?

    public init(id: Int64, name: String, title: String, feedURL: URL, lastRefresh: Date? = nil, lastError: String? = nil) {
        self.id = id
        self.name = name
        self.title = title
        self.feedURL = feedURL
        self.lastRefresh = lastRefresh
        self.lastError = lastError
    }
}
