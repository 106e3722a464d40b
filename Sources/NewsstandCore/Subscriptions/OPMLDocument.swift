import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import NewsstandContent

/// A list of subscriptions in OPML, the format feed readers (newsboat among them) import and export.
public struct OPMLDocument: Sendable, Equatable {
    /// One subscribed feed.
    public struct Outline: Sendable, Equatable {
        public var title: String
        public var feedURL: URL
        public var siteURL: URL?

        public init(title: String, feedURL: URL, siteURL: URL? = nil) {
            self.title = title
            self.feedURL = feedURL
            self.siteURL = siteURL
        }
    }

    public var title: String
    public var outlines: [Outline]

    public init(title: String = "Newsstand subscriptions", outlines: [Outline]) {
        self.title = title
        self.outlines = outlines
    }

    /// Reads an OPML file: every `outline` with an `xmlUrl`, however deeply nested in folders.
    public static func parse(_ data: Data) throws -> OPMLDocument {
        let delegate = OPMLParserDelegate()
        let parser = XMLParser(data: data)
        parser.delegate = delegate
        guard parser.parse(), delegate.sawOPML else {
            throw CatalogError("not an OPML file" + (parser.parserError.map { " (\($0.localizedDescription))" } ?? ""))
        }
        return OPMLDocument(title: delegate.title ?? "Subscriptions", outlines: delegate.outlines)
    }

    /// The document as OPML 2.0 text, one `outline type="rss"` per feed, like newsboat's export.
    public func xml() -> String {
        var lines = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            #"<opml version="2.0">"#,
            "  <head>",
            "    <title>\(XMLEscaping.escaped(title))</title>",
            "  </head>",
            "  <body>",
        ]
        for outline in outlines {
            var attributes = #"type="rss" text="\#(XMLEscaping.escaped(outline.title))" title="\#(XMLEscaping.escaped(outline.title))" xmlUrl="\#(XMLEscaping.escaped(outline.feedURL.absoluteString))""#
            if let site = outline.siteURL { attributes += #" htmlUrl="\#(XMLEscaping.escaped(site.absoluteString))""# }
            lines.append("    <outline \(attributes)/>")
        }
        lines += ["  </body>", "</opml>", ""]
        return lines.joined(separator: "\n")
    }
}

/// Collects outlines with feed URLs while XMLParser reads an OPML document.
private final class OPMLParserDelegate: NSObject, XMLParserDelegate {
    var outlines: [OPMLDocument.Outline] = []
    var title: String?
    var sawOPML = false
    private var inTitle = false
    private var titleText = ""

    func parser(_ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        switch element.lowercased() {
        case "opml": sawOPML = true
        case "title": inTitle = true
        case "outline":
            let keyed = Dictionary(attributes.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
            guard let text = keyed["xmlurl"], let url = URL(string: text.trimmingCharacters(in: .whitespaces)),
                  let scheme = url.scheme?.lowercased(), ["http", "https", "file"].contains(scheme) else { return }
            let name = TextSanitizer.singleLine(keyed["title"] ?? keyed["text"] ?? url.host ?? text)
            outlines.append(OPMLDocument.Outline(title: name.isEmpty ? text : name, feedURL: url, siteURL: keyed["htmlurl"].flatMap(URL.init(string:))))
        default: break
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if inTitle { titleText += string }
    }

    func parser(_ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?) {
        if element.lowercased() == "title" && inTitle {
            inTitle = false
            if title == nil { title = TextSanitizer.singleLine(titleText) }
        }
    }
}
