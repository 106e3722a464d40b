/// Every key, grouped by screen, straight from the key table.
public enum HelpScreen {
    static let sections: [(String, ScreenKind)] = [("Shelf", .shelf), ("Issue page", .detail), ("Table of contents", .contents), ("Article", .article),
                                                   ("Search results", .searchResults), ("Downloads", .downloads), ("Subscriptions", .subscriptions), ("Headlines", .headlines), ("Storage", .storage), ("Catalog", .catalog)]

    static let lines: [(key: String, help: String)] = {
        var lines: [(String, String)] = []
        for (title, screen) in sections {
            lines.append(("", ""))
            lines.append((title.uppercased(), ""))
            for binding in KeyMap.bindings where binding.screens.contains(screen) && !binding.help.isEmpty {
                lines.append((binding.keyLabel, binding.help))
            }
        }
        lines.append(("", ""))
        lines.append(("Esc/q", "Close this help"))
        return lines
    }()

    public static var lineCount: Int { lines.count }

    public static func render(_ state: AppState, theme: Theme, into buffer: inout CellBuffer) {
        let area = Rect(x: 0, y: 1, width: state.width, height: state.height - 2)
        buffer.write("KEYS", x: 2, y: area.y, style: theme[.heading])
        let keyWidth = min(24, max(8, area.width / 3))
        for row in 0..<max(0, area.height - 1) {
            let index = state.helpScroll + row
            guard index < lines.count else { break }
            let line = lines[index]
            let y = area.y + 1 + row
            if line.help.isEmpty {
                buffer.write(line.key, x: 2, y: y, style: theme[.heading], maxWidth: area.width - 4)
            } else {
                buffer.write(line.key, x: 4, y: y, style: theme[.helpKey], maxWidth: keyWidth - 1)
                buffer.write(line.help, x: 4 + keyWidth, y: y, style: theme[.helpText], maxWidth: area.width - keyWidth - 5)
            }
        }
    }
}
