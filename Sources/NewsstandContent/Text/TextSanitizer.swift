/// Makes text from catalogs, feeds and issue content safe to put on a terminal.
///
/// Removes escape sequences (CSI, OSC, DCS, SOS, PM, APC and two-character
/// escapes), C0 and C1 control characters, DEL, and bidirectional override and
/// isolate characters that could make text display as something it is not.
public enum TextSanitizer {
    /// Sanitizes a single-line field such as a title: every kind of line break becomes a space.
    public static func singleLine(_ text: String) -> String {
        let check = text.utf8.withContiguousStorageIfAvailable(lineShape) ?? lineShape(Array(text.utf8))
        switch check {
        case .unchanged: return text
        case .spacesOnly: return collapseSpaces(text)
        case .needsFiltering: return collapseSpaces(sanitize(text, keepNewlines: false))
        }
    }

    /// `singleLine` of UTF-8 (a parser's text), making one String when the bytes need no filtering.
    public static func singleLine(utf8 bytes: UnsafeBufferPointer<UInt8>) -> String {
        switch lineShape(bytes) {
        case .unchanged: return String(decoding: bytes, as: UTF8.self)
        case .spacesOnly: return collapsedSpacesString(bytes) ?? singleLine(String(decoding: bytes, as: UTF8.self))
        case .needsFiltering: return singleLine(String(decoding: bytes, as: UTF8.self))
        }
    }

    private enum LineShape { case unchanged, spacesOnly, needsFiltering }

    /// What `singleLine` has to do with this UTF-8 (most titles and summaries need nothing): filter
    /// when it holds anything `filter` removes or turns into a space (controls, C1 controls, line and
    /// paragraph separators, tabs, bidirectional overrides and isolates); else only collapse spaces
    /// when there is one at either end or two in a row. One pass over the bytes; a multi-byte
    /// character's continuation bytes (0x80–0xBF) never look like the lead bytes checked (0xC2, 0xE2).
    private static func lineShape<Bytes: RandomAccessCollection>(_ s: Bytes) -> LineShape where Bytes.Element == UInt8, Bytes.Index == Int {
        lineShape(s, from: s.startIndex, afterSpace: true, irregularSpaces: false)
    }

    /// `lineShape` reading eight ASCII bytes at a time while it can (a word with no control, no DEL
    /// and no byte above 0x7F needs only its spaces looked at), then byte by byte from the first
    /// word that needs more.
    private static func lineShape(_ s: UnsafeBufferPointer<UInt8>) -> LineShape {
        guard let base = s.baseAddress, s.count >= 8 else { return lineShape(s, from: 0, afterSpace: true, irregularSpaces: false) }
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080, lows: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        var index = 0
        var afterSpace = true
        var irregularSpaces = false
        while index + 8 <= s.count {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
            // Any byte above 0x7F, below 0x20 (`hasless`), or DEL (`haszero` of word ^ 0x7F…): byte by byte.
            let special = (word & highs) | ((word &- ones &* 0x20) & ~word & highs) | (((word ^ lows) &- ones) & ~(word ^ lows) & highs)
            if special != 0 { break }
            // 0x80 in each byte that is a space, exactly (no borrow between bytes).
            let spaceBytes = word ^ (ones &* 0x20)
            let spaces = ~(((spaceBytes & lows) &+ lows) | spaceBytes | lows)
            if spaces & (spaces << 8) != 0 || (afterSpace && spaces & 0x80 != 0) { irregularSpaces = true }
            afterSpace = spaces & (0x80 << 56) != 0
            index += 8
        }
        return lineShape(s, from: index, afterSpace: afterSpace, irregularSpaces: irregularSpaces)
    }

    /// `lineShape` byte by byte from `start`, with what the bytes before it left.
    private static func lineShape<Bytes: RandomAccessCollection>(_ s: Bytes, from start: Int, afterSpace: Bool, irregularSpaces: Bool) -> LineShape
    where Bytes.Element == UInt8, Bytes.Index == Int {
        var afterSpace = afterSpace
        var irregularSpaces = irregularSpaces
        var index = start
        let end = s.endIndex
        while index < end {
            let byte = s[index]
            if byte == 0x20 {
                if afterSpace { irregularSpaces = true }
                afterSpace = true
            } else {
                if byte < 0x20 || byte == 0x7F { return .needsFiltering }
                if byte == 0xC2, index + 1 < end, s[index + 1] < 0xA0 { return .needsFiltering } // U+0080–U+009F
                if byte == 0xE2, index + 2 < end {
                    let second = s[index + 1], third = s[index + 2]
                    if second == 0x80 && third >= 0xA8 && third <= 0xAE { return .needsFiltering } // U+2028–U+202E
                    if second == 0x81 && third >= 0xA6 && third <= 0xA9 { return .needsFiltering } // U+2066–U+2069
                }
                afterSpace = false
            }
            index += 1
        }
        return irregularSpaces || (afterSpace && !s.isEmpty) ? .spacesOnly : .unchanged
    }

    /// Sanitizes text, keeping newlines (and turning tabs into spaces) when `keepNewlines` is true.
    public static func sanitize(_ text: String, keepNewlines: Bool = true) -> String {
        filter(text, escapesOnly: false, keepNewlines: keepNewlines)
    }

    /// Removes only escape sequences (introduced by ESC, a C1 control or a numeric character reference to ESC),
    /// keeping every other character as it is: for markup that must still be parsed, where tabs and line
    /// breaks matter and a parser would otherwise drop the ESC and leave the rest of the sequence as text.
    /// A string sequence (OSC, DCS, SOS, PM, APC) that never ends loses only its introducer here: a stray
    /// C1 control in a page (mis-decoded text) must not take the rest of the document with it; the text
    /// after it is still sanitised when it is set.
    public static func removingEscapeSequences(_ text: String) -> String {
        var text = text
        for reference in ["&#27;", "&#x1b;", "&#x1B;", "&#X1B;", "&#027;"] where text.contains(reference) {
            text = text.replacingOccurrences(of: reference, with: "\u{1B}")
        }
        return filter(text, escapesOnly: true, keepNewlines: true)
    }

    private static func filter(_ text: String, escapesOnly: Bool, keepNewlines: Bool) -> String {
        // In a whole document (`escapesOnly`) an unended string sequence drops only its introducer.
        var noTerminatorAhead = false
        func skipString(_ scalars: inout String.UnicodeScalarView.Iterator) {
            guard escapesOnly else { Self.skipString(&scalars); return }
            if noTerminatorAhead { return }
            var lookahead = scalars
            if Self.skipString(&lookahead) { scalars = lookahead } else { noTerminatorAhead = true }
        }
        var output = String.UnicodeScalarView()
        var scalars = text.unicodeScalars.makeIterator()
        var pending: Unicode.Scalar? = nil
        func next() -> Unicode.Scalar? {
            if let scalar = pending { pending = nil; return scalar }
            return scalars.next()
        }
        while let scalar = next() {
            switch scalar.value {
            case 0x1B: // ESC
                guard let introducer = next() else { break }
                switch introducer {
                case "[": skipControlSequence(&scalars)
                case "]", "P", "X", "^", "_": skipString(&scalars)
                default:
                    // Two-character escape (ESC c, ESC 7, ...), or ESC before a printable: drop both.
                    if introducer.value < 0x20 || introducer.value == 0x7F { pending = introducer }
                }
            case 0x9B: skipControlSequence(&scalars)
            case 0x9D, 0x90, 0x98, 0x9E, 0x9F: skipString(&scalars)
            case _ where escapesOnly: output.append(scalar)
            case 0x0A, 0x0D, 0x0B, 0x0C, 0x85, 0x2028, 0x2029:
                if keepNewlines {
                    // CR LF counts as one break; a lone CR is a break too.
                    if scalar.value == 0x0D {
                        if let following = next(), following.value != 0x0A { pending = following }
                    }
                    output.append("\n")
                } else {
                    output.append(" ")
                }
            case 0x09: output.append(" ")
            case 0x00..<0x20, 0x7F, 0x80..<0xA0: continue
            case 0x202A...0x202E, 0x2066...0x2069: continue
            default: output.append(scalar)
            }
        }
        return String(output)
    }

    /// Skips a CSI sequence: parameter and intermediate bytes up to a final byte in 0x40–0x7E.
    private static func skipControlSequence(_ scalars: inout String.UnicodeScalarView.Iterator) {
        while let scalar = scalars.next() {
            if (0x40...0x7E).contains(scalar.value) { return }
            if scalar.value >= 0x80 || scalar.value < 0x20 && scalar.value != 0x1B { return }
        }
    }

    /// Skips a string command (OSC, DCS, ...) up to BEL, ST (ESC \) or the C1 ST.
    /// Skips a string sequence up to its terminator (BEL, ST or ESC and one more); false when it never ends.
    @discardableResult
    private static func skipString(_ scalars: inout String.UnicodeScalarView.Iterator) -> Bool {
        while let scalar = scalars.next() {
            if scalar.value == 0x07 || scalar.value == 0x9C { return true }
            if scalar.value == 0x1B {
                _ = scalars.next()
                return true
            }
        }
        return false
    }

    /// Runs of spaces become one; none at either end. A space that a combining mark (or any other
    /// non-ASCII character, which may extend it) follows is part of that character, not a space:
    /// such text is split by characters.
    private static func collapseSpaces(_ text: String) -> String {
        let collapsed = text.utf8.withContiguousStorageIfAvailable(collapsedSpaces) ?? collapsedSpaces(Array(text.utf8))
        guard let collapsed else { return text.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ") }
        return String(decoding: collapsed, as: UTF8.self)
    }

    /// `collapsedSpaces` of UTF-8 as a String, collapsed in a buffer on the stack (no array on the way: an HTML
    /// summary whose block tags became spaces takes this path in every item of a feed).
    private static func collapsedSpacesString(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard let base = bytes.baseAddress else { return "" }
        let count = bytes.count
        for index in 1..<max(1, count) where base[index - 1] == 0x20 && base[index] >= 0x80 { return nil }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count) { output in
            let out = output.baseAddress!
            var written = 0
            var pendingSpace = false
            for index in 0..<count {
                let byte = base[index]
                if byte == 0x20 {
                    pendingSpace = written > 0
                } else {
                    if pendingSpace {
                        out[written] = 0x20
                        written += 1
                        pendingSpace = false
                    }
                    out[written] = byte
                    written += 1
                }
            }
            return String(decoding: UnsafeBufferPointer(start: out, count: written), as: UTF8.self)
        }
    }

    /// The bytes with runs of spaces made one and none at either end, or nil when a space comes
    /// before a non-ASCII byte (then only characters can tell).
    private static func collapsedSpaces<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> [UInt8]? {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var pendingSpace = false
        var previous: UInt8 = 0
        for byte in bytes {
            if previous == 0x20 && byte >= 0x80 { return nil }
            previous = byte
            if byte == 0x20 {
                pendingSpace = !output.isEmpty
            } else {
                if pendingSpace { output.append(0x20) }
                pendingSpace = false
                output.append(byte)
            }
        }
        return output
    }
}
