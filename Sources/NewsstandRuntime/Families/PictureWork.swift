import Foundation
import NewsstandContent
import NewsstandCore
import NewsstandImaging
import NewsstandUI
import Synchronization

/// Covers and pictures: shelf covers (through `CoverArtService`), an article's pictures and a feed article's web
/// pictures (drawn art kept in a small cache), PDF and comic pages, and streamed pages (OPDS-PSE) fetched one at a time.
final class PictureWork: EffectFamily {
    /// The most bytes one feed article's picture may take (it stops arriving there).
    static let webPictureLimit = 8 << 20

    private let services: RuntimeServices
    private let reading: IssueReading
    let covers: CoverArtService
    /// Article pictures and PDF pages.
    private let queue = DispatchQueue(label: "newsstand.pictures", qos: .userInitiated)
    private let cache = Mutex(PictureCache())
    /// Counts the pages asked to be drawn (`.renderPage`), so a page turned past before it was drawn is skipped.
    private let pageRequests = Mutex(0)
    /// Streamed pages, fetched one at a time; `latestStreamedPage` is the last one asked for, by which those the
    /// reader has moved past are skipped.
    private let streamQueue = DispatchQueue(label: "newsstand.page-stream", qos: .userInitiated)
    private let latestStreamedPage = Mutex<StreamedPageRequest?>(nil)

    init(services: RuntimeServices, reading: IssueReading) {
        self.services = services
        self.reading = reading
        let send = services.send
        covers = CoverArtService(store: services.store, cacheDirectory: services.paths.coverCacheDirectory, client: services.client,
                                 issueFolder: CoverArtService.folders(of: services.store, in: services.paths)) { send(.coverReported($0)) }
    }

    func perform(_ effect: Effect) {
        switch effect {
        case .requestCovers(let requests):
            covers.request(requests)
        case .requestPictures(let requests):
            queue.async {
                for request in requests {
                    let result = self.cached(request) {
                        self.services.issueFolder(request.issueID).flatMap { ReaderWork.picture(request, issueFolder: $0) }
                    }
                    self.services.send(.articlePictureRendered(request, result))
                }
            }
        case .requestWebPictures(let requests):
            queue.async {
                for request in requests {
                    let result = self.cached(request) { self.webPicture(request) }
                    self.services.send(.articlePictureRendered(request, result))
                }
            }
        case .fetchStreamedPage(let request):
            fetchStreamedPage(request)
        case .renderPage(let issueID, let articleIndex, let columns, let rows, let mode, let background, let cellPixels):
            let serial = pageRequests.withLock { count -> Int in
                count += 1
                return count
            }
            // The book (cached) comes from the reading queue; the drawing happens on `queue`.
            reading.withBook(issueID: issueID) { book in
                self.queue.async {
                    // Pages turned faster than they are drawn: only the last one asked for is drawn.
                    guard self.pageRequests.withLock({ $0 }) == serial else { return }
                    let result = self.services.issueFolder(issueID).flatMap { folder in
                        if let book, book.isComicBook {
                            return ReaderWork.comicPage(book, index: articleIndex, issueFolder: folder, columns: columns, rows: rows, mode: mode,
                                                        background: background, cellPixels: cellPixels)
                        }
                        return ReaderWork.pdfPage(issueFolder: folder, page: articleIndex + 1, columns: columns, rows: rows, mode: mode,
                                                  background: background, cellPixels: cellPixels)
                    }
                    self.services.send(.pageRendered(issueID: issueID, articleIndex: articleIndex, result))
                }
            }
        default:
            break
        }
    }

    /// The art kept for `request`, else what `draw` makes of it (kept when it is drawn).
    private func cached(_ request: PictureRequest, else draw: () -> Result<TextArt, ReaderFailure>) -> Result<TextArt, ReaderFailure> {
        if let art = cache.withLock({ $0.art[request] }) { return .success(art) }
        let result = draw()
        if case .success(let art) = result { cache.withLock { $0.keep(art, for: request) } }
        return result
    }

    /// A feed article's picture, fetched from the web (http and https only) within `webPictureLimit` and drawn.
    private func webPicture(_ request: PictureRequest) -> Result<TextArt, ReaderFailure> {
        guard ["http", "https"].contains(request.source.scheme?.lowercased() ?? "") else {
            return .failure(ReaderFailure("only pictures on the web are fetched for feed articles"))
        }
        return Result {
            try ResourceFetcher.fetch(request.source, from: .network, maxBytes: Self.webPictureLimit, timeout: 20, client: services.client)
        }.mapError { ReaderFailure("the picture cannot be fetched: \($0)") }.flatMap {
            ReaderWork.draw($0, columns: request.columns, rows: request.rows, mode: request.mode, background: request.background,
                            cellPixels: request.cellPixels)
        }
    }

    private func fetchStreamedPage(_ request: StreamedPageRequest) {
        latestStreamedPage.withLock { $0 = request }
        streamQueue.async {
            let services = self.services
            if let latest = self.latestStreamedPage.withLock({ $0 }), request.isOutdated(by: latest) {
                services.send(.streamedPageSkipped(request))
                return
            }
            let result: Result<TextArt, ReaderFailure>
            do {
                result = try StreamedPageWork.page(request, client: services.client)
            } catch {
                // The page says why it is missing until the login is given and the page fetched again.
                result = .failure(ReaderFailure("page \(request.page + 1) could not be fetched: \(error)"))
                if let url = request.stream.url(forPage: request.page) {
                    _ = services.askForLogin(after: error, at: url, retry: .fetchStreamedPage(request))
                }
            }
            services.send(.streamedPageFetched(request, result))
        }
    }
}

/// Drawn art by request: at most 256 pictures, and at most 64 MB of terminal pictures' pixels (then it starts again).
struct PictureCache {
    private(set) var art: [PictureRequest: TextArt] = [:]
    /// Pixels held by terminal pictures, in bytes.
    private var bytes = 0

    mutating func keep(_ drawn: TextArt, for request: PictureRequest) {
        let more = drawn.picture?.image.pixels.count ?? 0
        if art.count >= 256 || bytes + more > 64 << 20 {
            art.removeAll()
            bytes = 0
        }
        art[request] = drawn
        bytes += more
    }
}
