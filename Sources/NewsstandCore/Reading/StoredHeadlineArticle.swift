import Foundation
import NewsstandContent

/// A headline's whole article as the library keeps it: the page it came from (the headline's link), what was
/// extracted from it (`readerable` false when the page had none: then only that is remembered) and when.
public struct StoredHeadlineArticle: Sendable, Equatable {
    /// The headline's link, the article's key in its publication.
    public var link: URL
    public var article: ExtractedArticle
    public var fetchedAt: Date

    public init(link: URL, article: ExtractedArticle, fetchedAt: Date) {
        self.link = link
        self.article = article
        self.fetchedAt = fetchedAt
    }

    /// Where the article is from, as the reader names it: the site's name and the page's address
    /// ("Kettle Weekly · https://example.com/posts/sing"), or the address alone.
    public var source: String {
        let address = TextSanitizer.singleLine(link.absoluteString)
        guard let site = article.siteName.map(TextSanitizer.singleLine), !site.isEmpty else { return address }
        return "\(site) · \(address)"
    }
}
