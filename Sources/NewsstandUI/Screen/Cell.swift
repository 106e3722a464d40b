/// One character cell of the screen.
///
/// A wide character (two columns) sits in its first cell; the cell to its right is a
/// continuation with an empty symbol, which backends skip.
public struct Cell: Equatable, Sendable {
    /// One grapheme cluster, a space for blank, or "" for the right half of a wide character.
    public var symbol: String
    public var style: TextStyle
    /// The cell of a terminal picture shown here instead of the (blank) text; nil for text.
    public var picture: PictureCell?

    public init(symbol: String = " ", style: TextStyle = .plain) {
        self.symbol = symbol
        self.style = style
    }

    /// A blank cell that shows one cell of a terminal picture.
    public init(picture: PictureCell) {
        symbol = " "
        style = .plain
        self.picture = picture
    }

    public var isContinuation: Bool { symbol.isEmpty }
}
