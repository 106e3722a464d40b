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

    /// The help's text area: a heading line, then one line per row.
    public static func layout(in area: Rect) -> ListLayout { ListLayout(area: area, headerLines: 1, rowHeight: 1) }

    public static func render(_ cursor: ListCursor, keys: KeyTable, in area: Rect, theme: Theme, into buffer: inout CellBuffer) {
        let layout = layout(in: area)
        let lines = lines(keys)
        buffer.write("KEYS", x: area.x + 2, y: area.y, style: theme[.heading])
        let keyWidth = min(24, max(8, area.width / 3))
        for (row, index) in cursor.visibleRange(count: lines.count, page: layout.page).enumerated() {
            let line = lines[index]
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
