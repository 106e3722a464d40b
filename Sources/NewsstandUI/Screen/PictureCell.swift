/// One cell's worth of a terminal picture: which picture (`TerminalPicture.id`) and which of its cells. A cell
/// of the buffer that carries one is blank text; the terminal backend decides how the picture reaches the screen
/// (kitty's placeholders, a placement over the cells, a sixel drawn after the frame), so the interface never
/// writes a protocol's bytes or symbols.
public struct PictureCell: Hashable, Sendable {
    public let id: UInt32
    public let row: Int
    public let column: Int

    public init(id: UInt32, row: Int, column: Int) {
        self.id = id
        self.row = row
        self.column = column
    }

    /// The buffer cell that shows it.
    public var cell: Cell { Cell(picture: self) }

    /// The picture cell a buffer cell shows; nil for a cell of text.
    public init?(_ cell: Cell) {
        guard let picture = cell.picture else { return nil }
        self = picture
    }
}
