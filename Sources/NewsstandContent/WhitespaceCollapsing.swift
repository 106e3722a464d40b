/// HTML whitespace rules: only space, tab, CR, LF and form feed count (not no-break space).
///
/// Characters are compared as Swift sees them (a space that a combining mark joins, or that a
/// prepended mark joins, is a different character and is kept); the work is done on the UTF-8
/// bytes, looking at the characters only around a space next to a non-ASCII byte.
enum WhitespaceCollapsing {
    static func isCollapsible(_ character: Character) -> Bool {
        var bytes = character.utf8.makeIterator()
        guard let first = bytes.next() else { return false }
        guard let second = bytes.next() else { return isCollapsibleByte(first) }
        return first == 0x0D && second == 0x0A && bytes.next() == nil // "\r\n" is one character
    }

    /// Space, tab, LF, CR or form feed. Each of these bytes is (part of) a collapsible character,
    /// except a space that a neighbouring scalar joins into a larger one.
    @inline(__always)
    static func isCollapsibleByte(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C
    }

    /// Whether `collapse(text)` would be non-empty: some byte is not collapsible white space (a
    /// character holding such a byte is not one of the collapsible ones).
    static func hasContent(_ text: String) -> Bool {
        text.utf8.contains { !isCollapsibleByte($0) }
    }

    static func collapse(_ text: String) -> String {
        var text = text
        return text.withUTF8 { bytes in
            var result: [UInt8] = []
            result.reserveCapacity(bytes.count)
            var pendingSpace = false
            for index in bytes.indices {
                let byte = bytes[index]
                if isCollapsibleByte(byte) && (byte != 0x20 || isSpaceCharacter(at: index, in: bytes)) {
                    pendingSpace = true
                } else {
                    if pendingSpace, !result.isEmpty { result.append(0x20) }
                    pendingSpace = false
                    result.append(byte)
                }
            }
            return String(decoding: result, as: UTF8.self)
        }
    }

    /// Whether the space at `index` is a character by itself. Only its neighbouring scalars can join
    /// it (a prepended mark before, an extending or spacing mark or a joiner after), so when both
    /// neighbours are ASCII it is; otherwise the three scalars are split into characters to see.
    private static func isSpaceCharacter(at index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let asciiBefore = index == 0 || bytes[index - 1] < 0x80
        let asciiAfter = index + 1 == bytes.count || bytes[index + 1] < 0x80
        if asciiBefore && asciiAfter { return true }
        var start = index
        if index > 0 {
            start = index - 1
            while start > 0, bytes[start] & 0xC0 == 0x80 { start -= 1 }
        }
        var end = index + 1
        if end < bytes.count {
            end += 1
            while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
        }
        let window = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        // The character that holds the space (at `index - start` in the window's bytes).
        var offset = 0
        for character in window {
            let length = character.utf8.count
            if index - start < offset + length { return character == " " }
            offset += length
        }
        return false
    }
}
