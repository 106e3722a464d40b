import Foundation
import NewsstandContent

/// Turns feed text (plain, or HTML as RSS descriptions and Atom `type="html"` carry it) into one
/// terminal-safe line: tags dropped (block tags become spaces), `script`/`style` bodies dropped,
/// character references decoded, then `TextSanitizer.singleLine`.
enum FeedText {
    /// `text.trimmingCharacters(in: .whitespacesAndNewlines)` (or `.whitespaces` when `newlines` is
    /// false), with ASCII white space trimmed here and Foundation asked only when an end is not ASCII.
    static func trimmed(_ text: String, newlines: Bool = true) -> String {
        // Most text starts and ends with a visible ASCII character: read those two bytes in place.
        let plain = text.utf8.withContiguousStorageIfAvailable { bytes in
            guard let first = bytes.first, let last = bytes.last else { return true }
            return first > 0x20 && first < 0x80 && last > 0x20 && last < 0x80
        }
        if plain == true { return text }
        let utf8 = text.utf8
        let (range, plainEnds) = trimmedRange(utf8, newlines: newlines)
        if range.isEmpty { return "" }
        guard plainEnds else { return text.trimmingCharacters(in: newlines ? .whitespacesAndNewlines : .whitespaces) }
        if range == utf8.startIndex..<utf8.endIndex { return text }
        return String(Substring(utf8[range]))
    }

    /// Where `bytes` lies once ASCII spaces (and, with `newlines`, line breaks) are cut from its ends, and whether the
    /// ends left are visible ASCII: when they are not, other Unicode spaces may be left to cut, which the caller does
    /// with Foundation. `trimmed` and the feed reader's text (trimmed before a String is made of it) share it.
    static func trimmedRange<Bytes: BidirectionalCollection>(_ bytes: Bytes, newlines: Bool = true) -> (range: Range<Bytes.Index>, plainEnds: Bool)
    where Bytes.Element == UInt8 {
        func isSpace(_ byte: UInt8) -> Bool { newlines ? isASCIIWhitespace(byte) : byte == 0x20 || byte == 0x09 }
        var start = bytes.startIndex, end = bytes.endIndex
        while start < end, isSpace(bytes[start]) { start = bytes.index(after: start) }
        while end > start, isSpace(bytes[bytes.index(before: end)]) { end = bytes.index(before: end) }
        guard start < end else { return (start..<end, true) }
        let head = bytes[start], tail = bytes[bytes.index(before: end)]
        return (start..<end, head > 0x20 && head < 0x80 && tail > 0x20 && tail < 0x80)
    }

    /// Whether `text` holds `needle`, byte for byte (Foundation's `contains` is far slower).
    static func contains(_ text: String, _ needle: StaticString) -> Bool {
        let count = needle.utf8CodeUnitCount
        if let found = text.utf8.withContiguousStorageIfAvailable({ contains($0, needle) }) { return found }
        let utf8 = text.utf8
        guard count > 0, utf8.count >= count else { return count == 0 }
        let first = needle.utf8Start[0]
        var start = utf8.startIndex
        while let found = utf8[start...].firstIndex(of: first) {
            var matched = true
            var index = found
            for offset in 0..<count {
                guard index != utf8.endIndex, utf8[index] == needle.utf8Start[offset] else { matched = false; break }
                index = utf8.index(after: index)
            }
            if matched { return true }
            start = utf8.index(after: found)
        }
        return false
    }

    /// `contains` on the bytes of a native string.
    private static func contains(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: StaticString) -> Bool {
        let count = needle.utf8CodeUnitCount
        guard count > 0 else { return true }
        guard haystack.count >= count, let base = haystack.baseAddress else { return false }
        let first = needle.utf8Start[0]
        var index = 0
        let last = haystack.count - count
        while index <= last {
            if base[index] == first && memcmp(base + index, needle.utf8Start, count) == 0 { return true }
            index += 1
        }
        return false
    }

    /// Tab, line feed, vertical tab, form feed, carriage return, space.
    @inline(__always)
    static func isASCIIWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (byte >= 0x09 && byte <= 0x0D)
    }

    /// Plain text: only sanitised.
    static func plain(_ text: String) -> String {
        TextSanitizer.singleLine(text)
    }

    /// HTML: stripped to text, then sanitised. A `<` not followed by a tag name stays (`1 < 2`).
    static func html(_ text: String) -> String {
        text.utf8.withContiguousStorageIfAvailable(html(utf8:)) ?? Array(text.utf8).withUnsafeBufferPointer(html(utf8:))
    }

    /// `html` of UTF-8 as a parser gives it, making one String: stripping, references and spacing
    /// all work on the bytes.
    static func html(utf8 bytes: UnsafeBufferPointer<UInt8>) -> String {
        var stripped: [UInt8] = [], decoded: [UInt8] = []
        return html(utf8: bytes, scratch: &stripped, &decoded)
    }

    /// `html(utf8:)` with the bytes between steps kept in two buffers the caller keeps for the next
    /// text (a feed reader turns thousands of texts), so that only the result is allocated.
    /// Both steps shrink the text (a tag is at least three bytes, a block tag becomes one space; a reference is
    /// never longer decoded than written), so they work in one buffer of the text's size: stripped into it,
    /// then decoded in place. (`decoded` is no longer needed; kept so callers need not change.)
    static func html(utf8 bytes: UnsafeBufferPointer<UInt8>, scratch stripped: inout [UInt8], _ decoded: inout [UInt8]) -> String {
        guard let base = bytes.baseAddress,
              memchr(base, Int32(UInt8(ascii: "<")), bytes.count) != nil || memchr(base, Int32(UInt8(ascii: "&")), bytes.count) != nil
        else { return TextSanitizer.singleLine(utf8: bytes) }
        if stripped.count < bytes.count { stripped = [UInt8](repeating: 0, count: max(bytes.count, 256)) }
        return stripped.withUnsafeMutableBufferPointer { buffer in
            let out = buffer.baseAddress!
            var count = stripTags(bytes, into: out)
            if count > 0, memchr(out, Int32(UInt8(ascii: "&")), count) != nil {
                count = decodeEntities(UnsafeBufferPointer(start: out, count: count), into: out)
            }
            // The spaces that block tags at either end became, dropped here as `singleLine` would drop them (so that
            // it need not collapse them into a copy); only where a printable ASCII character is next to them, which
            // `singleLine` keeps as it is (a combining mark would join a space, and a control may be filtered out).
            var start = 0, end = count
            while end > 0, out[end - 1] == UInt8(ascii: " ") { end -= 1 }
            if end < count, end > 0, out[end - 1] > 0x20, out[end - 1] < 0x7F { count = end }
            while start < count, out[start] == UInt8(ascii: " ") { start += 1 }
            if start > 0, start < count, out[start] <= 0x20 || out[start] >= 0x7F { start = 0 }
            return TextSanitizer.singleLine(utf8: UnsafeBufferPointer(start: out + start, count: count - start))
        }
    }

    /// Tags and comments out, `script`/`style` bodies out, block tags as spaces, then character
    /// references decoded. Works on the UTF-8 bytes: everything markup is ASCII, and what is cut
    /// out runs from one ASCII byte to another, so the rest stays whole characters.
    static func stripTags(_ text: String) -> String {
        let utf8 = text.utf8
        guard utf8.contains(UInt8(ascii: "<")) || utf8.contains(UInt8(ascii: "&")) else { return text }
        let source = Array(utf8)
        var buffer = [UInt8](repeating: 0, count: source.count)
        let count = source.withUnsafeBufferPointer { bytes in
            buffer.withUnsafeMutableBufferPointer { out in
                let stripped = stripTags(bytes, into: out.baseAddress!)
                guard out[..<stripped].contains(UInt8(ascii: "&")) else { return stripped }
                return decodeEntities(UnsafeBufferPointer(start: out.baseAddress!, count: stripped), into: out.baseAddress!)
            }
        }
        return String(decoding: buffer[..<count], as: UTF8.self)
    }

    enum TagKind { case script, style, block, other }

    /// `s` with tags out, written to `output` (room for `s.count` bytes); returns the bytes written.
    private static func stripTags(_ s: UnsafeBufferPointer<UInt8>, into output: UnsafeMutablePointer<UInt8>) -> Int {
        let lt = UInt8(ascii: "<"), gt = UInt8(ascii: ">"), bang = UInt8(ascii: "!"), dash = UInt8(ascii: "-")
        let count = s.count
        var written = 0
        var index = 0
        var skipUntilClosing: TagKind? = nil
        while index < count {
            let byte = s[index]
            if byte == lt, index + 1 < count, isTagStart(s[index + 1]),
               s[index + 1] != bang || (index + 2 < count && (s[index + 2] == dash || s[index + 2] == UInt8(ascii: "[") || isASCIILetter(s[index + 2]))) {
                // Find the end of the tag (quotes may hold '>').
                var end = index + 1
                if s[index + 1] == bang, index + 3 < count, s[index + 2] == dash, s[index + 3] == dash {
                    // Comment: up to "-->"; one never closed ends at its first '>' (as feedparser's sanitizer
                    // reads it), or with the text.
                    end = index + 4
                    while end + 2 < count, !(s[end] == dash && s[end + 1] == dash && s[end + 2] == gt) { end += 1 }
                    if end + 2 < count {
                        index = end + 3
                    } else {
                        var close = index + 4
                        while close < count, s[close] != gt { close += 1 }
                        index = min(count, close + 1)
                    }
                    continue
                }
                var quote: UInt8? = nil
                while end < count {
                    let c = s[end]
                    if let q = quote { if c == q { quote = nil } } else if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") { quote = c } else if c == gt { break }
                    end += 1
                }
                let (kind, closing) = tagKind(s, from: index + 1, to: min(end, count))
                if let open = skipUntilClosing {
                    if closing && kind == open { skipUntilClosing = nil }
                } else if !closing && (kind == .script || kind == .style) {
                    skipUntilClosing = kind
                } else if kind == .block {
                    output[written] = 0x20
                    written += 1
                }
                index = end + 1
                continue
            }
            if skipUntilClosing == nil {
                // Up to the next '<' at once: text between tags is copied whole.
                var next = index + 1
                if let found = memchr(s.baseAddress! + next, Int32(lt), count - next) {
                    next = s.baseAddress!.distance(to: found.assumingMemoryBound(to: UInt8.self))
                } else {
                    next = count
                }
                (output + written).update(from: s.baseAddress! + index, count: next - index)
                written += next - index
                index = next
                continue
            }
            index += 1
        }
        return written
    }

    private static func isTagStart(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "/") || byte == UInt8(ascii: "!") || byte == UInt8(ascii: "?") || isASCIILetter(byte)
    }

    private static func isASCIILetter(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A)
    }

    /// What the tag in `s[start..<end]` is, by its name (lower-cased, up to white space, `>`, or a `/`
    /// after its first character; a leading `/` makes it closing), without making a String.
    private static func tagKind(_ s: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> (TagKind, closing: Bool) {
        var index = start
        let closing = index < end && s[index] == UInt8(ascii: "/")
        if closing { index += 1 }
        var packed: UInt64 = 0
        var length = 0
        while index < end {
            let byte = s[index]
            if byte == 0x20 || byte == UInt8(ascii: ">") || byte == 0x09 || byte == 0x0A || byte == 0x0D { break }
            if byte == UInt8(ascii: "/") && (length > 0 || closing) { break }
            length += 1
            guard length <= 8, byte < 0x80 else { return (length <= 16 ? slowTagKind(s, from: start, to: end) : .other, closing) }
            packed = packed << 8 | UInt64(byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte)
            index += 1
        }
        return (packedKind(packed), closing)
    }

    /// Names longer than eight bytes (`blockquote`, `figcaption`).
    private static func slowTagKind(_ s: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> TagKind {
        var name: [UInt8] = []
        for byte in s[start..<end] {
            if byte == 0x20 || byte == UInt8(ascii: ">") || byte == 0x09 || byte == 0x0A || byte == 0x0D { break }
            if byte == UInt8(ascii: "/") && !name.isEmpty { break }
            name.append(byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte)
        }
        if name.first == UInt8(ascii: "/") { name.removeFirst() }
        return blockTags.contains(String(decoding: name, as: UTF8.self)) ? .block : .other
    }

    /// The kind of a tag name of at most eight bytes, packed as `tagKind` packs it: a switch over the packed
    /// names (a scan of a list of them was a seventh of reading an HTML title; a dictionary lookup hashed every
    /// tag of every text). `packedTagKinds` says the same from `blockTags` (FeedTextTests compares them).
    static func packedKind(_ packed: UInt64) -> TagKind {
        switch packed {
        // p, br, div, li, ul, ol, tr, td, th, table, h1, h2, h3, h4, h5, h6, pre, hr, section, article, header, footer, dd,
        // dt, dl, figure
        case 0x70, 0x6272, 0x646976, 0x6C69, 0x756C, 0x6F6C, 0x7472, 0x7464, 0x7468, 0x7461626C65, 0x6831, 0x6832, 0x6833,
             0x6834, 0x6835, 0x6836, 0x707265, 0x6872, 0x73656374696F6E, 0x61727469636C65, 0x686561646572, 0x666F6F746572,
             0x6464, 0x6474, 0x646C, 0x666967757265:
            return .block
        case 0x736372697074: return .script // script
        case 0x7374796C65: return .style // style
        default: return .other
        }
    }

    static let packedTagKinds: [UInt64: TagKind] = {
        var kinds: [UInt64: TagKind] = [:]
        func pack(_ name: String) -> UInt64 { name.utf8.reduce(0) { $0 << 8 | UInt64($1) } }
        for name in blockTags where name.utf8.count <= 8 { kinds[pack(name)] = .block }
        kinds[pack("script")] = .script
        kinds[pack("style")] = .style
        return kinds
    }()

    private static let blockTags: Set<String> = [
        "p", "br", "div", "li", "ul", "ol", "tr", "td", "th", "table", "h1", "h2", "h3", "h4", "h5", "h6",
        "blockquote", "pre", "hr", "section", "article", "header", "footer", "dd", "dt", "dl", "figure", "figcaption",
    ]

    /// Decodes `&name;`, `&#NN;` and `&#xHH;`; unknown references stay as they are. A reference's
    /// `;` must come within 12 bytes of its `&`.
    static func decodeEntities(_ text: String) -> String {
        let utf8 = text.utf8
        guard utf8.contains(UInt8(ascii: "&")) else { return text }
        let source = Array(utf8)
        var buffer = [UInt8](repeating: 0, count: source.count)
        let count = source.withUnsafeBufferPointer { bytes in
            buffer.withUnsafeMutableBufferPointer { decodeEntities(bytes, into: $0.baseAddress!) }
        }
        return String(decoding: buffer[..<count], as: UTF8.self)
    }

    /// `s` with references decoded, written to `output` (room for `s.count` bytes; it may be `s` itself: a
    /// reference is read whole before what it stands for, never longer, is written); returns the bytes written.
    private static func decodeEntities(_ s: UnsafeBufferPointer<UInt8>, into output: UnsafeMutablePointer<UInt8>) -> Int {
        var written = 0
        var index = 0
        let base = s.baseAddress!
        while index < s.count {
            guard s[index] == UInt8(ascii: "&") else {
                // Up to the next '&' at once.
                let next = memchr(base + index, Int32(UInt8(ascii: "&")), s.count - index).map {
                    base.distance(to: $0.assumingMemoryBound(to: UInt8.self))
                } ?? s.count
                if output + written != UnsafeMutablePointer(mutating: base + index) {
                    memmove(output + written, base + index, next - index)
                }
                written += next - index
                index = next
                continue
            }
            let nameStart = index + 1
            let limit = min(s.count, nameStart + 12)
            if let semicolon = s[nameStart..<limit].firstIndex(of: UInt8(ascii: ";")) {
                let name = UnsafeBufferPointer(rebasing: s[nameStart..<semicolon])
                if let character = xmlReference(name) {
                    output[written] = character
                    written += 1
                    index = semicolon + 1
                    continue
                }
                if let decoded = decodeReference(String(decoding: name, as: UTF8.self)) {
                    for byte in decoded.utf8 {
                        output[written] = byte
                        written += 1
                    }
                    index = semicolon + 1
                    continue
                }
            }
            output[written] = UInt8(ascii: "&")
            written += 1
            index += 1
        }
        return written
    }

    /// The character XML's five predefined references stand for (`amp`, `lt`, `gt`, `quot`,
    /// `apos`), read from the name's bytes; nil for any other name (`named` and numbers decode those).
    @inline(__always)
    private static func xmlReference(_ name: UnsafeBufferPointer<UInt8>) -> UInt8? {
        switch name.count {
        case 2:
            guard name[1] == UInt8(ascii: "t") else { return nil }
            return name[0] == UInt8(ascii: "l") ? UInt8(ascii: "<") : name[0] == UInt8(ascii: "g") ? UInt8(ascii: ">") : nil
        case 3:
            return name[0] == UInt8(ascii: "a") && name[1] == UInt8(ascii: "m") && name[2] == UInt8(ascii: "p") ? UInt8(ascii: "&") : nil
        case 4:
            if name[0] == UInt8(ascii: "q"), name[1] == UInt8(ascii: "u"), name[2] == UInt8(ascii: "o"), name[3] == UInt8(ascii: "t") { return UInt8(ascii: "\"") }
            if name[0] == UInt8(ascii: "a"), name[1] == UInt8(ascii: "p"), name[2] == UInt8(ascii: "o"), name[3] == UInt8(ascii: "s") { return UInt8(ascii: "'") }
            return nil
        default:
            return nil
        }
    }

    private static func decodeReference(_ name: String) -> String? {
        if name.hasPrefix("#x") || name.hasPrefix("#X") {
            return UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
        } else if name.hasPrefix("#") {
            return UInt32(name.dropFirst()).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
        }
        return named[name]
    }

    private static let named: [String: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{A0}", "copy": "©", "reg": "®",
        "trade": "™", "hellip": "…", "mdash": "—", "ndash": "–", "lsquo": "‘", "rsquo": "’", "ldquo": "“",
        "rdquo": "”", "laquo": "«", "raquo": "»", "bull": "•", "middot": "·", "deg": "°", "euro": "€",
        "pound": "£", "yen": "¥", "cent": "¢", "sect": "§", "para": "¶", "times": "×", "divide": "÷",
        "eacute": "é", "egrave": "è", "ecirc": "ê", "aacute": "á", "agrave": "à", "acirc": "â", "auml": "ä",
        "ouml": "ö", "uuml": "ü", "szlig": "ß", "ccedil": "ç", "ntilde": "ñ", "iacute": "í", "oacute": "ó",
        "uacute": "ú", "Eacute": "É", "Auml": "Ä", "Ouml": "Ö", "Uuml": "Ü", "shy": "",
    ]
}
