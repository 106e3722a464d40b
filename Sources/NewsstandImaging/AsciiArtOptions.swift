/// How `AsciiArtRenderer` lays out and shades a picture.
public struct AsciiArtOptions: Sendable, Equatable {
    /// Width of the art in terminal cells.
    public var columns: Int
    /// Height of the art in terminal cells.
    public var rows: Int
    /// Cell height divided by cell width (about 2 for most terminal fonts). Non-positive or non-finite means 2.
    public var cellAspect: Double
    /// Terminal background: decides whether bright or dark pixels get dense glyphs (ASCII modes), and what
    /// transparent pixels are composited over.
    public var background: TerminalBackground
    /// Spread each cell's brightness error (wanted ink minus the chosen glyph's coverage) to its neighbours
    /// (Floyd–Steinberg), so flat areas mix neighbouring glyphs and keep their mean (`ascii` mode; in `ascii-color`
    /// the colour already carries the brightness, so it has no effect there).
    public var ditherErrors: Bool
    /// ASCII, ASCII with a colour per cell, or half blocks.
    public var mode: CoverArtMode

    public init(columns: Int, rows: Int, cellAspect: Double = 2.0, background: TerminalBackground = .dark,
                ditherErrors: Bool = false, mode: CoverArtMode = .ascii) {
        self.columns = columns
        self.rows = rows
        self.cellAspect = cellAspect
        self.background = background
        self.ditherErrors = ditherErrors
        self.mode = mode
    }
}
