import Foundation
import NewsstandCore

/// Browsing a feed's catalog (OPDS navigation): a stack of pages, the one on top shown.
public struct CatalogScreen: Equatable, Sendable {
    /// One feed being looked at.
    public struct Page: Equatable, Sendable {
        public let url: URL
        /// Nil while it loads.
        public var feed: Feed?
        public var failure: String?
        public var cursor = ListCursor()
        /// What the header says instead of the URL (a search: "Search: harbour"; the facets of a feed).
        public var label: String?
        /// The title of the link followed to get here, for "use this feed".
        public var linkTitle: String?
        /// The next page is being fetched (`CatalogScreen.loadMoreIfNear`).
        public var isLoadingMore = false
        /// Entries dropped from the front to keep the page within `CatalogScreen.maxEntries`.
        public var droppedEntries = 0
        /// Problems with pages loaded after the first.
        public var pagingFailure: String?

        public init(url: URL) {
            self.url = url
        }

        /// What the page lists: navigation entries first, then the feed's issues.
        public var rowCount: Int { (feed?.navigation.count ?? 0) + (feed?.entries.count ?? 0) }
    }

    public var pages: [Page]
    /// The publication whose feed may be switched to one shown here (`u`), when the browser was opened for that.
    public var publicationID: Int64?

    public init(url: URL, publicationID: Int64? = nil) {
        pages = [Page(url: url)]
        self.publicationID = publicationID
    }

    public var current: Page? { pages.last }
}
