/// How a cell is drawn: foreground, background and attributes.
public struct TextStyle: Hashable, Sendable {
    public var foreground: TerminalColor
    public var background: TerminalColor
    public var attributes: TextAttributes

    public init(foreground: TerminalColor = .default, background: TerminalColor = .default, attributes: TextAttributes = []) {
        self.foreground = foreground
        self.background = background
        self.attributes = attributes
    }

    public static let plain = TextStyle()

    /// This style with extra attributes.
    public func adding(_ extra: TextAttributes) -> TextStyle {
        var style = self
        style.attributes.formUnion(extra)
        return style
    }

    /// This style with another foreground colour.
    public func withForeground(_ color: TerminalColor) -> TextStyle {
        var style = self
        style.foreground = color
        return style
    }
}
