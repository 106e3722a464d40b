import NewsstandImaging

/// What a cover is wanted for: which issue, how many cells, on what background, in which mode, and the cell
/// size in pixels when it is shown as a terminal picture (nil: text art).
/// It is also the key of the rendered-art cache.
public struct CoverArtRequest: Sendable, Hashable {
    public let issueID: Int64
    public let columns: Int
    public let rows: Int
    public let background: TerminalBackground
    public let mode: CoverArtMode
    public let cellPixels: CellPixelSize?

    public init(issueID: Int64, columns: Int, rows: Int, background: TerminalBackground = .dark, mode: CoverArtMode = .ascii,
                cellPixels: CellPixelSize? = nil) {
        self.cellPixels = cellPixels
        self.issueID = issueID
        self.columns = columns
        self.rows = rows
        self.background = background
        self.mode = mode
    }
}
