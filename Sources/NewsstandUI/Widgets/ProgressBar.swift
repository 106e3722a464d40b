/// A one-line progress bar with a percentage: `━━━━━━━╸──────  42%`.
public struct ProgressBar {
    public var fraction: Double
    public var doneStyle: TextStyle
    public var remainingStyle: TextStyle

    public init(fraction: Double, doneStyle: TextStyle, remainingStyle: TextStyle) {
        self.fraction = fraction
        self.doneStyle = doneStyle
        self.remainingStyle = remainingStyle
    }

    public func render(in area: Rect, into buffer: inout CellBuffer) {
        guard area.width > 0 && area.height > 0 else { return }
        let clamped = min(max(fraction.isFinite ? fraction : 0, 0), 1)
        let label = String(format: "%3d%%", Int((clamped * 100).rounded(.down)))
        let barWidth = max(0, area.width - label.count - 1)
        let done = Int((Double(barWidth) * clamped).rounded(.down))
        buffer.write(String(repeating: "━", count: done), x: area.x, y: area.y, style: doneStyle)
        buffer.write(String(repeating: "─", count: barWidth - done), x: area.x + done, y: area.y, style: remainingStyle)
        buffer.write(barWidth > 0 ? " " + label : label, x: area.x + barWidth, y: area.y, style: doneStyle, maxWidth: area.width - barWidth)
    }
}
