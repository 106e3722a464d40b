/// One cell's worth of a terminal picture: which picture (`TerminalPicture.id`) and which of its cells. A cell
/// of the buffer that carries one is blank text; the terminal backend decides how the picture reaches the screen
/// (kitty's placeholders, a placement over the cells, a sixel drawn after the frame), so the interface never
/// writes a protocol's bytes or symbols.
///
/// Kept in eight bytes, its row and column as 16-bit numbers (a picture is never 65,536 cells across): every cell of
/// every frame has room for one, and with two full-width numbers a `Cell` took 64 bytes instead of 40, a screen's
/// buffer 300 KB instead of 190 (each frame's is made anew; the first one's pages are each a fault).
public struct PictureCell: Hashable, Sendable {
    public let id: UInt32
    private let storedRow: UInt16
    private let storedColumn: UInt16

    public var row: Int { Int(storedRow) }
    public var column: Int { Int(storedColumn) }

    /// `row` and `column` are clamped to 0–65,535.
    public init(id: UInt32, row: Int, column: Int) {
        self.id = id
        storedRow = UInt16(clamping: row)
        storedColumn = UInt16(clamping: column)
    }

    /// The buffer cell that shows it.
    public var cell: Cell { Cell(picture: self) }

    /// The picture cell a buffer cell shows; nil for a cell of text.
    public init?(_ cell: Cell) {
        guard let picture = cell.picture else { return nil }
        self = picture
    }
}
