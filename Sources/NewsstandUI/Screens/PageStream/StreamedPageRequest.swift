import NewsstandCore
import NewsstandImaging

/// The size and look streamed pages are drawn at: the area of the window a page fills, in cells.
public struct PageDrawing: Equatable, Sendable {
    public let columns: Int
    public let rows: Int
    public let mode: CoverArtMode
    public let background: TerminalBackground

    public init(columns: Int, rows: Int, mode: CoverArtMode = .ascii, background: TerminalBackground = .dark) {
        self.columns = columns
        self.rows = rows
        self.mode = mode
        self.background = background
    }
}

/// One page of a page stream to fetch and draw (`Effect.fetchStreamedPage`), and where the reader was when
/// it was asked for, so that work the reader has moved past is skipped.
public struct StreamedPageRequest: Equatable, Sendable {
    public let stream: CatalogPageStream
    /// The page to fetch, from 0.
    public let page: Int
    /// The page shown when it was asked for: `page` itself, or the one before it (a prefetch).
    public let readingPage: Int
    public let drawing: PageDrawing

    public init(stream: CatalogPageStream, page: Int, readingPage: Int, drawing: PageDrawing) {
        self.stream = stream
        self.page = page
        self.readingPage = readingPage
        self.drawing = drawing
    }

    /// Whether `latest`, asked for after this one, made it pointless: another book or size, or the reader
    /// has moved where this page is no longer wanted.
    public func isOutdated(by latest: StreamedPageRequest) -> Bool {
        latest.stream != stream || latest.drawing != drawing
            || !PageStreamScreen.wantedPages(reading: latest.readingPage, count: stream.pageCount).contains(page)
    }
}
