import NewsstandCore
import NewsstandImaging

/// Reading a catalog entry's pages one at a time as its server streams them (OPDS-PSE), nothing downloaded:
/// the page shown, the few pages near it already drawn (or that failed), and those asked for.
public struct PageStreamScreen: Equatable, Sendable {
    public let title: String
    public let stream: CatalogPageStream
    /// The page shown, from 0.
    public private(set) var page: Int
    /// The size pages are drawn at; pages drawn at another are dropped.
    public private(set) var drawing: PageDrawing
    /// Pages drawn, or why they could not be: at most `keptPages`, the nearest to the one shown.
    public private(set) var pages: [Int: Result<TextArt, ReaderFailure>] = [:]
    /// Pages asked for and not answered yet, each with its request.
    public private(set) var requested: [Int: StreamedPageRequest] = [:]

    /// How many drawn pages are kept in memory.
    public static let keptPages = 5

    /// Opens `stream` where the server says the reader left off (`pse:lastRead`), else at its first page.
    public init(title: String, stream: CatalogPageStream, drawing: PageDrawing) {
        self.title = title
        self.stream = stream
        self.drawing = drawing
        page = stream.startPage
    }

    /// The pages wanted while `page` is shown: it, and the next one (fetched ahead).
    public static func wantedPages(reading page: Int, count: Int) -> [Int] {
        [page, page + 1].filter { (0..<count).contains($0) }
    }

    /// The requests for the wanted pages neither kept nor asked for yet, from now on counted as asked for.
    public mutating func requestWantedPages() -> [StreamedPageRequest] {
        let wanted = Self.wantedPages(reading: page, count: stream.pageCount).filter { pages[$0] == nil && requested[$0] == nil }
        let requests = wanted.map { StreamedPageRequest(stream: stream, page: $0, readingPage: page, drawing: drawing) }
        for request in requests { requested[request.page] = request }
        return requests
    }

    /// Shows `newPage`; if it had failed, it is tried again.
    public mutating func turn(to newPage: Int) {
        page = min(max(0, newPage), max(0, stream.pageCount - 1))
        if case .failure? = pages[page] { pages[page] = nil }
        dropFarPages()
    }

    /// Keeps the answer to `request` when drawn at the size pages are drawn at now (a page fetched again after a
    /// login was given too), but never a failure over a page already drawn.
    public mutating func receive(_ result: Result<TextArt, ReaderFailure>, for request: StreamedPageRequest) {
        guard request.drawing == drawing else { return }
        if requested[request.page] == request { requested[request.page] = nil }
        if case .success? = pages[request.page], case .failure = result { return }
        pages[request.page] = result
        dropFarPages()
    }

    /// Forgets `request`, which was skipped, so that its page can be asked for again.
    public mutating func forget(_ request: StreamedPageRequest) {
        if requested[request.page] == request { requested[request.page] = nil }
    }

    /// Draws pages at `newDrawing` from now on, dropping those drawn or asked for at another size.
    public mutating func redraw(at newDrawing: PageDrawing) {
        guard newDrawing != drawing else { return }
        drawing = newDrawing
        pages.removeAll()
        requested.removeAll()
    }

    private mutating func dropFarPages() {
        while pages.count > Self.keptPages, let farthest = pages.keys.max(by: { abs($0 - page) < abs($1 - page) }) {
            pages[farthest] = nil
        }
    }
}
