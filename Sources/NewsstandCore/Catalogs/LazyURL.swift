import Foundation

/// A link from a feed or catalog: checked when it is read, parsed into a `URL` only when one is asked for.
///
/// Parsing a URL is the dearest step in reading a feed, and most links are never parsed at all:
/// an entry's page when it has an enclosure is not used, and the library stores a link as its text.
/// A plain absolute http(s) link (`CatalogParser.isCertainWebURL`) is kept as its text: it is sure
/// to parse, to the URL `CatalogParser.resolve` gives for it against any base, with that text as
/// its `absoluteString`. So is a plain relative link against an http(s) base, resolved as text
/// (`RelativeWebReference`) to what Foundation would give. Any other link is resolved at once with
/// Foundation, against `xml:base` or the feed's URL, and is no link at all when that fails.
///
/// Equality and hashing are `URL`'s: a link kept as text equals the `URL` it stands for.
struct LazyURL: Hashable, Sendable, CustomStringConvertible {
    private enum Storage: Sendable {
        case plain(String)
        case resolved(URL)
    }

    private let storage: Storage

    init(_ url: URL) {
        storage = .resolved(url)
    }

    private init(storage: Storage) {
        self.storage = storage
    }

    /// `text` (trimmed) resolved against `base` as `CatalogParser.resolve` resolves it, or nil when
    /// that gives no URL. `base` is evaluated only for a link that is not kept as text.
    init?(_ text: String, base: @autoclosure () -> URL) {
        self.init(text, base: base(), certainBaseText: nil)
    }

    /// `init(_:base:)`, with `base`'s absolute string when the caller knows it is a certain web URL
    /// (`CatalogParser.isCertainWebURL`), so it is neither made nor checked again for each link.
    init?(_ text: String, base: @autoclosure () -> URL, certainBaseText: String?) {
        let trimmed = FeedText.trimmed(text)
        if CatalogParser.isCertainWebURL(trimmed) {
            storage = .plain(trimmed)
        } else if let resolved = certainBaseText.map({ RelativeWebReference.resolve(trimmed, againstCertainBase: $0) })
                    ?? RelativeWebReference.resolve(trimmed, against: base().absoluteString) {
            storage = .plain(resolved)
        } else if let url = CatalogParser.resolve(trimmed, against: base()) {
            storage = .resolved(url)
        } else {
            return nil
        }
    }

    /// `init(_:base:certainBaseText:)` of a link's UTF-8 as the parser gives it (an attribute's value, an
    /// element's text): the plain cases make one String, the link's, and no other on the way.
    init?(utf8 bytes: UnsafeBufferPointer<UInt8>, base: @autoclosure () -> URL, certainBaseText: String?) {
        guard let link = Self.resolving(utf8: bytes, base: base(), certainBaseText: certainBaseText) else { return nil }
        self = link
    }

    /// `init(utf8:base:certainBaseText:)` for a feed reader's every link: a function's arguments are borrowed
    /// (an initialiser's are owned), so the base's text is not retained and released for each link.
    static func resolving(utf8 bytes: UnsafeBufferPointer<UInt8>, base: @autoclosure () -> URL, certainBaseText: String?) -> LazyURL? {
        var start = 0, end = bytes.count
        while start < end, FeedText.isASCIIWhitespace(bytes[start]) { start += 1 }
        while end > start, FeedText.isASCIIWhitespace(bytes[end - 1]) { end -= 1 }
        let trimmed = UnsafeBufferPointer(rebasing: bytes[start..<end])
        // An end that is not ASCII may be other white space: trimmed as text.
        let asciiEnds = start == end || (bytes[start] < 0x80 && bytes[end - 1] < 0x80)
        if asciiEnds && CatalogParser.isCertainWebURL(trimmed) {
            return LazyURL(storage: .plain(String(decoding: trimmed, as: UTF8.self)))
        } else if asciiEnds, certainBaseText != nil,
                  let resolved = RelativeWebReference.resolve(utf8: trimmed, againstCertainBase: certainBaseText!) {
            return LazyURL(storage: .plain(resolved))
        } else {
            return LazyURL(String(decoding: bytes, as: UTF8.self), base: base(), certainBaseText: certainBaseText)
        }
    }

    var url: URL {
        switch storage {
        case .resolved(let url):
            return url
        case .plain(let text):
            // `isCertainWebURL` admits only RFC 3986's own syntax, which the parser takes as it is
            // (LazyURLTests checks this on many strings). Should it ever refuse one, the general
            // path still gives a URL.
            if let url = URL(string: text, encodingInvalidCharacters: false) { return url }
            return CatalogParser.resolve(text, against: URL(string: "http://invalid.invalid/")!) ?? URL(string: "http://invalid.invalid/")!
        }
    }

    /// The URL's `absoluteString`, without parsing a link kept as text.
    var absoluteString: String {
        switch storage {
        case .plain(let text): text
        case .resolved(let url): url.absoluteString
        }
    }

    /// Whether this link is kept as text, to be parsed when used (for tests).
    var isDeferred: Bool {
        if case .plain = storage { return true }
        return false
    }

    var description: String { absoluteString }

    /// `URL`'s equality (the same relative string and base); a link kept as text is a URL without a
    /// base whose relative string is that text.
    static func == (lhs: LazyURL, rhs: LazyURL) -> Bool {
        switch (lhs.storage, rhs.storage) {
        case (.plain(let left), .plain(let right)):
            return left == right
        case (.resolved(let left), .resolved(let right)):
            return left == right
        case (.plain(let text), .resolved(let url)), (.resolved(let url), .plain(let text)):
            return url.baseURL == nil && url.relativeString == text
        }
    }

    /// By absolute string: equal URLs have equal absolute strings.
    func hash(into hasher: inout Hasher) {
        hasher.combine(absoluteString)
    }
}
