/// A picture drawn as text.
///
/// `lines.count == rows`, and each line holds exactly `columns` grapheme clusters, each one cell wide:
/// 7-bit printable ASCII in the ASCII modes, "▀" or " " in `blocks` mode. `foreground` and `background` hold
/// one colour per cell, row-major (`count == columns * rows`); nil means the terminal's (or the theme's) default.
/// In `ascii` mode every colour is nil.
/// When the terminal shows real pictures, `picture` holds the picture for these cells and the lines are blank.
public struct TextArt: Sendable, Equatable {
    public let columns: Int
    public let rows: Int
    public let lines: [String]
    public let foreground: [RGBColor?]
    public let background: [RGBColor?]
    /// The terminal picture shown over these cells instead of the text, when there is one.
    public var picture: TerminalPicture?

    public init(columns: Int, rows: Int, lines: [String], foreground: [RGBColor?], background: [RGBColor?]) {
        precondition(foreground.count == columns * rows && background.count == columns * rows,
                     "TextArt needs one foreground and one background colour per cell")
        self.columns = columns
        self.rows = rows
        self.lines = lines
        self.foreground = foreground
        self.background = background
    }

    /// Uncoloured art (every cell in the default colours).
    public init(columns: Int, rows: Int, lines: [String]) {
        let none = [RGBColor?](repeating: nil, count: max(0, columns * rows))
        self.init(columns: columns, rows: rows, lines: lines, foreground: none, background: none)
    }

    /// Blank cells carrying a terminal picture of the same size.
    public init(picture: TerminalPicture) {
        self.init(columns: picture.columns, rows: picture.rows,
                  lines: Array(repeating: String(repeating: " ", count: picture.columns), count: picture.rows))
        self.picture = picture
    }

    /// No cells at all.
    public static let empty = TextArt(columns: 0, rows: 0, lines: [])

    /// The lines joined with newlines.
    public var text: String { lines.joined(separator: "\n") }

    /// Whether any cell has its own colour (false for `ascii` art).
    public var hasColors: Bool {
        foreground.contains { $0 != nil } || background.contains { $0 != nil }
    }

    /// The foreground colour of the cell at `column`, `row`.
    public func foreground(column: Int, row: Int) -> RGBColor? { foreground[row * columns + column] }

    /// The background colour of the cell at `column`, `row`.
    public func background(column: Int, row: Int) -> RGBColor? { background[row * columns + column] }
}
