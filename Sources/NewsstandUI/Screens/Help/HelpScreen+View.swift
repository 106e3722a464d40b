import NewsstandContent

/// The help's text, straight from the key table in effect (the config's `bind` lines applied), its layout and drawing.
extension HelpScreen {
    /// The help's sections, in `ScreenKind`'s order: each screen's title and kind.
    public static let sections: [(String, ScreenKind)] = ScreenKind.allCases.compactMap { kind in kind.helpTitle.map { ($0, kind) } }

    /// What a row's keys are written as: "↓/j", or "unbound" when the config took them all.
    public static func keyLabel(_ binding: KeyBinding) -> String {
        binding.keys.isEmpty ? "unbound" : binding.keyLabel
    }

    static func lines(_ keys: KeyTable) -> [(key: String, help: String)] {
        var lines: [(String, String)] = []
        for (title, screen) in sections {
            lines.append(("", ""))
            lines.append((title.uppercased(), ""))
            for binding in keys.documented(on: screen) {
                lines.append((keyLabel(binding), binding.help))
            }
        }
        lines.append(("", ""))
        lines.append(("Esc/q", "Close this help"))
        return lines
    }

    /// The help's rows in an area `width` columns wide: each key's help wrapped beside its keys, continued on rows with
    /// no keys (a narrow terminal shows every word, not the start of each line).
    static func rows(_ keys: KeyTable, width: Int) -> [(key: String, help: String)] {
        let helpWidth = max(10, width - keyColumnWidth(width) - 5)
        return lines(keys).flatMap { line -> [(key: String, help: String)] in
            guard !line.help.isEmpty else { return [line] }
            return TextWrapper.wrap(line.help, width: helpWidth).enumerated().map { ($0.offset == 0 ? line.key : "", $0.element) }
        }
    }

    /// The keys' column: a third of the width, from 8 to 24 columns.
    private static func keyColumnWidth(_ width: Int) -> Int { min(24, max(8, width / 3)) }

    /// The help's text area: a heading line, then one line per row.
    public static func layout(in area: Rect) -> ListLayout { ListLayout(area: area, headerLines: 1, rowHeight: 1) }

    public static func render(_ cursor: ListCursor, keys: KeyTable, in area: Rect, theme: Theme, into buffer: inout CellBuffer) {
        let layout = layout(in: area)
        let rows = rows(keys, width: area.width)
        buffer.write("KEYS", x: area.x + 2, y: area.y, style: theme[.heading])
        let keyWidth = keyColumnWidth(area.width)
        for (row, index) in cursor.visibleRange(count: rows.count, page: layout.page).enumerated() {
            let line = rows[index]
            let y = layout.rowRect(row).y
            if line.help.isEmpty {
                buffer.write(line.key, x: 2, y: y, style: theme[.heading], maxWidth: area.width - 4)
            } else {
                buffer.write(line.key, x: 4, y: y, style: theme[.helpKey], maxWidth: keyWidth - 1)
                buffer.write(line.help, x: 4 + keyWidth, y: y, style: theme[.helpText], maxWidth: area.width - keyWidth - 5)
            }
        }
    }
}
