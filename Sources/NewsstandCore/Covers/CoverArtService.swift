import Foundation
import NewsstandImaging
import Synchronization

/// Fetches, decodes and draws issue covers as text art, off the caller's thread.
///
/// Cover files are cached on disk (under the cache directory, by issue) and revalidated with their
/// `ETag` / `Last-Modified` (see `CoverFileCache`); rendered art is kept in a bounded in-memory LRU
/// cache keyed by the request (issue, size, background, mode).
///
/// Scheduling: every call to `request(_:)` outranks all earlier ones, and within one call the requests
/// go in the order given, so the rows the user is looking at now are drawn first; asking again for a
/// request still waiting raises it to the new rank. `keepOnly(_:)` drops waiting requests for rows no
/// longer in view (work already started finishes, is cached and reported). Every event names the
/// request it answers.
///
/// The scheduling and the art cache (`Schedule`) live on one serial queue, reached only through `onQueue`.
public final class CoverArtService: Sendable {
    private let store: LibraryStore
    private let files: CoverFileCache
    private let onEvent: @Sendable (CoverArtEvent) -> Void
    private let concurrency: Int
    private let queue = DispatchQueue(label: "newsstand.covers")
    private let workers = DispatchQueue(label: "newsstand.covers.work", qos: .utility, attributes: .concurrent)
    private let schedule = Mutex(Schedule())

    /// What waits, what runs and the art kept; used only on `queue` (see `onQueue`).
    private struct Schedule {
        /// Waiting requests and their rank (higher goes first).
        var pending: [CoverArtRequest: UInt64] = [:]
        var nextRank: UInt64 = 0
        var running: Set<CoverArtRequest> = []
        var cache = LeastRecentlyUsedCache<CoverArtRequest, TextArt>(capacity: 512)
        /// Covers as terminal pictures hold pixels (tens to hundreds of kB each): fewer are kept.
        var pictureCache = LeastRecentlyUsedCache<CoverArtRequest, TextArt>(capacity: 96)
    }
    /// The folder a downloaded issue is installed in, for covers the catalog does not give.
    private let issueFolder: (@Sendable (Issue) -> URL?)?

    /// - Parameters:
    ///   - concurrency: covers rendered at once (at least 1).
    ///   - revalidationInterval: a cached cover file checked more than this long ago is revalidated again
    ///     (besides once per service, that is once per process run).
    ///   - client: the HTTP client covers are fetched with (and the logins it knows).
    ///   - issueFolder: where a downloaded issue is installed; a downloaded comic book without a cover in the
    ///     catalog then shows its first page (`IssueContent.coverPicture`).
    public init(store: LibraryStore, cacheDirectory: URL, concurrency: Int = 2, revalidationInterval: TimeInterval = 86_400,
                client: HTTPClient = .shared, issueFolder: (@Sendable (Issue) -> URL?)? = nil,
                onEvent: @escaping @Sendable (CoverArtEvent) -> Void) {
        self.store = store
        self.issueFolder = issueFolder
        self.files = CoverFileCache(directory: cacheDirectory, revalidationInterval: revalidationInterval, client: client)
        self.concurrency = max(1, concurrency)
        self.onEvent = onEvent
    }

    /// Asks for covers; cached art is reported at once, the rest is worked on newest call first,
    /// in the given order within a call.
    public func request(_ requests: [CoverArtRequest]) {
        onQueue { schedule in
            var rank = schedule.nextRank + UInt64(requests.count)
            schedule.nextRank = rank
            for request in requests {
                if let art = request.cellPixels == nil ? schedule.cache.value(for: request) : schedule.pictureCache.value(for: request) {
                    self.onEvent(.rendered(request, art))
                } else if !schedule.running.contains(request) {
                    schedule.pending[request] = rank
                }
                rank -= 1
            }
            self.startNext(&schedule)
        }
    }

    /// Drops waiting requests that are not in `wanted` (work already started finishes and is cached).
    public func keepOnly(_ wanted: Set<CoverArtRequest>) {
        onQueue { schedule in schedule.pending = schedule.pending.filter { wanted.contains($0.key) } }
    }

    /// The cover file of an issue, through the same disk cache and revalidation as the shelf; for a downloaded
    /// issue the catalog gives no cover for, the picture the issue offers (a comic book's first page). Blocking.
    public func coverData(issueID: Int64) throws -> Data {
        guard let issue = try store.issue(id: issueID) else { throw FetchError("the issue is no longer in the library") }
        guard let coverURL = issue.coverURL else {
            if issue.state == .available, let folder = issueFolder?(issue), let picture = IssueContent.coverPicture(in: folder) {
                return try Self.localPicture(picture)
            }
            throw FetchError("the catalog gives no cover")
        }
        return try files.data(issueID: issue.id, url: coverURL, from: store.documentOrigin(publicationID: issue.publicationID))
    }

    /// Where a library's issues are installed, as `init`'s `issueFolder` takes it.
    public static func folders(of store: LibraryStore, in paths: LibraryPaths) -> @Sendable (Issue) -> URL? {
        { issue in (try? store.publication(id: issue.publicationID)).flatMap { $0.map { paths.folder(for: issue, of: $0) } } }
    }

    /// The most bytes of an issue's own picture read for its cover.
    static let maximumLocalPictureBytes = 64 << 20

    private static func localPicture(_ file: URL) throws -> Data {
        guard let handle = FileHandle(forReadingAtPath: file.path) else { throw FetchError("the issue's first page cannot be read") }
        defer { try? handle.close() }
        let data = try handle.read(upToCount: maximumLocalPictureBytes + 1) ?? Data()
        guard data.count <= maximumLocalPictureBytes else { throw FetchError("the issue's first page is larger than 64 MiB") }
        return data
    }

    /// Runs `body` on the queue with the schedule, after the work queued before it.
    private func onQueue(_ body: @escaping @Sendable (inout Schedule) -> Void) {
        queue.async { self.schedule.withLock { body(&$0) } }
    }

    private func startNext(_ schedule: inout Schedule) {
        while schedule.running.count < concurrency, let request = schedule.pending.max(by: { $0.value < $1.value })?.key {
            schedule.pending[request] = nil
            schedule.running.insert(request)
            workers.async {
                let event = self.render(request)
                self.onQueue { schedule in
                    schedule.running.remove(request)
                    if case .rendered(_, let art) = event {
                        if art.picture == nil { schedule.cache.insert(art, for: request) } else { schedule.pictureCache.insert(art, for: request) }
                    }
                    self.onEvent(event)
                    self.startNext(&schedule)
                }
            }
        }
    }

    private func render(_ request: CoverArtRequest) -> CoverArtEvent {
        do {
            let data = try coverData(issueID: request.issueID)
            // Decode no larger than shown: a few sub-pixels per cell for text, the cells' pixels for a picture.
            let size = TextArt.decodingSize(columns: request.columns, rows: request.rows, cellPixels: request.cellPixels)
            let image = try ImageDecoder.decode(data, targetSize: size)
            let options = AsciiArtOptions(columns: request.columns, rows: request.rows, background: request.background, mode: request.mode)
            return .rendered(request, TextArt.render(image, options: options, cellPixels: request.cellPixels))
        } catch {
            return .failed(request, reason: "cover: \(error)")
        }
    }
}
