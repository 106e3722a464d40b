import Foundation

/// Fetches publications' catalogs and brings their issues into the library.
///
/// Blocking: run it on a background queue. A catalog that fails leaves that publication's
/// issues and title as they were and records the reason; other publications are unaffected.
public struct PublicationRefresher: Sendable {
    public let store: LibraryStore

    public init(store: LibraryStore) {
        self.store = store
    }

    /// What one refresh did.
    public struct Outcome: Sendable, Equatable {
        public var publicationID: Int64
        public var issueCount: Int
        public var newIssueNames: [String]
        /// Problems in plain words: the whole catalog failed, or some entries were skipped.
        public var problem: String?

        public init(publicationID: Int64, issueCount: Int, newIssueNames: [String], problem: String?) {
            self.publicationID = publicationID
            self.issueCount = issueCount
            self.newIssueNames = newIssueNames
            self.problem = problem
        }
    }

    /// Fetches and validates a catalog, then subscribes to it. Nothing is saved when the catalog is unusable.
    public func subscribe(to url: URL, title: String? = nil) throws -> Publication {
        let catalog = try CatalogParser.parse(try ResourceFetcher.fetch(url), catalogURL: url)
        let publication = try store.addPublication(title: title ?? catalog.title ?? Self.fallbackTitle(for: url), feedURL: url)
        try apply(catalog, to: publication, markingNewArrivals: false)
        return try store.publication(id: publication.id) ?? publication
    }

    /// Refreshes one publication.
    @discardableResult
    public func refresh(_ publication: Publication) -> Outcome {
        do {
            let catalog = try CatalogParser.parse(try ResourceFetcher.fetch(publication.feedURL), catalogURL: publication.feedURL)
            return try apply(catalog, to: publication, markingNewArrivals: true)
        } catch {
            let reason = "\(publication.title): \(error)"
            try? store.recordRefreshFailure(publicationID: publication.id, error: reason)
            return Outcome(publicationID: publication.id, issueCount: 0, newIssueNames: [], problem: reason)
        }
    }

    @discardableResult
    private func apply(_ catalog: Catalog, to publication: Publication, markingNewArrivals: Bool) throws -> Outcome {
        let known = Set(try store.issues(publicationID: publication.id).map(\.name))
        let issues = try store.upsertIssues(catalog.entries, publicationID: publication.id, markingNewArrivals: markingNewArrivals)
        let problem = catalog.problems.isEmpty ? nil
            : "\(publication.title): skipped \(catalog.problems.count) of \(catalog.problems.count + catalog.entries.count) issues: " + catalog.problems.joined(separator: "; ")
        try store.recordRefresh(publicationID: publication.id, title: catalog.title, error: problem)
        return Outcome(publicationID: publication.id, issueCount: issues.count,
                       newIssueNames: catalog.entries.map(\.name).filter { !known.contains($0) }, problem: problem)
    }

    static func fallbackTitle(for url: URL) -> String {
        let stem = url.deletingPathExtension().lastPathComponent
        if !stem.isEmpty, stem != "/", !["catalog", "feed", "issues", "index"].contains(stem.lowercased()) { return stem }
        return url.host ?? url.deletingLastPathComponent().lastPathComponent
    }
}
