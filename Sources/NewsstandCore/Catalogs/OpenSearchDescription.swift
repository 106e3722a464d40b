import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reads an OpenSearch description document (`application/opensearchdescription+xml`) for its search
/// template: the `Url` whose type is an Atom or OPDS feed, else the first `Url` with a template.
public enum OpenSearchDescription {
    /// The absolute `{searchTerms}` template, or nil when the document offers none.
    public static func template(in data: Data, url: URL) -> String? {
        let delegate = UrlCollector()
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = true
        parser.delegate = delegate
        _ = parser.parse()
        let chosen = delegate.urls.first { ($0.type ?? "").lowercased().contains("atom") || ($0.type ?? "").contains("opds") }
            ?? delegate.urls.first
        return chosen.flatMap { SearchTemplate.normalize($0.template, base: url) }
    }

    private final class UrlCollector: NSObject, XMLParserDelegate {
        var urls: [(template: String, type: String?)] = []

        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                    qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
            guard elementName == "Url" || elementName.hasSuffix(":Url"), let template = attributeDict["template"], urls.count < 32 else { return }
            urls.append((template, attributeDict["type"]))
        }
    }
}
