/// One character cell of the screen.
///
/// A wide character (two columns) sits in its first cell; the cell to its right is a
/// continuation with an empty symbol, which backends skip.
public struct Cell: Equatable, Sendable {
    /// One grapheme cluster, a space for blank, or "" for the right half of a wide character.
    public var symbol: String
    public var style: TextStyle

    public init(symbol: String = " ", style: TextStyle = .plain) {
        self.symbol = symbol
        self.style = style
    }

    public var isContinuation: Bool { symbol.isEmpty }
}
