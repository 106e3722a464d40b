import Foundation
import NewsstandImaging

/// Fetches, decodes and draws issue covers as text art, off the caller's thread.
///
/// Cover files are cached on disk (under the cache directory, by issue); rendered art is kept
/// in a bounded in-memory LRU cache keyed by the request. Requests no longer wanted (rows
/// scrolled away) are dropped with `keepOnly(_:)` before they start.
public final class CoverArtService: @unchecked Sendable {
    private let store: LibraryStore
    private let cacheDirectory: URL
    private let onEvent: @Sendable (CoverArtEvent) -> Void
    private let queue = DispatchQueue(label: "newsstand.covers")
    private let workers = DispatchQueue(label: "newsstand.covers.work", qos: .utility, attributes: .concurrent)
    private let slots = DispatchSemaphore(value: 2)
    private var pending: [CoverArtRequest] = []
    private var running: Set<CoverArtRequest> = []
    private var cache = LeastRecentlyUsedCache<CoverArtRequest, TextArt>(capacity: 512)

    public init(store: LibraryStore, cacheDirectory: URL, onEvent: @escaping @Sendable (CoverArtEvent) -> Void) {
        self.store = store
        self.cacheDirectory = cacheDirectory
        self.onEvent = onEvent
    }

    /// Asks for covers; cached art is reported at once, the rest is worked on newest request first.
    public func request(_ requests: [CoverArtRequest]) {
        queue.async {
            for request in requests {
                if let art = self.cache.value(for: request) {
                    self.onEvent(.rendered(request, art))
                } else if !self.running.contains(request) && !self.pending.contains(request) {
                    self.pending.append(request)
                }
            }
            self.startNext()
        }
    }

    /// Drops queued requests that are not in `wanted` (work already started finishes and is cached).
    public func keepOnly(_ wanted: Set<CoverArtRequest>) {
        queue.async { self.pending.removeAll { !wanted.contains($0) } }
    }

    private func startNext() {
        while running.count < 2, let request = pending.popLast() {
            running.insert(request)
            workers.async {
                let event = self.render(request)
                self.queue.async {
                    self.running.remove(request)
                    if case .rendered(_, let art) = event { self.cache.insert(art, for: request) }
                    self.onEvent(event)
                    self.startNext()
                }
            }
        }
    }

    private func render(_ request: CoverArtRequest) -> CoverArtEvent {
        do {
            guard let issue = try store.issue(id: request.issueID) else {
                return .failed(request, reason: "the issue is no longer in the library")
            }
            guard let coverURL = issue.coverURL else { return .failed(request, reason: "the catalog gives no cover") }
            let data = try cachedCover(for: issue, from: coverURL)
            // Sub-pixels per cell are small; decode no larger than a few times the cell grid.
            let image = try ImageDecoder.decode(data, targetSize: (request.columns * 4, request.rows * 8))
            let art = AsciiArtRenderer.render(image, options: AsciiArtOptions(columns: request.columns, rows: request.rows, background: request.background))
            return .rendered(request, art)
        } catch {
            return .failed(request, reason: "cover: \(error)")
        }
    }

    /// The cover file, from the disk cache when this URL was fetched before.
    private func cachedCover(for issue: Issue, from url: URL) throws -> Data {
        let key = "\(issue.id)-\(PathComponent.safe(url.lastPathComponent))"
        let file = cacheDirectory.appendingPathComponent(key)
        if let data = FileManager.default.contents(atPath: file.path), !data.isEmpty { return data }
        let data = try ResourceFetcher.fetch(url, maxBytes: 32 << 20)
        try? FileManager.default.createDirectory(at: cacheDirectory, withIntermediateDirectories: true)
        try? data.write(to: file, options: .atomic)
        return data
    }
}
