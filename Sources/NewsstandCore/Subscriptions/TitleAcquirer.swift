import Foundation

/// Brings one title from a catalog into the library without subscribing: into the "Library" shelf of
/// single titles, a publication of its own that is never refreshed, whose issues are kept (and removed)
/// like any other. The caller queues the returned issue's download.
public struct TitleAcquirer: Sendable {
    public let store: LibraryStore

    /// The Library shelf's feed address: not a feed, only its key (refreshes skip it: it is not subscribed).
    public static let libraryURL = URL(string: "newsstand:library")!
    public static let libraryTitle = "Library"

    public init(store: LibraryStore) {
        self.store = store
    }

    /// Adds `entry` to the Library shelf with `link` as its file, or says in plain words why not (a link
    /// that borrows, buys, samples or subscribes; a file that is not an issue). Adding it again keeps the issue.
    public func acquire(_ entry: CatalogEntry, through link: AcquisitionLink) throws -> Issue {
        guard link.kind.isFollowed else {
            throw CatalogError("that link is a \(link.kind.rawValue) link: Newsstand only downloads open-access and plain acquisition links")
        }
        if case .other(let kind) = ContentKind.of(type: link.type, link: link.link.absoluteString) {
            throw CatalogError("that link is \(kind), not an issue Newsstand reads (EPUB, PDF or comic)")
        }
        // The Library shelf is no catalog with a folder of its own: its titles are fetched as from the network.
        if let refusal = DocumentOrigin.network.refusal(of: link.url) {
            throw CatalogError("that link is not on the web (\(refusal)): the Library shelf takes titles from the web only; "
                + "subscribe to the catalog to read its own files")
        }
        let shelf = try libraryShelf()
        var issue = entry
        issue.contentURLs = [link.url]
        issue.contentTypes = link.type.map { [$0] } ?? []
        issue.expectedSize = nil
        issue.expectedSHA256 = nil
        issue.acquisitions = []
        let stored = try store.upsertIssues([issue], publicationID: shelf.id, markingNewArrivals: false)
        guard let added = stored.first(where: { $0.name == FeedParser.issueName(entry.name) }) ?? stored.first else {
            throw CatalogError("the title could not be added to the Library shelf")
        }
        return added
    }

    /// Removes a title from the Library shelf, its files with it. Issues of other publications are left alone.
    public func remove(issueID: Int64, paths: LibraryPaths) throws {
        guard let issue = try store.issue(id: issueID), let shelf = try store.publication(id: issue.publicationID) else { return }
        guard shelf.feedURL == Self.libraryURL else {
            throw CatalogError("only titles in the Library shelf are removed one by one; a publication is removed with its subscription")
        }
        try IssueStorage(store: store, paths: paths).evict(issue, of: shelf)
        try store.removeIssue(id: issueID)
    }

    /// The Library shelf, made (unsubscribed, so never refreshed) the first time.
    public func libraryShelf() throws -> Publication {
        if let existing = try store.publications().first(where: { $0.feedURL == Self.libraryURL }) { return existing }
        let shelf = try store.addPublication(title: Self.libraryTitle, feedURL: Self.libraryURL)
        try store.unsubscribeKeepingDownloads(publicationID: shelf.id)
        return try store.publication(id: shelf.id) ?? shelf
    }
}
