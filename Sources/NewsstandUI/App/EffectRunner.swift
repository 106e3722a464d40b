import Foundation
import NewsstandContent
import NewsstandCore

/// Carries out effects in the background and reports back with messages.
///
/// Owns the long-lived services (download queue, cover service); `send` must hop to the UI
/// thread (the terminal front end passes a closure that does `DispatchQueue.main.async`).
public final class EffectRunner: @unchecked Sendable {
    public let store: LibraryStore
    public let paths: LibraryPaths
    private let send: @Sendable (Message) -> Void
    private let work = DispatchQueue(label: "newsstand.effects", qos: .userInitiated)
    private let refreshQueue = DispatchQueue(label: "newsstand.refresh", qos: .utility)
    public private(set) var downloads: DownloadQueue!
    public private(set) var covers: CoverArtService!

    /// Bytes downloaded issues may take; refreshes remove the oldest read issues beyond it.
    public let storageBudget: Int64?

    public init(store: LibraryStore, paths: LibraryPaths, maxConcurrentDownloads: Int = 3, storageBudget: Int64? = nil,
                rateLimit: Int? = nil, send: @escaping @Sendable (Message) -> Void) {
        self.store = store
        self.paths = paths
        self.storageBudget = storageBudget
        self.send = send
        let policy = DownloadPolicy(maxConcurrent: maxConcurrentDownloads, bytesPerSecondLimit: rateLimit)
        downloads = DownloadQueue(store: store, paths: paths, policy: policy) { send(.downloadReported($0)) }
        covers = CoverArtService(store: store, cacheDirectory: paths.coverCacheDirectory) { send(.coverReported($0)) }
    }

    public func perform(_ effects: [Effect]) {
        effects.forEach(perform)
    }

    public func perform(_ effect: Effect) {
        switch effect {
        case .loadLibrary:
            work.async { self.sendLibrary() }
        case .reloadLibraryIfChangedElsewhere:
            work.async {
                guard let counter = try? self.store.externalChangeCounter(), counter != self.lastExternalChangeCounter else { return }
                let isFirstLook = self.lastExternalChangeCounter == nil
                self.lastExternalChangeCounter = counter
                if !isFirstLook { self.sendLibrary() }
            }
        case .refreshPublications:
            refreshQueue.async {
                let sync = SyncService(store: self.store, paths: self.paths)
                let reports = sync.refreshAndQueue(into: self.downloads)
                sync.enforceLimits(budget: self.storageBudget)
                self.send(.publicationsRefreshed(reports.map(\.outcome)))
            }
        case .startDownload(let issueID):
            downloads.enqueue(issueID: issueID)
        case .cancelDownload(let issueID):
            downloads.cancel(issueID: issueID)
        case .requestCovers(let requests):
            covers.request(requests)
        case .openIssue(let issueID):
            work.async {
                let result = self.openBook(issueID: issueID)
                let position = try? self.store.readingPosition(issueID: issueID)
                try? self.store.markOpened(issueID: issueID)
                self.send(.issueOpened(issueID: issueID, result, resumeAt: position))
                self.sendLibrary()
            }
        case .loadArticle(let issueID, let articleIndex):
            work.async {
                let result = self.openBook(issueID: issueID).flatMap { book -> Result<[TextBlock], ReaderFailure> in
                    guard book.articles.indices.contains(articleIndex) else { return .failure(ReaderFailure("no article \(articleIndex + 1) in this issue")) }
                    let article = book.articles[articleIndex]
                    guard let data = FileManager.default.contents(atPath: article.file.path) else {
                        return .failure(ReaderFailure("the file \(article.file.lastPathComponent) is missing from the issue"))
                    }
                    return .success(XHTMLDocumentParser.blocks(from: data, baseURL: article.file))
                }
                self.send(.articleLoaded(issueID: issueID, articleIndex: articleIndex, result))
            }
        case .saveReadingPosition(let issueID, let position):
            work.async { try? self.store.saveReadingPosition(position, issueID: issueID) }
        case .saveSetting(let key, let value):
            work.async { try? self.store.setSetting(key, to: value) }
        case .quit:
            break
        case .pauseDownload(let issueID):
            downloads.pause(issueID: issueID)
        case .resumeDownload(let issueID):
            downloads.resume(issueID: issueID)
        case .retryDownload(let issueID):
            downloads.enqueue(issueID: issueID)
        case .moveDownload(let issueID, let offset):
            downloads.move(issueID: issueID, by: offset)
        case .setMaxConcurrentDownloads(let count):
            downloads.setMaxConcurrent(count)
        case .setRateLimit(let bytesPerSecond):
            downloads.setRateLimit(bytesPerSecond: bytesPerSecond)
        }
    }

    /// Resumes downloads a previous run left unfinished.
    public func resumeInterruptedDownloads() {
        downloads.resumeInterrupted()
    }

    private func sendLibrary() {
        do {
            send(.libraryLoaded(try LibrarySnapshot.load(from: store)))
        } catch {
            send(.publicationsRefreshed([]))
        }
    }

    private var bookCache: (issueID: Int64, book: EPUBBook)?
    /// The last `externalChangeCounter` seen; used on `work` only.
    private var lastExternalChangeCounter: Int64?

    /// Opens an installed issue's book (kept while the same issue is read). Called on `work` only.
    private func openBook(issueID: Int64) -> Result<EPUBBook, ReaderFailure> {
        if let cached = bookCache, cached.issueID == issueID { return .success(cached.book) }
        do {
            guard let issue = try store.issue(id: issueID), let publication = try store.publication(id: issue.publicationID) else {
                return .failure(ReaderFailure("the issue is no longer in the library"))
            }
            let book = try IssueContent.openBook(folder: paths.folder(for: issue, of: publication))
            bookCache = (issueID, book)
            return .success(book)
        } catch {
            return .failure(ReaderFailure("\(error)"))
        }
    }
}

extension LibrarySnapshot {
    /// Reads the whole library from the store.
    public static func load(from store: LibraryStore) throws -> LibrarySnapshot {
        let publications = try store.publications()
        var issues: [Int64: [Issue]] = [:]
        for issue in try store.allIssues() { issues[issue.publicationID, default: []].append(issue) }
        let reading = try store.currentlyReadingIssueID()
        return LibrarySnapshot(publications: publications, issues: issues, currentlyReadingIssueID: reading,
                               readingPosition: try reading.flatMap { try store.readingPosition(issueID: $0) })
    }
}
