/// A picture drawn as text: `lines.count == rows`, each line exactly `columns` characters, 7-bit printable ASCII only;
/// `colors` holds one average colour per cell, row-major (`colors.count == columns * rows`).
public struct TextArt: Sendable, Equatable {
    public let columns: Int
    public let rows: Int
    public let lines: [String]
    public let colors: [RGBColor]

    public init(columns: Int, rows: Int, lines: [String], colors: [RGBColor]) {
        self.columns = columns
        self.rows = rows
        self.lines = lines
        self.colors = colors
    }

    /// No cells at all.
    public static let empty = TextArt(columns: 0, rows: 0, lines: [], colors: [])

    /// The lines joined with newlines.
    public var text: String { lines.joined(separator: "\n") }

    /// The colour of the cell at `column`, `row`.
    public func color(column: Int, row: Int) -> RGBColor { colors[row * columns + column] }
}
