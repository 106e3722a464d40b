import NewsstandContent

/// The bottom line: the current message, or the keys that matter on this screen, and a position on the right.
///
/// A message too long to sit beside the position is cut, and ends with "…": a cut message never reads as whole.
public struct StatusLine {
    public var hints: [KeyBinding]
    public var message: StatusMessage?
    /// Right-aligned text such as "42%" or "3/12".
    public var position: String

    public func render(in area: Rect, theme: Theme, into buffer: inout CellBuffer) {
        guard !area.isEmpty else { return }
        buffer.fill(area, style: theme[.status])
        let right = position.isEmpty ? "" : " \(position) "
        let rightWidth = min(area.width, right.count)
        let available = area.width - rightWidth
        if let message {
            let text = " " + message.text
            let shown = DisplayWidth.of(text) <= available ? text : DisplayWidth.prefix(text, fitting: available - 1) + "…"
            buffer.write(shown, x: area.x, y: area.y, style: theme[message.isError ? .error : .message], maxWidth: available)
        } else {
            var x = area.x + 1
            for binding in hints {
                let key = binding.keys.first?.label ?? ""
                let needed = key.count + binding.hint.count + 3
                guard x + needed <= area.x + available else { break }
                x += buffer.write(key, x: x, y: area.y, style: theme[.statusKey])
                x += buffer.write(" " + binding.hint + "  ", x: x, y: area.y, style: theme[.status])
            }
        }
        buffer.write(right, x: area.maxX - rightWidth, y: area.y, style: theme[.status], maxWidth: rightWidth)
    }
}
