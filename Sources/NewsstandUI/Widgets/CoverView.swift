import NewsstandImaging

/// A cover thumbnail: the text art or terminal picture when it has arrived, a framed placeholder until then.
///
/// ASCII art is drawn in the theme's cover style; coloured art (`ascii-color`, `blocks`) with each
/// cell's own foreground and background as 24-bit colours (the backend maps them to what the terminal
/// has), falling back to the cover style's colours where a cell has none.
public struct CoverView {
    public var art: TextArt?
    public var hasFailed: Bool

    public init(art: TextArt?, hasFailed: Bool) {
        self.art = art
        self.hasFailed = hasFailed
    }

    public func render(in area: Rect, theme: Theme, into buffer: inout CellBuffer) {
        guard !area.isEmpty else { return }
        if let art, let picture = art.picture {
            buffer.placePicture(picture, in: area)
            return
        }
        if let art {
            let base = theme[.cover]
            guard art.hasColors else {
                for (row, line) in art.lines.prefix(area.height).enumerated() {
                    buffer.write(line, x: area.x, y: area.y + row, style: base, maxWidth: area.width)
                }
                return
            }
            for (row, line) in art.lines.prefix(min(area.height, art.rows)).enumerated() {
                for (column, character) in line.prefix(min(area.width, art.columns)).enumerated() {
                    var style = base
                    if let color = art.foreground(column: column, row: row) { style.foreground = .rgb(color.red, color.green, color.blue) }
                    if let color = art.background(column: column, row: row) { style.background = .rgb(color.red, color.green, color.blue) }
                    buffer.write(String(character), x: area.x + column, y: area.y + row, style: style, maxWidth: 1)
                }
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
