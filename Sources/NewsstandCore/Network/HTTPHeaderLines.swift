/// A response's status line and header fields, read one line at a time as libcurl hands them over.
///
/// A status line starts a new response (after a redirect, a 401 answered with a login, a 100 Continue) and
/// forgets the fields before it. Field names are lowercased and a repeated field's values joined with ", "; an
/// obsolete folded line (starting with a space or tab) continues the field before it. The optional whitespace
/// around names and values (spaces and tabs, as HTTP defines it) is trimmed on the bytes, without Foundation:
/// this runs for every line of every response.
struct HTTPHeaderLines {
    /// The status code of the last status line (0 before one).
    var status = 0
    /// Its reason phrase as sent.
    private(set) var reason = ""
    /// Header fields of the current response by lowercased name.
    private(set) var headers: [String: String] = [:]
    private var lastName: String?

    /// Forgets everything, for a new attempt.
    mutating func reset() {
        self = HTTPHeaderLines()
    }

    /// Reads one line, with or without its line ending.
    mutating func read(_ line: UnsafeRawBufferPointer) {
        var bytes = line[...]
        while let last = bytes.last, last == Self.lineFeed || last == Self.carriageReturn { bytes = bytes.dropLast() }
        if bytes.starts(with: "HTTP/".utf8) {
            let parts = String(decoding: bytes, as: UTF8.self).split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
            status = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
            reason = parts.count > 2 ? String(parts[2]) : ""
            headers = [:]
            lastName = nil
        } else if let first = bytes.first, first == Self.space || first == Self.tab, let name = lastName {
            headers[name, default: ""] += " " + String(decoding: Self.trimmingWhitespace(bytes), as: UTF8.self)
        } else if let colon = bytes.firstIndex(of: Self.colon) {
            let name = String(decoding: Self.trimmingWhitespace(bytes[..<colon]), as: UTF8.self).lowercased()
            let value = String(decoding: Self.trimmingWhitespace(bytes[bytes.index(after: colon)...]), as: UTF8.self)
            if let existing = headers[name] {
                headers[name] = existing + ", " + value
            } else {
                headers[name] = value
            }
            lastName = name
        }
    }

    /// `bytes` without the spaces and tabs at either end.
    private static func trimmingWhitespace(_ bytes: Slice<UnsafeRawBufferPointer>) -> Slice<UnsafeRawBufferPointer> {
        var bytes = bytes
        while let first = bytes.first, first == space || first == tab { bytes = bytes.dropFirst() }
        while let last = bytes.last, last == space || last == tab { bytes = bytes.dropLast() }
        return bytes
    }

    private static let space = UInt8(ascii: " ")
    private static let tab = UInt8(ascii: "\t")
    private static let colon = UInt8(ascii: ":")
    private static let lineFeed = UInt8(ascii: "\n")
    private static let carriageReturn = UInt8(ascii: "\r")
}
