import Foundation

/// A parsed HTTP/1.x request head (request line and header fields). Bodies are never read.
struct HTTPRequest: Sendable {
    /// The method, as sent (methods are case-sensitive).
    let method: String
    /// The request target as sent, e.g. `/a%20b.epub?x=1`.
    let target: String
    /// `HTTP/1.1` or `HTTP/1.0`.
    let version: String
    /// Header fields, names lowercased; repeated fields joined with ", ".
    let headers: [String: String]

    /// The percent-decoded path of the target, without query or fragment; nil when the target is not a usable path.
    var path: String? {
        var target = Substring(self.target)
        for scheme in ["http://", "https://"] where target.lowercased().hasPrefix(scheme) {
            target = target.dropFirst(scheme.count)
            guard let slash = target.firstIndex(of: "/") else { return "/" }
            target = target[slash...]
        }
        if let end = target.firstIndex(where: { $0 == "?" || $0 == "#" }) { target = target[..<end] }
        guard target.hasPrefix("/"), let decoded = String(target).removingPercentEncoding,
              !decoded.contains("\0") else { return nil }
        return decoded
    }

    /// The query of the target as sent (without `?` and fragment), or nil when it has none.
    var query: String? {
        guard let mark = target.firstIndex(of: "?") else { return nil }
        let rest = target[target.index(after: mark)...]
        return String(rest.prefix { $0 != "#" })
    }

    /// The byte sequence that ends a request head.
    static let headTerminator: [UInt8] = [13, 10, 13, 10]

    /// Parses a request head (everything before the blank line); nil when it is malformed.
    static func parse(head: [UInt8]) -> HTTPRequest? {
        // Split on LF bytes (as a String, CRLF is a single Character), dropping a trailing CR.
        var lines = head.split(separator: 10, omittingEmptySubsequences: false).map { bytes -> Substring in
            let line = bytes.last == 13 ? bytes.dropLast() : bytes
            return Substring(String(decoding: line, as: UTF8.self))
        }
        while let first = lines.first, first.isEmpty { lines.removeFirst() }  // tolerate leading CRLFs
        guard let requestLine = lines.first else { return nil }
        let parts = requestLine.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty, parts[2].hasPrefix("HTTP/") else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { return nil }
            let name = line[..<colon].lowercased()
            guard !name.isEmpty, !name.contains(" "), !name.contains("\t") else { return nil }
            let value = line[line.index(after: colon)...].trimmingSpaces()
            if let existing = headers[name] {
                headers[name] = existing + ", " + value
            } else {
                headers[name] = value
            }
        }
        return HTTPRequest(method: String(parts[0]), target: String(parts[1]), version: String(parts[2]), headers: headers)
    }
}
