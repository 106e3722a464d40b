import Foundation

/// A publication opened from an unpacked EPUB folder: metadata, reading order and contents.
public struct EPUBBook: Sendable, Equatable {
    public let title: String
    public let creator: String?
    public let language: String?
    /// The package document's version attribute, e.g. "2.0" or "3.0" (taken as "2.0" when missing).
    public let version: String
    /// Spine order, linear items only (all items when every one is marked non-linear).
    public let articles: [EPUBArticle]
    /// The EPUB 3 navigation document (epub:type="toc"), else the EPUB 2 NCX, else one entry per article.
    public let tableOfContents: [EPUBTableOfContentsEntry]
    /// Manifest item with properties="cover-image", else the EPUB 2 `<meta name="cover">` item.
    public let coverImage: URL?

    public init(
        title: String,
        creator: String?,
        language: String?,
        version: String,
        articles: [EPUBArticle],
        tableOfContents: [EPUBTableOfContentsEntry],
        coverImage: URL?
    ) {
        self.title = title
        self.creator = creator
        self.language = language
        self.version = version
        self.articles = articles
        self.tableOfContents = tableOfContents
        self.coverImage = coverImage
    }
}
