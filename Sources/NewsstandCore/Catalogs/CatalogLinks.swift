import Foundation

/// How a catalog is searched: an absolute URL template with `{searchTerms}` where the words go
/// (OPDS 1 direct template, OPDS 2 `search` link), or an OpenSearch description document to read first.
public enum CatalogSearchLink: Sendable, Equatable {
    case template(String)
    case description(URL)
}

/// One facet of a catalog feed (`rel="http://opds-spec.org/facet"`, OPDS 2 `facets`): another view of
/// the same feed (by author, language, series…), in a named group.
public struct CatalogFacet: Sendable, Equatable {
    public var group: String
    public var title: String
    public var url: URL
    public var isActive: Bool
    /// How many entries the facet holds, when the catalog says (`thr:count`, `numberOfItems`).
    public var count: Int?

    public init(group: String, title: String, url: URL, isActive: Bool = false, count: Int? = nil) {
        self.group = group
        self.title = title
        self.url = url
        self.isActive = isActive
        self.count = count
    }
}

/// Search templates: filling in the words, and turning what feeds give into `{searchTerms}` form.
public enum SearchTemplate {
    /// A marker that survives URL resolution where `{searchTerms}` (or an RFC 6570 expression) stood.
    static let marker = "NEWSSTANDSEARCHTERMS7f3a"

    /// `template` with `terms` percent-encoded in place of `{searchTerms}` and OpenSearch's other
    /// parameters (`{startPage?}`, `{count?}`…) left empty, or nil when the result is no URL.
    public static func fill(_ template: String, with terms: String) -> URL? {
        var allowed = CharacterSet.urlQueryAllowed
        allowed.remove(charactersIn: "&+=?/#")
        let encoded = terms.addingPercentEncoding(withAllowedCharacters: allowed) ?? terms
        var text = template.replacingOccurrences(of: "{searchTerms}", with: encoded)
        text = text.replacingOccurrences(of: "{searchTerms?}", with: encoded)
        // Optional OpenSearch parameters: nothing. Required ones other than searchTerms: the usual first values.
        while let open = text.range(of: "{"), let close = text.range(of: "}", range: open.upperBound..<text.endIndex) {
            let name = text[open.upperBound..<close.lowerBound]
            let value = name.hasSuffix("?") ? "" : (name.hasSuffix("startPage") ? "1" : (name.hasSuffix("startIndex") ? "0" : ""))
            text.replaceSubrange(open.lowerBound..<close.upperBound, with: value)
        }
        return URL(string: text)
    }

    /// `href` as a `{searchTerms}` template resolved against `base`: OpenSearch's own form as it is,
    /// an RFC 6570 query expression (`{?query,title}`, OPDS 2) as `?query={searchTerms}`.
    static func normalize(_ href: String, base: URL?) -> String? {
        var text = href.trimmingCharacters(in: .whitespacesAndNewlines)
        if let open = text.range(of: "{?"), let close = text.range(of: "}", range: open.upperBound..<text.endIndex) {
            let names = text[open.upperBound..<close.lowerBound].split(separator: ",")
            let name = names.first { $0 == "query" || $0 == "searchTerms" || $0 == "q" } ?? names.first ?? "query"
            text.replaceSubrange(open.lowerBound..<close.upperBound, with: "?\(name)=\(marker)")
        } else if let open = text.range(of: "{&"), let close = text.range(of: "}", range: open.upperBound..<text.endIndex) {
            let name = text[open.upperBound..<close.lowerBound].split(separator: ",").first ?? "query"
            text.replaceSubrange(open.lowerBound..<close.upperBound, with: "&\(name)=\(marker)")
        }
        text = text.replacingOccurrences(of: "{searchTerms}", with: marker).replacingOccurrences(of: "{searchTerms?}", with: marker)
        // Other OpenSearch parameters are kept through resolution the same way.
        text = text.replacingOccurrences(of: "{", with: "%7B").replacingOccurrences(of: "}", with: "%7D")
        guard text.contains(marker), let url = base.flatMap({ CatalogParser.resolve(text, against: $0) }) ?? URL(string: text) else { return nil }
        return url.absoluteString.replacingOccurrences(of: marker, with: "{searchTerms}")
            .replacingOccurrences(of: "%7B", with: "{").replacingOccurrences(of: "%7D", with: "}")
    }
}
