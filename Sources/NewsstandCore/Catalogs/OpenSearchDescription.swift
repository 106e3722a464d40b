import Foundation
import NewsstandContent

/// Reads an OpenSearch description document (`application/opensearchdescription+xml`) for its search
/// template: the `Url` whose type is an Atom or OPDS feed, else the first `Url` with a template.
public enum OpenSearchDescription {
    /// The absolute `{searchTerms}` template, or nil when the document offers none. A document that is not
    /// well-formed still gives the `Url`s before its flaw.
    public static func template(in data: Data, url: URL) -> String? {
        let collector = UrlCollector()
        _ = XMLEventReader.read(data, to: collector)
        let chosen = collector.urls.first { ($0.type ?? "").lowercased().contains("atom") || ($0.type ?? "").contains("opds") }
            ?? collector.urls.first
        return chosen.flatMap { SearchTemplate.normalize($0.template, base: url) }
    }

    private final class UrlCollector: XMLEventHandler {
        var urls: [(template: String, type: String?)] = []

        func startElement(localName: String, prefix: String?, attributes: [String: String]) {
            guard localName == "Url", let template = attributes["template"], urls.count < 32 else { return }
            urls.append((template, attributes["type"]))
        }
    }
}
