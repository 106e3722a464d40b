import Foundation
import NewsstandImaging

/// A picture of an article to be drawn as text art: which file, at what size and in what mode.
/// Art is cached by the whole request, so a width or mode change asks again.
public struct PictureRequest: Hashable, Sendable {
    public let issueID: Int64
    /// The image file; only files inside the issue's folder are drawn.
    public let source: URL
    public let columns: Int
    public let rows: Int
    public let mode: CoverArtMode
    public let background: TerminalBackground
    /// The cell size in pixels when the picture is shown as a terminal picture; nil for text art.
    public let cellPixels: CellPixelSize?

    public init(issueID: Int64, source: URL, columns: Int, rows: Int, mode: CoverArtMode = .ascii, background: TerminalBackground = .dark,
                cellPixels: CellPixelSize? = nil) {
        self.cellPixels = cellPixels
        self.issueID = issueID
        self.source = source
        self.columns = columns
        self.rows = rows
        self.mode = mode
        self.background = background
    }
}
