import Foundation

/// Resolves a relative link against an http(s) base as text, by RFC 3986 section 5.2, for the plain case feeds
/// are full of (`5.epub`, `/issues/5.epub`, `../covers/5.jpg` against `xml:base` or the feed's address): base
/// and result both certain web URLs (`CatalogParser.isCertainWebURL`), the link of path, query and fragment
/// characters only. Anything else (a scheme, `//host`, characters to encode, an empty link) gives nil, and the
/// caller resolves it with Foundation as before. The text is what `URL(string:relativeTo:)`'s absolute string
/// would be (LazyURLTests compares the two), without making a URL: resolving was the dearest step of reading a
/// feed with relative links. The result is written once, in a buffer on the stack where the merged path has its
/// dot segments removed in place, then copied into the String it becomes: a link costs one allocation.
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
        return reference.withUTF8 { resolve(utf8: $0, againstCertainBase: base) }
    }

    /// `resolve(_:againstCertainBase:)` of a reference's UTF-8 (an attribute's bytes as the parser gives them).
    static func resolve(utf8 reference: UnsafeBufferPointer<UInt8>, againstCertainBase base: String) -> String? {
        guard let pathEnd = plainReferencePathEnd(reference) else { return nil }
        // A native string's bytes read where they are: `withUTF8` wanted a `var` copy of the base, a retain and a
        // release (each atomic) for every link of a feed.
        if let resolved = base.utf8.withContiguousStorageIfAvailable({ resolve(reference, pathEnd: pathEnd, against: $0) }) {
            return resolved
        }
        var base = base
        return base.withUTF8 { resolve(reference, pathEnd: pathEnd, against: $0) }
    }

    /// Path, query and fragment characters only, escapes well formed, no scheme (a ':' before any '/', '?', '#'),
    /// one '#' at most, not empty and not `//` (a network-path reference). Resolved against a certain web URL,
    /// such a reference gives one: the scheme, authority, path and query come whole from the base, and every
    /// byte from the reference is one a certain web URL may hold there.
    /// Where such a plain reference's path ends (its first '?' or '#', else its end), or nil when `ref` is not
    /// one. One pass: the common bytes (letters, digits, `-./_~`) are told by one mask test.
    private static func plainReferencePathEnd(_ ref: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let bytes = ref.baseAddress, !ref.isEmpty,
              ref[0] != UInt8(ascii: "/") || ref.count < 2 || ref[1] != UInt8(ascii: "/") else { return nil }
        let count = ref.count
        var index = 0, sawDelimiter = false, sawHash = false
        var pathEnd = -1
        // Eight bytes at a time while they are all in `-./0-9a-z` (a '/' among them is a delimiter).
        let slashes: UInt64 = 0x2F2F_2F2F_2F2F_2F2F, ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        while index + 8 <= count {
            let word = UInt64(littleEndian: UnsafeRawPointer(bytes + index).loadUnaligned(as: UInt64.self))
            guard CatalogParser.isPlainPathWord(word) else { break }
            let slashBytes = word ^ slashes
            if (slashBytes &- ones) & ~slashBytes & highs != 0 { sawDelimiter = true }
            index += 8
        }
        while index < count {
            let byte = bytes[index]
            let plainLow: UInt64 = 0x03FF_E000_0000_0000, plainHigh: UInt64 = 0x47FF_FFFE_87FF_FFFE
            if byte < 64 ? plainLow >> UInt64(byte) & 1 != 0 : byte < 128 && plainHigh >> UInt64(byte &- 64) & 1 != 0 {
                // A letter, digit or one of `-./_~` (as bits for bytes 0–63, then 64–127): each a path character,
                // none of them `%`, `:`, `?` or `#`. ('/' is a delimiter.)
                if byte == UInt8(ascii: "/") { sawDelimiter = true }
                index += 1
                continue
            }
            if byte == UInt8(ascii: "%") {
                guard index + 2 < count, isHexDigit(bytes[index + 1]), isHexDigit(bytes[index + 2]) else { return nil }
                index += 3
                continue
            }
            if byte == UInt8(ascii: "#") {
                guard !sawHash else { return nil }
                sawHash = true
            }
            if byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") {
                sawDelimiter = true
                if pathEnd < 0 { pathEnd = index }
            }
            if byte == UInt8(ascii: ":") && !sawDelimiter { return nil }
            guard byte == UInt8(ascii: "#") || CatalogParser.isPathCharacter(byte) else { return nil }
            index += 1
        }
        return pathEnd < 0 ? count : pathEnd
    }


    /// The resolution of a plain reference `ref` against the certain web URL `base`: a certain web URL itself
    /// (`plainReferencePathEnd`, which gives where its path ends; checked again in debug builds, which the tests run).
    private static func resolve(_ ref: UnsafeBufferPointer<UInt8>, pathEnd refPathEnd: Int, against base: UnsafeBufferPointer<UInt8>) -> String? {
        let baseBytes = base.baseAddress!, refBytes = ref.baseAddress!
        // The base: scheme and authority, path, and where its query and fragment start.
        var authorityEnd = 0
        while authorityEnd < base.count, base[authorityEnd] != UInt8(ascii: ":") { authorityEnd += 1 }
        authorityEnd += 3
        while authorityEnd < base.count, !isDelimiter(base[authorityEnd]) { authorityEnd += 1 }
        var pathEnd = authorityEnd
        while pathEnd < base.count, base[pathEnd] != UInt8(ascii: "?") && base[pathEnd] != UInt8(ascii: "#") { pathEnd += 1 }
        var queryEnd = pathEnd
        while queryEnd < base.count, base[queryEnd] != UInt8(ascii: "#") { queryEnd += 1 }

        // At most the whole base and the whole reference, and a '/' that a base without a path gains. Made on the
        // stack and copied into the String once (a String's own uninitialized storage was dearer to fill).
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: base.count + ref.count + 1) { output -> String? in
            let out = output.baseAddress!
            var count = 0
            func append(_ bytes: UnsafePointer<UInt8>, _ length: Int) {
                guard length > 0 else { return }
                memcpy(out + count, bytes, length)
                count += length
            }
            if refPathEnd == 0 {
                // Only a query or a fragment: the base's path as it is (and, for a fragment alone, its query).
                append(baseBytes, ref[0] == UInt8(ascii: "#") ? queryEnd : pathEnd)
            } else {
                append(baseBytes, authorityEnd)
                let pathStart = count
                if ref[0] != UInt8(ascii: "/") {
                    // Merged: the base's path up to its last '/' ("/" when it has none), then the reference's.
                    var slash = pathEnd
                    while slash > authorityEnd, base[slash - 1] != UInt8(ascii: "/") { slash -= 1 }
                    if slash > authorityEnd {
                        append(baseBytes + authorityEnd, slash - authorityEnd)
                    } else {
                        out[count] = UInt8(ascii: "/")
                        count += 1
                    }
                }
                append(refBytes, refPathEnd)
                // A reference with a path has its dot segments removed (RFC 3986 5.2.2); a path without any is
                // left as it is (which is what removing none gives).
                if hasDotSegment(out + pathStart, count: count - pathStart) {
                    count = pathStart + removeDotSegments(out + pathStart, count: count - pathStart)
                }
            }
            append(refBytes + refPathEnd, ref.count - refPathEnd)
            let result = UnsafeBufferPointer(start: out, count: count)
            assert(CatalogParser.isCertainWebURL(result), "a plain reference against a certain base gives a certain URL")
            return String(decoding: result, as: UTF8.self)
        }
    }

    /// Whether the absolute path `path[0..<count]` has a `.` or `..` segment (found by `memchr` for the dots).
    private static func hasDotSegment(_ path: UnsafeMutablePointer<UInt8>, count: Int) -> Bool {
        let slash = UInt8(ascii: "/"), dot = UInt8(ascii: ".")
        var from = 0
        while from < count, let found = memchr(path + from, Int32(dot), count - from) {
            let index = UnsafeMutableRawPointer(path).distance(to: found)
            if index > 0 && path[index - 1] == slash {
                // A segment starting with a dot: "." or ".." when it ends there.
                let next = index + 1
                if next == count || path[next] == slash { return true }
                if path[next] == dot && (next + 1 == count || path[next + 1] == slash) { return true }
            }
            from = index + 1
        }
        return false
    }

    /// RFC 3986 5.2.4 on the absolute path `path[0..<count]`, in place; returns the new length. Segments are
    /// written back no further right than they were read, so the path is its own buffer.
    private static func removeDotSegments(_ path: UnsafeMutablePointer<UInt8>, count: Int) -> Int {
        let slash = UInt8(ascii: "/"), dot = UInt8(ascii: ".")
        var written = 0
        var read = 1
        var endsWithSlash = false
        while read <= count {
            var end = read
            while end < count, path[end] != slash { end += 1 }
            let length = end - read
            endsWithSlash = false
            if length == 1 && path[read] == dot {
                endsWithSlash = true
            } else if length == 2 && path[read] == dot && path[read + 1] == dot {
                // The last segment written goes: back to its '/'.
                if written > 0 {
                    written -= 1
                    while written > 0, path[written] != slash { written -= 1 }
                }
                endsWithSlash = true
            } else {
                path[written] = slash
                if length > 0 { memmove(path + written + 1, path + read, length) }
                written += 1 + length
            }
            read = end + 1
        }
        if endsWithSlash || written == 0 {
            path[written] = slash
            written += 1
        }
        return written
    }

    @inline(__always)
    private static func isDelimiter(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#")
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x66)
    }
}
