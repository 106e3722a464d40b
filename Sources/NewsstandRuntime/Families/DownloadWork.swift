import Foundation
import NewsstandContent
import NewsstandCore
import NewsstandUI

/// Downloads and the files they leave: the download queue (start, cancel, pause, reorder, how many at once, the
/// rate limit), titles from a catalog put on the Library shelf or taken off it, a download's file deleted, and
/// what the downloads take against the storage budget.
final class DownloadWork: EffectFamily {
    private let services: RuntimeServices
    let downloads: DownloadQueue
    /// Titles and files on disk (the transfers run on the download queue's own threads).
    private let queue = DispatchQueue(label: "newsstand.downloads.files", qos: .userInitiated)

    init(services: RuntimeServices) {
        self.services = services
        let send = services.send
        downloads = DownloadQueue(store: services.store, paths: services.paths, policy: DownloadPolicy(configuration: services.configuration),
                                  client: services.client) { send(.downloadReported($0)) }
    }

    func perform(_ effect: Effect) {
        let services = services
        let store = services.store
        switch effect {
        case .download(let issueID):
            downloads.enqueue(issueID: issueID)
        case .cancelDownload(let issueID):
            downloads.cancel(issueID: issueID)
        case .pauseDownload(let issueID):
            downloads.pause(issueID: issueID)
        case .moveDownload(let issueID, let offset):
            downloads.move(issueID: issueID, by: offset)
        case .setMaxConcurrentDownloads(let count):
            downloads.setMaxConcurrent(count)
        case .setRateLimit(let bytesPerSecond):
            downloads.setRateLimit(bytesPerSecond: bytesPerSecond)
        case .acquireTitle(let entry, let link):
            queue.async {
                let result = Result { try TitleAcquirer(store: store).acquire(entry, through: link) }
                if case .success(let issue) = result {
                    services.sendLibrary()
                    self.downloads.enqueue(issueID: issue.id)
                }
                services.send(.titleAcquired(result.map(\.title).mapError { ReaderFailure("cannot get \(entry.title): \($0)") }))
            }
        case .removeTitle(let issueID):
            queue.async {
                let title = (try? store.issue(id: issueID))?.title ?? "The title"
                do {
                    try TitleAcquirer(store: store).remove(issueID: issueID, paths: services.paths)
                    services.report(.titleRemoved(title: title))
                } catch {
                    services.report(.titleNotRemoved(title: title, reason: "\(error)"))
                }
                services.sendLibrary()
            }
        case .deleteDownload(let issueID):
            queue.async {
                do {
                    guard let issue = try store.issue(id: issueID), let publication = try store.publication(id: issue.publicationID) else { return }
                    try IssueStorage(store: store, paths: services.paths).evict(issue, of: publication)
                    services.report(.downloadDeleted(title: issue.title))
                } catch {
                    services.report(.downloadNotDeleted(reason: "\(error)"))
                }
                services.sendLibrary()
            }
        case .measureStorage:
            queue.async { services.sendStorage() }
        default:
            break
        }
    }
}
