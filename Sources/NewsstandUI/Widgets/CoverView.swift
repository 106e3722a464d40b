import NewsstandImaging

/// A cover thumbnail: the text art when it has arrived, a framed placeholder until then.
public struct CoverView {
    public var art: TextArt?
    public var hasFailed: Bool

    public func render(in area: Rect, theme: Theme, into buffer: inout CellBuffer) {
        guard !area.isEmpty else { return }
        if let art {
            for (row, line) in art.lines.prefix(area.height).enumerated() {
                buffer.write(line, x: area.x, y: area.y + row, style: theme[.cover], maxWidth: area.width)
            }
            return
        }
        let style = theme[.coverPlaceholder]
        for row in 0..<area.height {
            let edge = row == 0 || row == area.height - 1
            let line = edge ? "+" + String(repeating: "-", count: max(0, area.width - 2)) + "+"
                            : "|" + String(repeating: " ", count: max(0, area.width - 2)) + "|"
            buffer.write(line, x: area.x, y: area.y + row, style: style, maxWidth: area.width)
        }
        let label = hasFailed ? "no cover" : "…"
        if area.height > 2 && area.width > label.count + 2 {
            buffer.write(label, x: area.x + (area.width - label.count) / 2, y: area.y + area.height / 2, style: style)
        }
    }
}
