import Foundation

/// An item's id on a feed server, in both of the Google Reader API's spellings: long
/// (`tag:google.com,2005:reader/item/0006612be961d08a`, sixteen hex digits) and short (the same 64 bits as a signed
/// decimal, `1795691087253642`). Either is accepted where an id is read; the long one names issues in the library.
public struct ServerItemID: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let value: Int64

    public init(_ value: Int64) { self.value = value }

    static let longPrefix = "tag:google.com,2005:reader/item/"

    /// Reads either spelling; nil for anything else.
    public init?(_ text: String) {
        let text = text.trimmingCharacters(in: .whitespaces)
        if text.hasPrefix(Self.longPrefix) {
            let hex = text.dropFirst(Self.longPrefix.count)
            guard !hex.isEmpty, hex.count <= 16, let bits = UInt64(hex, radix: 16) else { return nil }
            value = Int64(bitPattern: bits)
        } else if let number = Int64(text) {
            value = number
        } else if let bits = UInt64(text) {
            value = Int64(bitPattern: bits)
        } else {
            return nil
        }
    }

    public var longForm: String {
        let hex = String(UInt64(bitPattern: value), radix: 16)
        return Self.longPrefix + String(repeating: "0", count: max(0, 16 - hex.count)) + hex
    }

    public var shortForm: String { String(value) }
    public var description: String { shortForm }
    public static func < (lhs: ServerItemID, rhs: ServerItemID) -> Bool { lhs.value < rhs.value }
}

/// The states of an item a feed server keeps for its user, as Newsstand shares them.
public enum ServerItemState: String, Sendable, CaseIterable {
    case read
    case starred

    /// The Google Reader API's stream for it.
    var googleReaderStream: String { "user/-/state/com.google/\(rawValue)" }
}

/// The lists of item ids a sync reads to learn the states: the unread items (every other item the library has from
/// the account is read) and the starred ones.
public enum ServerItemList: String, Sendable {
    case unread
    case starred
}

/// A list of item ids, and whether it is whole (false: paging stopped early, so what is missing says nothing).
public struct ServerItemIDs: Sendable, Equatable {
    public var ids: Set<ServerItemID>
    public var isComplete: Bool

    public init(ids: Set<ServerItemID>, isComplete: Bool) {
        self.ids = ids
        self.isComplete = isComplete
    }
}

/// One feed the account follows on the server.
public struct ServerSubscription: Sendable, Equatable {
    /// The server's id of the feed (`feed/2`).
    public var streamID: String
    public var title: String
    /// The feed's own address.
    public var feedURL: URL
    /// Its folders (categories) on the server.
    public var categories: [String]

    public init(streamID: String, title: String, feedURL: URL, categories: [String] = []) {
        self.streamID = streamID
        self.title = title
        self.feedURL = feedURL
        self.categories = categories
    }
}

/// A file an item carries (an RSS enclosure, an Atom `enclosure` link).
public struct ServerEnclosure: Sendable, Equatable {
    public var url: URL
    public var type: String?
    public var length: Int64?

    public init(url: URL, type: String? = nil, length: Int64? = nil) {
        self.url = url
        self.type = type
        self.length = length
    }
}

/// One item as the server gives it.
public struct ServerItem: Sendable, Equatable {
    public var id: ServerItemID
    /// The subscription it belongs to (`ServerSubscription.streamID`).
    public var streamID: String
    public var title: String
    public var link: URL?
    public var published: Date?
    /// When the server fetched it, in microseconds (the short id of FreshRSS's items); what `ot` counts from.
    public var crawledMicroseconds: Int64?
    /// Its text as HTML, as the server keeps it.
    public var content: String
    public var enclosures: [ServerEnclosure]
    public var isRead: Bool
    public var isStarred: Bool

    public init(id: ServerItemID, streamID: String, title: String, link: URL? = nil, published: Date? = nil,
                crawledMicroseconds: Int64? = nil, content: String = "", enclosures: [ServerEnclosure] = [],
                isRead: Bool = false, isStarred: Bool = false) {
        self.id = id
        self.streamID = streamID
        self.title = title
        self.link = link
        self.published = published
        self.crawledMicroseconds = crawledMicroseconds
        self.content = content
        self.enclosures = enclosures
        self.isRead = isRead
        self.isStarred = isStarred
    }
}

/// Items fetched since a time, and what had to be left out on the way (a continuation that repeated…).
public struct ServerItemBatch: Sendable, Equatable {
    public var items: [ServerItem]
    public var problems: [String]
    /// The server's clock when it answered the first page (its `Date` header), when it said: what it had crawled
    /// before then is in the batch, so the next sync can ask from there (``AccountSync``).
    public var serverTime: Date?

    public init(items: [ServerItem] = [], problems: [String] = [], serverTime: Date? = nil) {
        self.items = items
        self.problems = problems
        self.serverTime = serverTime
    }
}
