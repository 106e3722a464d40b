import Foundation

/// Catalog pages for browsing and scripts: one page at a time (never merged, so a browser can hold a
/// window of them), and searches through a catalog's OpenSearch template or description.
///
/// Each page is fetched only where `origin` (the catalog's, see ``DocumentOrigin``) may point, and keeps only
/// the links that origin lets it follow; a browser that asks for a page by a link of the page before passes
/// that page's origin, or the link's own (`DocumentOrigin(documentURL:)`), which admits nothing more.
///
/// Blocking: run it on a background queue.
public struct CatalogPages: Sendable {
    public let client: HTTPClient

    public init(client: HTTPClient = .shared) {
        self.client = client
    }

    /// The one page at `url` (its `nextPage` says where the following one is).
    public func page(at url: URL, from origin: DocumentOrigin) throws -> Feed {
        try FeedParser.parse(try ResourceFetcher.fetch(url, from: origin, client: client), url: url).keepingReferences(admittedBy: origin)
    }

    /// The URL that searches for `terms` through `link` (reading the OpenSearch description first when that is what it is).
    public func searchURL(_ link: CatalogSearchLink, terms: String, from origin: DocumentOrigin) throws -> URL {
        let template: String
        switch link {
        case .template(let text):
            template = text
        case .description(let url):
            let data = try ResourceFetcher.fetch(url, from: origin, maxBytes: 1 << 20, client: client)
            guard let text = OpenSearchDescription.template(in: data, url: url) else {
                throw CatalogError("the catalog's search description (\(url.absoluteString)) gives no search template")
            }
            template = text
        }
        guard let url = SearchTemplate.fill(template, with: terms) else { throw CatalogError("the catalog's search template gives no URL") }
        return try origin.check(url)
    }

    /// The first page of results for `terms` in the catalog whose page is `feed`.
    public func search(_ terms: String, in feed: Feed, from origin: DocumentOrigin) throws -> (url: URL, feed: Feed) {
        guard let link = feed.search else { throw CatalogError("this catalog offers no search") }
        return try search(terms, with: link, from: origin)
    }

    /// The first page of results for `terms` through `link`.
    /// A search that finds nothing is a page listing nothing, also from servers that answer it with 404 (calibre).
    public func search(_ terms: String, with link: CatalogSearchLink, from origin: DocumentOrigin) throws -> (url: URL, feed: Feed) {
        let url = try searchURL(link, terms: terms, from: origin)
        do {
            return (url, try page(at: url, from: origin))
        } catch HTTPError.status(let head) where head.status == 404 {
            return (url, Feed(format: .opds1, title: "Nothing found for “\(terms)”"))
        }
    }
}
