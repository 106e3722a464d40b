/// Terminal column widths of text, measured per grapheme cluster.
///
/// A cluster is as wide as its base character: East Asian wide and fullwidth
/// characters and emoji presentation take two columns, combining marks and
/// format characters take none. The table is built in, so results do not depend
/// on the process locale.
public enum DisplayWidth {
    /// Columns one grapheme cluster occupies (0, 1 or 2).
    public static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        // Most cells of a frame hold one scalar of Latin text or box drawing, one column wide: no property look-up.
        if isNarrowWithoutLookUp(first.value) && scalars.index(after: scalars.startIndex) == scalars.endIndex { return 1 }
        return measured(scalars, first: first)
    }

    /// Scalars known to be one column alone in their cluster: printable Latin-1 and Latin Extended up to the combining
    /// marks (U+0300) except the soft hyphen (a format character), and box drawing, blocks and geometric shapes up to
    /// U+25FC (U+25FD and U+25FE are emoji). The tests check these against `measured`.
    static func isNarrowWithoutLookUp(_ value: UInt32) -> Bool {
        (value >= 0x20 && value < 0x7F) || (value >= 0xA0 && value < 0x300 && value != 0xAD) || (value >= 0x2500 && value <= 0x25FC)
    }

    /// Columns of a cluster by its scalars' properties (what `of` gives every cluster `isNarrowWithoutLookUp` does not).
    static func measured(_ scalars: Character.UnicodeScalarView, first: Unicode.Scalar) -> Int {
        if first.value < 0x20 || (0x7F..<0xA0).contains(first.value) { return 0 }
        if scalars.contains(where: { $0.value == 0xFE0F }) && scalars.count > 1 { return 2 }
        if first.properties.isEmojiPresentation { return 2 }
        if isZeroWidth(first) {
            // A cluster made only of marks (rare: a stray combining mark) takes no column of its own.
            return scalars.contains(where: { !isZeroWidth($0) }) ? 1 : 0
        }
        return isWide(first) ? 2 : 1
    }

    /// Columns a whole string occupies. For a `String` (a cell's symbol, a label): other modules call this one, not the
    /// generic form below, which they could only call unspecialised (through the protocol's witness table, per cell).
    public static func of(_ text: String) -> Int { columns(text) }

    /// Columns a whole string occupies.
    public static func of(_ text: some StringProtocol) -> Int { columns(text) }

    /// Both `of`s: specialised here for each, so neither goes through the protocol per character.
    @inline(__always)
    private static func columns(_ text: some StringProtocol) -> Int {
        // Printable ASCII is one column a byte (each byte its own cluster): counted without breaking clusters.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text.utf8.count }
        var total = 0
        for character in text { total += of(character) }
        return total
    }

    /// The longest prefix of `text` that fits in `columns`, never splitting a cluster.
    public static func prefix(_ text: String, fitting columns: Int) -> String {
        var used = 0
        var end = text.startIndex
        for index in text.indices {
            let width = of(text[index])
            if used + width > columns { break }
            used += width
            end = text.index(after: index)
        }
        return String(text[..<end])
    }

    static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return true
        default: return scalar.value == 0x200B
        }
    }

    static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        for range in wideRanges where range.contains(value) { return true }
        return false
    }

    /// East Asian Wide (W) and Fullwidth (F) blocks, plus the emoji blocks.
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x2E80...0x303E,
        0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F,
        0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60,
        0xFFE0...0xFFE6, 0x16FE0...0x16FE4, 0x17000...0x18CFF, 0x1B000...0x1B2FF,
        0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x1FA70...0x1FAFF, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]
}
