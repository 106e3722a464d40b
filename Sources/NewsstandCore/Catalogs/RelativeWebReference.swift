import Foundation

/// Resolves a relative link against an http(s) base as text, by RFC 3986 section 5.2, for the plain case feeds
/// are full of (`5.epub`, `/issues/5.epub`, `../covers/5.jpg` against `xml:base` or the feed's address): base
/// and result both certain web URLs (`CatalogParser.isCertainWebURL`), the link of path, query and fragment
/// characters only. Anything else (a scheme, `//host`, characters to encode, an empty link) gives nil, and the
/// caller resolves it with Foundation as before. The text is what `URL(string:relativeTo:)`'s absolute string
/// would be (LazyURLTests compares the two), without making a URL: resolving was the dearest step of reading a
/// feed with relative links.
enum RelativeWebReference {
    /// `reference` resolved against `base` (the base's absolute string), or nil outside the plain case.
    static func resolve(_ reference: String, against base: String) -> String? {
        var base = base
        guard base.withUTF8(CatalogParser.isCertainWebURL) else { return nil }
        return resolve(reference, againstCertainBase: base)
    }

    /// `resolve(_:against:)` for a base known to be a certain web URL.
    static func resolve(_ reference: String, againstCertainBase base: String) -> String? {
        var reference = reference
        var base = base
        return reference.withUTF8 { ref in base.withUTF8 { resolve(ref, against: $0) } }
    }

    private static func resolve(_ ref: UnsafeBufferPointer<UInt8>, against base: UnsafeBufferPointer<UInt8>) -> String? {
        guard !ref.isEmpty, ref[0] != UInt8(ascii: "/") || ref.count < 2 || ref[1] != UInt8(ascii: "/") else { return nil }
        // Path, query and fragment characters only, escapes well formed, and no scheme (a ':' before any '/', '?', '#').
        var index = 0, sawDelimiter = false
        while index < ref.count {
            let byte = ref[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < ref.count, isHexDigit(ref[index + 1]), isHexDigit(ref[index + 2]) else { return nil }
                index += 3
                continue
            }
            if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") { sawDelimiter = true }
            if byte == UInt8(ascii: ":") && !sawDelimiter { return nil }
            guard byte == UInt8(ascii: "#") || CatalogParser.isPathCharacter(byte) else { return nil }
            index += 1
        }
        // The base: scheme and authority, path, and where its query and fragment start.
        let authorityEnd = (base.firstIndex(of: UInt8(ascii: ":"))! + 3 ..< base.count).first {
            base[$0] == UInt8(ascii: "/") || base[$0] == UInt8(ascii: "?") || base[$0] == UInt8(ascii: "#")
        } ?? base.count
        let pathEnd = (authorityEnd ..< base.count).first { base[$0] == UInt8(ascii: "?") || base[$0] == UInt8(ascii: "#") } ?? base.count
        let queryEnd = (pathEnd ..< base.count).first { base[$0] == UInt8(ascii: "#") } ?? base.count
        let refPathEnd = ref.firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? ref.count

        var result = Array(base[..<authorityEnd])
        var path: [UInt8]
        var tail = Array(ref[refPathEnd...])
        if refPathEnd == 0 {
            // Only a query or a fragment: the base's path (and, for a fragment alone, its query).
            path = Array(base[authorityEnd..<pathEnd])
            if ref[0] == UInt8(ascii: "#") { tail = Array(base[pathEnd..<queryEnd]) + tail }
        } else if ref[0] == UInt8(ascii: "/") {
            path = Array(ref[..<refPathEnd])
        } else {
            // Merged: the base's path up to its last '/' ("/" when it has none), then the reference's.
            let basePath = base[authorityEnd..<pathEnd]
            if let slash = basePath.lastIndex(of: UInt8(ascii: "/")) {
                path = Array(base[authorityEnd...slash])
            } else {
                path = [UInt8(ascii: "/")]
            }
            path += ref[..<refPathEnd]
        }
        // A reference with a path has its dot segments removed (RFC 3986 5.2.2); the base's path taken whole is kept as it is.
        result += refPathEnd == 0 ? path : removingDotSegments(path)
        result += tail
        let text = String(decoding: result, as: UTF8.self)
        return CatalogParser.isCertainWebURL(text) ? text : nil
    }

    /// RFC 3986 5.2.4 on an absolute path.
    private static func removingDotSegments(_ path: [UInt8]) -> [UInt8] {
        let segments = path.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).dropFirst()
        guard segments.contains(where: { $0.elementsEqual([UInt8(ascii: ".")]) || $0.elementsEqual([UInt8(ascii: "."), UInt8(ascii: ".")]) }) else {
            return path
        }
        var output: [ArraySlice<UInt8>] = []
        var endsWithSlash = false
        for segment in segments {
            endsWithSlash = false
            if segment.elementsEqual([UInt8(ascii: ".")]) {
                endsWithSlash = true
            } else if segment.elementsEqual([UInt8(ascii: "."), UInt8(ascii: ".")]) {
                if !output.isEmpty { output.removeLast() }
                endsWithSlash = true
            } else {
                output.append(segment)
            }
        }
        var result: [UInt8] = []
        for segment in output {
            result.append(UInt8(ascii: "/"))
            result += segment
        }
        if endsWithSlash || result.isEmpty { result.append(UInt8(ascii: "/")) }
        return result
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x66)
    }
}
