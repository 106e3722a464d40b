import Foundation
import NewsstandContent

/// Fetches headlines' whole articles (their linked pages, extracted by `ArticlePageFetcher`) and keeps them in the
/// library with their headlines: one on request (the reader's `F`, or opening a short item), or, for feeds set to
/// `full-text always`, those a sync finds without one.
///
/// Only where the feed may point (``DocumentOrigin``: a feed from the network never reaches a local file); through the
/// program's `HTTPClient` (logins, limits). Blocking: call it off the UI thread.
public struct HeadlineArticleFetcher: Sendable {
    public let store: LibraryStore
    public let client: HTTPClient
    public var limits: ArticleLimits = .default
    /// The most pages one sync fetches for one publication (the newest headlines first; the rest at later syncs).
    public static let maxPerSync = 30
    /// The longest one sync spends fetching one publication's pages (each page has its own limits too): the pages
    /// not reached are fetched at a later sync.
    public static let maxSecondsPerSync: TimeInterval = 120

    public init(store: LibraryStore, client: HTTPClient) {
        self.store = store
        self.client = client
    }

    /// Fetches the page at `link` (a headline of `publication`), extracts its article and keeps it (a page without one
    /// is kept as such, so it is not fetched again by itself). Throws, in plain words, when the page cannot be had.
    public func fetch(_ link: URL, of publication: Publication) throws -> StoredHeadlineArticle {
        guard ["http", "https", "file"].contains(link.scheme?.lowercased() ?? "") else {
            throw FetchError("only web pages have articles to fetch, not \(TextSanitizer.singleLine(link.absoluteString))")
        }
        if let refusal = DocumentOrigin(of: publication).refusal(of: link) { throw FetchError(refusal) }
        let article = try ArticlePageFetcher.article(at: link, client: client, limits: limits)
        let stored = StoredHeadlineArticle(link: link, article: article, fetchedAt: Date())
        try store.saveHeadlineArticle(stored, publicationID: publication.id)
        return stored
    }

    /// For a publication whose headlines are fetched whole (`mode`, its own or the config's, is `always`): fetches the
    /// articles of its headlines that have none kept, newest first, one after another, at most `maxPerSync` and for at
    /// most `seconds`. A page that cannot be fetched now is tried again at the next sync. Returns how many articles
    /// were kept.
    @discardableResult
    public func fetchMissing(of publication: Publication, mode: FullTextMode, seconds: TimeInterval = maxSecondsPerSync) -> Int {
        guard mode == .always, publication.isSubscribed else { return 0 }
        let links = (try? store.headlineLinksWithoutArticle(publicationID: publication.id, limit: Self.maxPerSync)) ?? []
        let end = Date().addingTimeInterval(seconds)
        var kept = 0
        for link in links {
            guard Date() < end else { break }
            if let stored = try? fetch(link, of: publication), stored.article.readerable { kept += 1 }
        }
        return kept
    }
}
