import Foundation

/// Brings every subscription up to date: refreshes catalogs, queues downloads under each
/// publication's policy, and removes issues beyond keep-newest-N or the storage budget.
///
/// Used by `newsstand sync` and by the TUI's refreshes; blocking, so run it off the UI thread.
public struct SyncService: Sendable {
    public let store: LibraryStore
    public let paths: LibraryPaths

    public init(store: LibraryStore, paths: LibraryPaths) {
        self.store = store
        self.paths = paths
    }

    /// What one publication's refresh brought and what it set going.
    public struct PublicationReport: Sendable, Equatable {
        public var publication: Publication
        public var outcome: PublicationRefresher.Outcome
        public var queued: [Issue]
    }

    /// Refreshes every subscribed publication and queues the downloads their policies ask for.
    public func refreshAndQueue(into downloads: DownloadQueue) -> [PublicationReport] {
        ((try? store.publications()) ?? []).filter(\.isSubscribed).map { refreshAndQueue($0, into: downloads) }
    }

    /// Refreshes one publication and queues what its policy asks for.
    public func refreshAndQueue(_ publication: Publication, into downloads: DownloadQueue) -> PublicationReport {
        let outcome = PublicationRefresher(store: store).refresh(publication)
        let current = (try? store.publication(id: publication.id)) ?? publication
        let issues = (try? store.issues(publicationID: publication.id)) ?? []
        let queued = SyncPlanner.issuesToDownload(for: current, issues: issues, arrived: Set(outcome.newIssueNames))
        queued.forEach { downloads.enqueue(issueID: $0.id) }
        return PublicationReport(publication: current, outcome: outcome, queued: queued)
    }

    /// Removes downloaded issues beyond each publication's keep-newest-N and then, oldest read first,
    /// until the library fits `budget` (when given). Returns what was removed.
    @discardableResult
    public func enforceLimits(budget: Int64?) -> [Issue] {
        let storage = IssueStorage(store: store, paths: paths)
        let reading = try? store.currentlyReadingIssueID()
        let publications = Dictionary(uniqueKeysWithValues: ((try? store.publications()) ?? []).map { ($0.id, $0) })
        var removed: [Issue] = []
        for publication in publications.values {
            let issues = (try? store.issues(publicationID: publication.id)) ?? []
            for issue in SyncPlanner.issuesBeyondKeepLimit(for: publication, issues: issues, readingIssueID: reading ?? nil) {
                if (try? storage.evict(issue, of: publication)) != nil { removed.append(issue) }
            }
        }
        if let budget {
            for issue in plannedEvictions(budget: budget) {
                if let publication = publications[issue.publicationID], (try? storage.evict(issue, of: publication)) != nil { removed.append(issue) }
            }
        }
        return removed
    }

    /// What keeping to `budget` would remove now, without removing anything (the storage view shows it).
    public func plannedEvictions(budget: Int64) -> [Issue] {
        let storage = IssueStorage(store: store, paths: paths)
        let publications = Dictionary(uniqueKeysWithValues: ((try? store.publications()) ?? []).map { ($0.id, $0) })
        let issues = (try? store.allIssues()) ?? []
        var sizes: [Int64: Int64] = [:]
        for issue in issues where issue.state == .available {
            if let publication = publications[issue.publicationID] { sizes[issue.id] = storage.size(of: issue, in: publication) }
        }
        return SyncPlanner.issuesOverBudget(issues, sizes: sizes, budget: budget, readingIssueID: (try? store.currentlyReadingIssueID()) ?? nil)
    }
}
