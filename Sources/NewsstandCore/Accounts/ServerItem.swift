import Foundation

/// An item's id on a feed server, in both of the Google Reader API's spellings: long
/// (`tag:google.com,2005:reader/item/0006612be961d08a`, sixteen hex digits) and short (the same 64 bits as a signed
/// decimal, `1795691087253642`). Either is accepted where an id is read; the long one names issues in the library.
public struct ServerItemID: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let value: Int64

    public init(_ value: Int64) { self.value = value }

    static let longPrefix = "tag:google.com,2005:reader/item/"

    /// Reads either spelling; nil for anything else. Read on the UTF-8 bytes: an account's unread list can hold
    /// 100,000 ids, read at every sync.
    public init?(_ text: String) {
        var text = text
        guard let parsed = text.withUTF8({ Self.parse($0[...]) }) else { return nil }
        value = parsed
    }

    private static let longPrefixBytes = Array(longPrefix.utf8)

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>.SubSequence) -> Int64? {
        var bytes = bytes
        while let first = bytes.first, first == 0x20 || first == 0x09 { bytes = bytes.dropFirst() }
        while let last = bytes.last, last == 0x20 || last == 0x09 { bytes = bytes.dropLast() }
        if bytes.starts(with: longPrefixBytes) {
            let hex = bytes.dropFirst(longPrefixBytes.count)
            guard !hex.isEmpty, hex.count <= 16 else { return nil }
            var bits: UInt64 = 0
            for byte in hex {
                let digit: UInt8
                switch byte {
                case 0x30...0x39: digit = byte - 0x30
                case 0x61...0x66: digit = byte - 0x61 + 10
                case 0x41...0x46: digit = byte - 0x41 + 10
                default: return nil
                }
                bits = bits << 4 | UInt64(digit)
            }
            return Int64(bitPattern: bits)
        }
        // Decimal: signed (the short form) or, past Int64, unsigned 64 bits.
        var digits = bytes
        let negative = digits.first == 0x2D
        if negative || digits.first == 0x2B { digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.count <= 20 else { return nil }
        var magnitude: UInt64 = 0
        for byte in digits {
            guard (0x30...0x39).contains(byte) else { return nil }
            let (times, overflowTimes) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflowSum) = times.addingReportingOverflow(UInt64(byte - 0x30))
            guard !overflowTimes, !overflowSum else { return nil }
            magnitude = sum
        }
        if negative {
            guard magnitude <= UInt64(Int64.max) + 1 else { return nil }
            return magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)
        }
        return Int64(bitPattern: magnitude)
    }

    public var longForm: String {
        String(unsafeUninitializedCapacity: Self.longPrefixBytes.count + 16) { buffer in
            let count = Self.longPrefixBytes.count
            _ = buffer.initialize(fromContentsOf: Self.longPrefixBytes)
            let bits = UInt64(bitPattern: value)
            for index in 0..<16 {
                let nibble = UInt8((bits >> UInt64(60 - 4 * index)) & 0xF)
                buffer[count + index] = nibble < 10 ? 0x30 + nibble : 0x61 + nibble - 10
            }
            return count + 16
        }
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

/// One line of the server's unread counts (`unread-count`): a stream (a feed, a label, the reading list), how many of
/// its items are unread and when its newest item came (microseconds; 0 when the server does not say).
public struct ServerUnreadCount: Sendable, Equatable {
    public var streamID: String
    public var count: Int64
    public var newestMicroseconds: Int64

    public init(streamID: String, count: Int64, newestMicroseconds: Int64) {
        self.streamID = streamID
        self.count = count
        self.newestMicroseconds = newestMicroseconds
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
