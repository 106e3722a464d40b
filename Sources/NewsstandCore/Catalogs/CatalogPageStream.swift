import Foundation

/// An OPDS-PSE page stream (`rel="http://vaemendis.net/opds-pse/stream"`, as Komga and Kavita give it):
/// a book's pages fetched one at a time as pictures, without downloading the whole file.
public struct CatalogPageStream: Sendable, Equatable {
    /// The absolute URL template, with `{pageNumber}` (and perhaps `{maxWidth}`) where the values go.
    public var template: String
    /// How many pages the book has (`pse:count`).
    public var pageCount: Int
    /// The pictures' media type (`image/jpeg`), when given.
    public var type: String?

    public init(template: String, pageCount: Int, type: String? = nil) {
        self.template = template
        self.pageCount = pageCount
        self.type = type
    }

    /// The OPDS-PSE namespace of `count` and `lastRead`.
    public static let namespace = "http://vaemendis.net/opds-pse/ns"
    public static let rel = "http://vaemendis.net/opds-pse/stream"

    /// The URL of page `index` (from 0, as the PSE specification counts), at most `maxWidth` pixels wide
    /// when the template asks; nil past the last page or when the result is no URL.
    public func url(forPage index: Int, maxWidth: Int = 1600) -> URL? {
        guard (0..<pageCount).contains(index) else { return nil }
        let text = template.replacingOccurrences(of: "{pageNumber}", with: String(index))
            .replacingOccurrences(of: "{maxWidth}", with: String(maxWidth))
        return URL(string: text)
    }

    /// `href` as an absolute template: `{pageNumber}` and `{maxWidth}` survive resolution against `base`.
    static func template(_ href: String, base: URL) -> String? {
        let marker = "NEWSSTANDPAGE7f3a", width = "NEWSSTANDWIDTH7f3a"
        let text = FeedText.trimmed(href).replacingOccurrences(of: "{pageNumber}", with: marker).replacingOccurrences(of: "{maxWidth}", with: width)
        guard text.contains(marker), let url = CatalogParser.resolve(text, against: base) else { return nil }
        return url.absoluteString.replacingOccurrences(of: marker, with: "{pageNumber}").replacingOccurrences(of: width, with: "{maxWidth}")
    }
}
