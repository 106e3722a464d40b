import NewsstandContent
import NewsstandImaging

/// An in-memory grid of cells that screens render into; the backend draws what changed.
///
/// Writing clips to the buffer (and to an optional width), never splits a wide character,
/// and replaces any control character that slipped through with U+FFFD, so nothing written
/// here can move the terminal's cursor or change its modes.
public struct CellBuffer: Equatable, Sendable {
    public let width: Int
    public let height: Int
    public private(set) var cells: [Cell]
    /// The terminal pictures whose placeholder cells were written into this buffer, by id.
    public internal(set) var pictures: [UInt32: TerminalPicture] = [:]

    public init(width: Int, height: Int, style: TextStyle = .plain) {
        self.width = max(0, width)
        self.height = max(0, height)
        cells = Array(repeating: Cell(style: style), count: self.width * self.height)
    }

    /// A buffer of these cells, row by row, as `CellBufferArchive` reads one back; nil unless there are width × height.
    init?(width: Int, height: Int, cells: [Cell]) {
        guard width >= 0, height >= 0, cells.count == width * height else { return nil }
        self.width = width
        self.height = height
        self.cells = cells
    }

    public var area: Rect { Rect(x: 0, y: 0, width: width, height: height) }

    public subscript(x: Int, y: Int) -> Cell {
        get { cells[y * width + x] }
    }

    /// Paints every cell of `rect` (clipped) blank in `style`.
    public mutating func fill(_ rect: Rect, style: TextStyle) {
        for y in max(0, rect.y)..<min(height, rect.maxY) where rect.x < width {
            for x in max(0, rect.x)..<min(width, rect.maxX) {
                set(x, y, Cell(style: style))
            }
        }
    }

    /// Changes the style of the cells in `rect`, keeping their text.
    public mutating func restyle(_ rect: Rect, _ transform: (TextStyle) -> TextStyle) {
        for y in max(0, rect.y)..<min(height, rect.maxY) where rect.x < width {
            for x in max(0, rect.x)..<min(width, rect.maxX) {
                cells[y * width + x].style = transform(cells[y * width + x].style)
            }
        }
    }

    /// Writes `text` on one row starting at `x`, clipped to `maxWidth` columns and the buffer.
    /// Returns the number of columns used.
    @discardableResult
    public mutating func write(_ text: String, x: Int, y: Int, style: TextStyle, maxWidth: Int? = nil) -> Int {
        guard y >= 0 && y < height && x < width else { return 0 }
        let limit = min(width, maxWidth.map { x + max(0, $0) } ?? width)
        var column = x
        for character in text {
            let symbol: String
            var characterWidth = DisplayWidth.of(character)
            if character.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F..<0xA0).contains($0.value) }) {
                symbol = "\u{FFFD}"
                characterWidth = 1
            } else if characterWidth == 0 {
                continue // a lone combining mark has nothing to sit on here
            } else {
                symbol = String(character)
            }
            if column + characterWidth > limit { break }
            if column >= 0 {
                set(column, y, Cell(symbol: symbol, style: style))
                if characterWidth == 2 { set(column + 1, y, Cell(symbol: "", style: style)) }
            }
            column += characterWidth
        }
        return max(0, column - x)
    }

    /// Writes `text` in `rect`'s first row, padded with spaces in `style` to the rectangle's width.
    public mutating func writeLine(_ text: String, in rect: Rect, style: TextStyle) {
        guard !rect.isEmpty else { return }
        fill(Rect(x: rect.x, y: rect.y, width: rect.width, height: 1), style: style)
        write(text, x: rect.x, y: rect.y, style: style, maxWidth: rect.width)
    }

    /// Sets one cell, blanking the other half of any wide character it overlaps.
    mutating func set(_ x: Int, _ y: Int, _ cell: Cell) {
        guard x >= 0 && x < width && y >= 0 && y < height else { return }
        let index = y * width + x
        if cells[index].isContinuation && x > 0 && !cell.isContinuation {
            cells[index - 1] = Cell(style: cells[index - 1].style)
        }
        if x + 1 < width && cells[index + 1].isContinuation && DisplayWidth.of(cells[index].symbol) == 2 {
            cells[index + 1] = Cell(style: cells[index + 1].style)
        }
        if cell.isContinuation && x == 0 { return }
        cells[index] = cell
        // A wide character whose right half would fall off the edge is shown as a space.
        if !cell.isContinuation && DisplayWidth.of(cell.symbol) == 2 && x + 1 >= width {
            cells[index] = Cell(style: cell.style)
        }
    }

    /// Blanks what a screen reader would read aloud as noise: box drawing, block elements and geometric shapes
    /// (U+2500–U+25FF: bars, rules, frames, the selection bar, ▶), keeping each cell's style.
    public mutating func blankDecoration() {
        for index in cells.indices {
            guard let scalar = cells[index].symbol.unicodeScalars.first, (0x2500...0x25FF).contains(scalar.value) else { continue }
            cells[index].symbol = " "
        }
    }

    /// The text of each row, for tests and plain output (wide characters once, trailing spaces trimmed).
    public func lines(trimmingTrailingSpaces: Bool = true) -> [String] {
        (0..<height).map { y in
            var line = ""
            for x in 0..<width { line += cells[y * width + x].symbol }
            if trimmingTrailingSpaces { while line.hasSuffix(" ") { line.removeLast() } }
            return line
        }
    }
}
