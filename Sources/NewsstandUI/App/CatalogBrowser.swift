import Foundation
import NewsstandCore

/// Browsing a feed's catalog (OPDS navigation): a stack of pages, the one on top shown.
public struct CatalogBrowser: Equatable, Sendable {
    /// One feed being looked at.
    public struct Page: Equatable, Sendable {
        public let url: URL
        /// Nil while it loads.
        public var feed: Feed?
        public var failure: String?
        public var cursor = ListCursor()

        public init(url: URL) {
            self.url = url
        }

        /// What the page lists: navigation entries first, then the feed's issues.
        public var rowCount: Int { (feed?.navigation.count ?? 0) + (feed?.entries.count ?? 0) }
    }

    public var pages: [Page]

    public init(url: URL) {
        pages = [Page(url: url)]
    }

    public var current: Page? { pages.last }
}
