import Foundation
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
        let collector = OPMLCollector()
        let failure = XMLEventReader.read(data, to: collector)
        guard failure == nil, collector.sawOPML else {
            throw CatalogError("not an OPML file" + (failure.map { " (line \($0.line): \($0.reason))" } ?? ""))
        }
        return OPMLDocument(title: collector.title ?? "Subscriptions", outlines: collector.outlines)
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

/// Collects outlines with feed URLs while `XMLEventReader` reads an OPML document.
private final class OPMLCollector: XMLEventHandler {
    var outlines: [OPMLDocument.Outline] = []
    var title: String?
    var sawOPML = false
    private var inTitle = false
    private var titleText = ""

    func startElement(localName: String, prefix: String?, attributes: [String: String]) {
        switch localName.lowercased() {
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

    func characters(_ text: String) {
        if inTitle { titleText += text }
    }

    func endElement(localName: String, prefix: String?) {
        if localName.lowercased() == "title" && inTitle {
            inTitle = false
            if title == nil { title = TextSanitizer.singleLine(titleText) }
        }
    }
}
