/// Breaks a paragraph into lines no wider than a given number of terminal columns.
///
/// Breaks at spaces; a word wider than the line is split between grapheme
/// clusters, never inside one. Widths come from `DisplayWidth`.
public enum TextWrapper {
    /// Lines of `text` (runs of white space collapsed) each at most `width` columns.
    public static func wrap(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = []
        var line = ""
        var lineWidth = 0
        for word in text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }) {
            var word = String(word)
            var wordWidth = DisplayWidth.of(word)
            if lineWidth > 0 && lineWidth + 1 + wordWidth <= width {
                line += " " + word
                lineWidth += 1 + wordWidth
                continue
            }
            if lineWidth > 0 {
                lines.append(line)
                line = ""
                lineWidth = 0
            }
            while wordWidth > width {
                var head = DisplayWidth.prefix(word, fitting: width)
                if head.isEmpty { head = String(word.first!) } // a wide cluster on a 1-column line
                lines.append(head)
                word.removeFirst(head.count)
                wordWidth = DisplayWidth.of(word)
            }
            line = word
            lineWidth = wordWidth
        }
        if lineWidth > 0 || lines.isEmpty { lines.append(line) }
        return lines
    }
}
