import Foundation
import NewsstandContent

/// Reads a publisher's property-list catalog (XML or binary), the seed's format.
///
/// The root is an array of issue dictionaries, or a dictionary with `Title` and `Issues`.
/// Each issue has `Name` (unique), `Title`, `Date`, `Cover` and `Content` (URLs, relative
/// to the catalog), and optionally `Summary`, `Size` and `SHA256`. `Content` may also be an
/// array of URLs. Keys are matched without regard to case, and `Covers` as a dictionary of
/// sizes (as rack-newsstand writes it) is accepted too. An entry that cannot be used is
/// skipped and named in `Catalog.problems`; the rest of the catalog still loads.
public enum CatalogParser {
    /// URL schemes issues may be fetched from.
    public static let allowedSchemes: Set<String> = ["http", "https", "file"]

    public static func parse(_ data: Data, catalogURL: URL) throws -> Catalog {
        let root: Any
        do {
            root = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        } catch {
            throw CatalogError("the catalog is not a property list")
        }
        var title: String?
        let items: [Any]
        if let array = root as? [Any] {
            items = array
        } else if let dictionary = root as? [String: Any] {
            let keyed = CaseInsensitiveDictionary(dictionary)
            title = keyed.string("Title")
            guard let array = keyed["Issues"] as? [Any] else {
                throw CatalogError("the catalog has no list of issues (expected an array, or a dictionary with Issues)")
            }
            items = array
        } else {
            throw CatalogError("the catalog has no list of issues (expected an array, or a dictionary with Issues)")
        }

        var entries: [CatalogEntry] = []
        var problems: [String] = []
        var seenNames: Set<String> = []
        for (index, item) in items.enumerated() {
            do {
                let entry = try parseEntry(item, position: index + 1, catalogURL: catalogURL)
                if seenNames.insert(entry.name).inserted {
                    entries.append(entry)
                } else {
                    problems.append("issue '\(entry.name)' is listed twice; the first is kept")
                }
            } catch let error as CatalogError {
                problems.append(error.description)
            }
        }
        if entries.isEmpty && !problems.isEmpty {
            throw CatalogError(problems.count == 1 ? problems[0] : "no usable issues: " + problems.joined(separator: "; "))
        }
        return Catalog(title: title.map(TextSanitizer.singleLine), entries: entries, problems: problems)
    }

    private static func parseEntry(_ item: Any, position: Int, catalogURL: URL) throws -> CatalogEntry {
        guard let dictionary = item as? [String: Any] else {
            throw CatalogError("issue #\(position) is not a dictionary")
        }
        let keyed = CaseInsensitiveDictionary(dictionary)
        guard let rawName = keyed.string("Name"), !rawName.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw CatalogError("issue #\(position) has no Name")
        }
        let name = TextSanitizer.singleLine(rawName)
        let label = "issue '\(name)'"
        guard let date = keyed["Date"].flatMap(parseDate) else {
            throw CatalogError("\(label) has no valid Date")
        }
        let contentValues: [Any]
        switch keyed["Content"] {
        case let array as [Any]: contentValues = array
        case let single?: contentValues = [single]
        case nil: throw CatalogError("\(label) has no Content URL")
        }
        var contentURLs: [URL] = []
        for value in contentValues {
            guard let text = value as? String, let url = resolve(text, against: catalogURL) else {
                throw CatalogError("\(label) has an invalid Content URL '\(TextSanitizer.singleLine(String(describing: value)))'")
            }
            contentURLs.append(url)
        }
        if contentURLs.isEmpty { throw CatalogError("\(label) has no Content URL") }

        var coverURL: URL?
        if let cover = keyed.string("Cover") {
            coverURL = resolve(cover, against: catalogURL) // a bad cover URL is not fatal: the shelf shows a placeholder
        } else if let covers = keyed["Covers"] as? [String: Any] {
            let sizes = CaseInsensitiveDictionary(covers)
            coverURL = (sizes.string("SOURCE") ?? covers.values.compactMap { $0 as? String }.sorted().first).flatMap { resolve($0, against: catalogURL) }
        }

        let size: Int64? = switch keyed["Size"] {
        case let number as NSNumber: number.int64Value
        case let text as String: Int64(text)
        default: nil
        }
        var sha256 = keyed.string("SHA256")?.lowercased()
        if let digest = sha256, digest.count != 64 || !digest.allSatisfy(\.isHexDigit) { sha256 = nil }

        return CatalogEntry(
            name: name,
            title: TextSanitizer.singleLine(keyed.string("Title") ?? name),
            date: date,
            summary: TextSanitizer.singleLine(keyed.string("Summary") ?? ""),
            coverURL: coverURL,
            contentURLs: contentURLs,
            expectedSize: size.flatMap { $0 >= 0 ? $0 : nil },
            expectedSHA256: sha256)
    }

    /// Resolves a possibly relative URL string against the catalog's URL; only http, https and file are allowed.
    static func resolve(_ text: String, against base: URL) -> URL? {
        let trimmed = FeedText.trimmed(text)
        // Absolute, and nothing to percent-encode: the base plays no part, and the parser need not
        // look for characters to encode (a third of its time).
        if isPlainWebURL(trimmed), let url = URL(string: trimmed, encodingInvalidCharacters: false) { return url }
        guard !trimmed.isEmpty,
              let url = URL(string: trimmed, relativeTo: base)?.absoluteURL,
              let scheme = url.scheme?.lowercased(), allowedSchemes.contains(scheme) else { return nil }
        if scheme != "file" && (url.host ?? "").isEmpty { return nil }
        return url
    }

    /// `http://` or `https://` (lower case), then a host that starts with a letter or digit and no
    /// user information, and only characters a URL may hold as they are (RFC 3986's unreserved and
    /// reserved ones, and `%`): such a string parses to a URL with that scheme and a host, the same
    /// with or without a base and with or without encoding, so the checks below can be skipped.
    private static func isPlainWebURL(_ text: String) -> Bool {
        text.utf8.withContiguousStorageIfAvailable(isPlainWebURL) ?? isPlainWebURL(Array(text.utf8))
    }

    private static func isPlainWebURL<Bytes: Collection<UInt8>>(_ utf8: Bytes) -> Bool {
        var index = utf8.startIndex
        for byte in "http".utf8 {
            guard index != utf8.endIndex, utf8[index] == byte else { return false }
            index = utf8.index(after: index)
        }
        if index != utf8.endIndex, utf8[index] == UInt8(ascii: "s") { index = utf8.index(after: index) }
        for byte in "://".utf8 {
            guard index != utf8.endIndex, utf8[index] == byte else { return false }
            index = utf8.index(after: index)
        }
        guard index != utf8.endIndex else { return false }
        let first = utf8[index]
        guard (first >= 0x30 && first <= 0x39) || ((first | 0x20) >= 0x61 && (first | 0x20) <= 0x7A) else { return false }
        var inHost = true
        let urlCharacters = Self.urlCharacters
        while index != utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") { inHost = false }
            if inHost && byte == UInt8(ascii: "@") { return false }
            guard byte < 0x80, urlCharacters[Int(byte)] else { return false }
            index = utf8.index(after: index)
        }
        return true
    }

    /// A stricter `isPlainWebURL`, in RFC 3986's own syntax: `http://` or `https://`, a host of
    /// letters, digits, dots and hyphens that starts with a letter or digit, an optional port of at
    /// most five digits, then path, query and fragment of unreserved and sub-delimiter characters,
    /// `:`, `@`, `/`, `?` and well-formed `%XX` escapes (one `#` at most). Such a string parses with
    /// `URL(string:encodingInvalidCharacters: false)` as it is, to what `resolve` gives for it against
    /// any base, so a `LazyURL` may keep it as text and parse it only when it is used.
    static func isCertainWebURL(_ text: String) -> Bool {
        var text = text
        return text.withUTF8(isCertainWebURL)
    }

    static func isCertainWebURL(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = utf8.count
        guard count >= 8, utf8[0] == UInt8(ascii: "h"), utf8[1] == UInt8(ascii: "t"), utf8[2] == UInt8(ascii: "t"),
              utf8[3] == UInt8(ascii: "p") else { return false }
        var index = 4
        if utf8[index] == UInt8(ascii: "s") { index += 1 }
        guard index + 3 < count, utf8[index] == UInt8(ascii: ":"), utf8[index + 1] == UInt8(ascii: "/"),
              utf8[index + 2] == UInt8(ascii: "/") else { return false }
        index += 3
        func isAlphanumeric(_ byte: UInt8) -> Bool { (byte >= 0x30 && byte <= 0x39) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A) }
        func isHexDigit(_ byte: UInt8) -> Bool { (byte >= 0x30 && byte <= 0x39) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x66) }
        guard isAlphanumeric(utf8[index]) else { return false }
        while index < count, isHostCharacter(utf8[index]) { index += 1 }
        if index < count, utf8[index] == UInt8(ascii: ":") {
            index += 1
            let portStart = index
            while index < count, utf8[index] >= 0x30 && utf8[index] <= 0x39 { index += 1 }
            guard index - portStart <= 5 else { return false }
        }
        guard index < count else { return true }
        guard utf8[index] == UInt8(ascii: "/") || utf8[index] == UInt8(ascii: "?") || utf8[index] == UInt8(ascii: "#") else { return false }
        var inFragment = false
        let base = utf8.baseAddress!
        while index < count {
            // Eight at a time while they are all `-./0-9a-z`, path characters that need no further look.
            if index + 8 <= count, isPlainPathWord(UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))) {
                index += 8
                continue
            }
            let byte = utf8[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < count, isHexDigit(utf8[index + 1]), isHexDigit(utf8[index + 2]) else { return false }
                index += 3
                continue
            }
            if byte == UInt8(ascii: "#") {
                guard !inFragment else { return false }
                inFragment = true
            } else {
                guard isPathCharacter(byte) else { return false }
            }
            index += 1
        }
        return true
    }

    /// Whether all eight bytes of `word` are in `-./0-9` or `a-z`. Exact byte-wise range tests: for
    /// ASCII bytes, adding `0x80 - low` sets a byte's top bit exactly when it is at least `low`, and
    /// adding `0x7F - high` exactly when it is above `high`, with no carry into the next byte.
    @inline(__always)
    static func isPlainPathWord(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        guard word & highs == 0 else { return false }
        let punctuationOrDigit = (word &+ ones &* (0x80 - 0x2D)) & ~(word &+ ones &* (0x7F - 0x39))
        let lowercase = (word &+ ones &* (0x80 - 0x61)) & ~(word &+ ones &* (0x7F - 0x7A))
        return (punctuationOrDigit | lowercase) & highs == highs
    }

    /// A letter, a digit, `.` or `-`, as a bit for each ASCII byte (bytes 0–63, then 64–127).
    @inline(__always)
    static func isHostCharacter(_ byte: UInt8) -> Bool {
        let low: UInt64 = 0x03FF_6000_0000_0000, high: UInt64 = 0x07FF_FFFE_07FF_FFFE
        return byte < 64 ? low >> UInt64(byte) & 1 != 0 : byte < 128 && high >> UInt64(byte - 64) & 1 != 0
    }

    /// RFC 3986's pchar (without escapes) and `/` and `?`, what a path, query or fragment may hold as
    /// it is: letters, digits and `-._~!$&'()*+,;=:@/?`, as a bit for each ASCII byte (bytes 0–63,
    /// then 64–127).
    @inline(__always)
    static func isPathCharacter(_ byte: UInt8) -> Bool {
        let low: UInt64 = 0xAFFF_FFD2_0000_0000, high: UInt64 = 0x47FF_FFFE_87FF_FFFF
        return byte < 64 ? low >> UInt64(byte) & 1 != 0 : byte < 128 && high >> UInt64(byte - 64) & 1 != 0
    }

    /// ASCII bytes a URL may hold unencoded.
    private static let urlCharacters: [Bool] = (0..<128).map { byte in
        let scalar = Unicode.Scalar(UInt8(byte))
        return scalar.properties.isASCIIHexDigit || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
            || "-._~:/?#[]@!$&'()*+,;=%".unicodeScalars.contains(scalar)
    }

    static func parseDate(_ value: Any) -> Date? {
        if let date = value as? Date { return date }
        guard let text = value as? String else { return nil }
        return FlexibleDateParser.parse(text)
    }
}

/// Looks up property-list keys without regard to case (`Name`, `name`, `NAME`).
struct CaseInsensitiveDictionary {
    private let values: [String: Any]
    init(_ dictionary: [String: Any]) {
        var values: [String: Any] = [:]
        for (key, value) in dictionary where values[key.lowercased()] == nil { values[key.lowercased()] = value }
        self.values = values
    }
    subscript(key: String) -> Any? { values[key.lowercased()] }
    func string(_ key: String) -> String? {
        switch values[key.lowercased()] {
        case let text as String: text
        case let number as NSNumber: number.stringValue
        default: nil
        }
    }
}
