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
    /// The last page the reader read, as the server remembers it (`pse:lastRead`, counted from 1), when given.
    public var lastRead: Int?

    public init(template: String, pageCount: Int, type: String? = nil, lastRead: Int? = nil) {
        self.template = template
        self.pageCount = pageCount
        self.type = type
        self.lastRead = lastRead
    }

    /// The OPDS-PSE namespace of `count` and `lastRead`.
    public static let namespace = "http://vaemendis.net/opds-pse/ns"
    public static let rel = "http://vaemendis.net/opds-pse/stream"

    /// The page (from 0) to open the book at: the last page read when the server says, else the first.
    public var startPage: Int {
        guard let lastRead, pageCount > 0 else { return 0 }
        return min(max(lastRead - 1, 0), pageCount - 1)
    }

    /// The URL of page `index` (from 0, as the PSE specification counts), at most `maxWidth` pixels wide
    /// when the template asks; other template variables are left out. Nil past the last page or when the
    /// result is no URL.
    public func url(forPage index: Int, maxWidth: Int = 1600) -> URL? {
        guard (0..<pageCount).contains(index) else { return nil }
        let text = template.replacingOccurrences(of: "{pageNumber}", with: String(index))
            .replacingOccurrences(of: "{maxWidth}", with: String(max(1, maxWidth)))
        return URL(string: Self.leavingOutVariables(text))
    }

    /// `href` as an absolute template: `{pageNumber}` and `{maxWidth}` survive resolution against `base`;
    /// other variables (which this reader has no values for) are left out.
    static func template(_ href: String, base: URL) -> String? {
        let marker = "NEWSSTANDPAGE7f3a", width = "NEWSSTANDWIDTH7f3a"
        let text = FeedText.trimmed(href).replacingOccurrences(of: "{pageNumber}", with: marker).replacingOccurrences(of: "{maxWidth}", with: width)
        guard text.contains(marker), let url = CatalogParser.resolve(leavingOutVariables(text), against: base) else { return nil }
        return url.absoluteString.replacingOccurrences(of: marker, with: "{pageNumber}").replacingOccurrences(of: width, with: "{maxWidth}")
    }

    /// `text` without its `{…}` template variables.
    static func leavingOutVariables(_ text: String) -> String {
        guard text.contains("{") else { return text }
        return text.replacingOccurrences(of: "\\{[^{}]*\\}", with: "", options: .regularExpression)
    }
}
