import Foundation

/// Space taken by downloaded issues and kept whole articles, per publication, and what keeping to the budget would remove.
public struct StorageReport: Sendable, Equatable {
    /// One publication's downloaded issues.
    public struct Usage: Sendable, Equatable {
        public var publication: Publication
        public var issueCount: Int
        public var bytes: Int64
        /// Whole articles kept with its headlines, and the bytes they take in the library (part of the budget).
        public var articleCount = 0
        public var articleBytes: Int64 = 0

        public init(publication: Publication, issueCount: Int, bytes: Int64, articleCount: Int = 0, articleBytes: Int64 = 0) {
            self.publication = publication
            self.issueCount = issueCount
            self.bytes = bytes
            self.articleCount = articleCount
            self.articleBytes = articleBytes
        }

        /// "3 issues", "3 issues, 12 articles".
        public var countsText: String {
            let issues = "\(issueCount) issue\(issueCount == 1 ? "" : "s")"
            return articleCount == 0 ? issues : issues + ", \(articleCount) article\(articleCount == 1 ? "" : "s")"
        }
    }

    public var usage: [Usage]
    public var budget: Int64?
    /// Issues the budget would remove now, in the order they would go (empty when within budget).
    public var plannedRemovals: [Issue]

    public init(usage: [Usage], budget: Int64?, plannedRemovals: [Issue]) {
        self.usage = usage
        self.budget = budget
        self.plannedRemovals = plannedRemovals
    }

    public var totalBytes: Int64 { usage.reduce(0) { $0 + $1.bytes + $1.articleBytes } }

    /// Measures the library now; removes nothing.
    public static func measure(store: LibraryStore, paths: LibraryPaths, budget: Int64?) throws -> StorageReport {
        let storage = IssueStorage(store: store, paths: paths)
        var usage: [Usage] = []
        let downloadedByPublication = Dictionary(grouping: try store.downloadedIssues(), by: \.publicationID)
        let articles = try store.headlineArticleUsage()
        for publication in try store.publications() {
            let downloaded = downloadedByPublication[publication.id] ?? []
            let bytes = downloaded.reduce(Int64(0)) { sum, issue in sum + storage.size(of: issue, in: publication) }
            usage.append(Usage(publication: publication, issueCount: downloaded.count, bytes: bytes,
                               articleCount: articles[publication.id]?.count ?? 0, articleBytes: articles[publication.id]?.bytes ?? 0))
        }
        let planned = budget.map { SyncService(store: store, paths: paths).plannedEvictions(budget: $0) } ?? []
        return StorageReport(usage: usage, budget: budget, plannedRemovals: planned)
    }
}
