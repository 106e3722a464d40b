import NewsstandImaging

/// What a cover is wanted for: which issue, how many cells, on what background, in which mode.
/// It is also the key of the rendered-art cache.
public struct CoverArtRequest: Sendable, Hashable {
    public let issueID: Int64
    public let columns: Int
    public let rows: Int
    public let background: TerminalBackground
    public let mode: CoverArtMode

    public init(issueID: Int64, columns: Int, rows: Int, background: TerminalBackground = .dark, mode: CoverArtMode = .ascii) {
        self.issueID = issueID
        self.columns = columns
        self.rows = rows
        self.background = background
        self.mode = mode
    }
}
