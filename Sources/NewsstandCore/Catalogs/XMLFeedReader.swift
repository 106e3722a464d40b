import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reads an XML feed into a `FeedDocument`: one pass of `XMLParser` over a stream, namespace-aware, resolving `xml:base`.
final class XMLFeedReader: NSObject, XMLParserDelegate {
    private enum TextKind { case plain, html, xhtml, base64(html: Bool) }

    private struct Frame {
        var key: String
        var attributes: [String: String]
        var text = ""
        var base: URL
        var kind: TextKind
    }

    private(set) var document = FeedDocument()
    private var stack: [Frame] = []
    /// Depth of markup nested inside a text construct (Atom xhtml content, stray tags in RSS text).
    private var captureDepth = 0
    private var item: FeedDocument.Item?
    /// The acquisition link that `opds:indirectAcquisition` elements belong to.
    private var acquisitionIndex: Int?
    private let feedURL: URL
    private var rootNamespace: String?
    private(set) var rootClosed = false

    init(feedURL: URL) {
        self.feedURL = feedURL
    }

    /// Parses `stream` to the end. Throws when the XML is not well-formed before any item was read.
    static func read(_ stream: InputStream, feedURL: URL) throws -> (FeedDocument, problem: String?) {
        let reader = XMLFeedReader(feedURL: feedURL)
        let parser = XMLParser(stream: stream)
        parser.shouldProcessNamespaces = true
        parser.shouldResolveExternalEntities = false
        parser.delegate = reader
        let succeeded = parser.parse()
        if succeeded && reader.rootClosed { return (reader.document, nil) }
        let line = parser.lineNumber
        // A stream that stops inside the root element is truncated, even when XMLParser reports success.
        let reason = succeeded ? "it ends before the root element is closed" : parser.parserError.map { ($0 as NSError).localizedDescription } ?? "unknown error"
        if reader.document.items.isEmpty && reader.document.title == nil {
            throw CatalogError("the feed is not well-formed XML (line \(line): \(reason))")
        }
        return (reader.document, "the feed is not well-formed XML after \(reader.document.items.count) items (line \(line)); the rest was ignored")
    }

    // MARK: Names

    private static let prefixes: [String: String] = [
        "http://purl.org/dc/elements/1.1/": "dc", "http://purl.org/dc/terms/": "dcterms",
        "http://purl.org/rss/1.0/modules/content/": "content", "http://search.yahoo.com/mrss/": "media",
        "http://search.yahoo.com/mrss": "media", "http://www.itunes.com/dtds/podcast-1.0.dtd": "itunes",
        "http://opds-spec.org/2010/catalog": "opds", "http://itunes.apple.com/2011/newsstand": "news",
        "http://www.w3.org/1999/02/22-rdf-syntax-ns#": "rdf", "http://www.w3.org/1999/xhtml": "xhtml",
        "http://purl.org/syndication/thread/1.0": "thr", "http://a9.com/-/spec/opensearch/1.1/": "opensearch",
    ]
    /// Namespaces whose elements are the core vocabulary (RSS, RDF site summary, Atom), keyed by bare name.
    private static let coreNamespaces: Set<String> = [
        "", "http://www.w3.org/2005/atom", "http://purl.org/atom/ns#", "http://my.netscape.com/rdf/simple/0.9/",
        "http://purl.org/rss/1.0/", "http://backend.userland.com/rss2", "http://blogs.law.harvard.edu/tech/rss",
        "http://backend.userland.com/rss",
    ]

    /// The element's key: its lower-cased local name, prefixed (`dc:date`) for known extension
    /// namespaces; the core vocabularies and the root element's own namespace are bare.
    private func key(for elementName: String, namespace: String?) -> String {
        let name = elementName.lowercased()
        let uri = (namespace ?? "").lowercased()
        if stack.isEmpty { rootNamespace = uri }
        if Self.coreNamespaces.contains(uri) || uri == rootNamespace { return name }
        if let prefix = Self.prefixes[uri] { return prefix + ":" + name }
        if uri.hasPrefix("http://purl.org/atom") || uri.hasPrefix("http://www.w3.org/2005/atom") { return name }
        return "{" + uri + "}" + name
    }

    private static let textConstructs: Set<String> = [
        "title", "subtitle", "tagline", "summary", "content", "description", "rights", "copyright", "info",
        "content:encoded", "media:title", "media:description", "itunes:summary", "itunes:subtitle", "dc:title",
        "dc:description", "id", "guid", "link", "pubdate", "published", "issued", "updated", "modified", "created",
        "lastbuilddate", "expirationdate", "dc:date", "dcterms:issued", "dcterms:modified", "dcterms:created",
        "news:end_date", "url", "fullitem", "xhtml:body",
    ]

    private static let xhtmlBlocks: Set<String> = ["p", "br", "div", "li", "tr", "td", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre", "hr"]

    // MARK: XMLParserDelegate

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
        if captureDepth > 0 {
            captureDepth += 1
            if Self.xhtmlBlocks.contains(elementName.lowercased()) { stack[stack.count - 1].text += " " }
            return
        }
        let key = key(for: elementName, namespace: namespaceURI)
        let parentBase = stack.last?.base ?? feedURL
        var base = parentBase
        if let xmlBase = attributeDict["xml:base"] ?? attributeDict["base"],
           let url = URL(string: xmlBase.trimmingCharacters(in: .whitespacesAndNewlines), relativeTo: parentBase)?.absoluteURL {
            base = url
        }
        let parent = stack.last?.key
        if stack.isEmpty { document.rootName = key }
        if key.hasPrefix("news:") { document.sawNewsstand = true }
        if key.hasPrefix("opds:") { document.sawOPDS = true }

        var kind = TextKind.html
        if isAtomFamily {
            let type = (attributeDict["type"].flatMap { $0.isEmpty ? nil : $0 } ?? "text").lowercased()
            let html = type == "html" || type == "text/html" || attributeDict["mode"] == "escaped"
            let textual = ["text", "html", "xhtml"].contains(type) || type.hasPrefix("text/") || type.hasSuffix("+xml") || type.hasSuffix("/xml")
            if attributeDict["mode"] == "base64" || (!textual && attributeDict["mode"] == nil && attributeDict["src"] == nil) {
                kind = .base64(html: html || type.contains("html"))
            } else if html {
                kind = .html
            } else if type == "xhtml" || type == "application/xhtml+xml" {
                kind = .xhtml
            } else {
                kind = .plain
            }
        }
        if key == "xhtml:body" { kind = .xhtml }
        stack.append(Frame(key: key, attributes: attributeDict, base: base, kind: kind))
        if Self.textConstructs.contains(key) && !(key == "link" && attributeDict["href"] != nil) {
            captureDepth = 1
        }

        switch key {
        case "item", "entry":
            item = FeedDocument.Item()
            item?.about = attributeDict["rdf:about"]
            acquisitionIndex = nil
        case "link":
            guard let href = attributeDict["href"], let url = resolve(href, base: base) else { break }
            let rel = (attributeDict["rel"] ?? "alternate").trimmingCharacters(in: .whitespaces)
            let type = attributeDict["type"]
            if rel.hasPrefix("http://opds-spec.org/") || (type ?? "").contains("profile=opds-catalog") { document.sawOPDS = true }
            let link = FeedDocument.Link(url: url, rel: rel, type: type, length: attributeDict["length"], title: attributeDict["title"])
            if item != nil, parent == "entry" || parent == "item" {
                item?.links.append(link)
                acquisitionIndex = rel.hasPrefix("http://opds-spec.org/acquisition") ? (item?.links.count ?? 1) - 1 : nil
            } else if item == nil, parent == "feed" || parent == "channel" {
                if rel == "next", document.nextPage == nil { document.nextPage = url }
                if rel == "alternate", document.link == nil { document.link = url }
            }
        case "opds:indirectacquisition":
            if let index = acquisitionIndex, let type = attributeDict["type"], item != nil {
                item?.links[index].indirectTypes.append(type)
            }
        case "enclosure":
            if item != nil, let href = attributeDict["url"] ?? attributeDict["href"], let url = resolve(href, base: base) {
                item?.enclosures.append(.init(url: url, type: attributeDict["type"], medium: nil, length: attributeDict["length"]))
            }
        case "media:content":
            if item != nil, let href = attributeDict["url"], let url = resolve(href, base: base) {
                item?.mediaContents.append(.init(url: url, type: attributeDict["type"], medium: attributeDict["medium"], length: attributeDict["fileSize"]))
            }
        case "media:thumbnail":
            if let href = attributeDict["url"], let url = resolve(href, base: base) {
                if item != nil { item?.thumbnails.append(url) } else if document.image == nil { document.image = url }
            }
        case "itunes:link" where attributeDict["rel"]?.lowercased() == "image":
            if let href = attributeDict["href"], let url = resolve(href, base: base) {
                if item != nil { if item?.itunesImage == nil { item?.itunesImage = url } } else { document.image = url }
            }
        case "itunes:image":
            if let href = attributeDict["href"] ?? attributeDict["url"], let url = resolve(href, base: base) {
                if item != nil { if item?.itunesImage == nil { item?.itunesImage = url } } else { document.image = url }
            }
        case "news:cover_art_icon":
            if item != nil, let href = attributeDict["src"], let url = resolve(href, base: base) {
                item?.coverIcons.append((size: (attributeDict["size"] ?? "").uppercased(), url: url))
            }
        default:
            break
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        guard !stack.isEmpty else { return }
        stack[stack.count - 1].text += string
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        guard !stack.isEmpty else { return }
        stack[stack.count - 1].text += String(decoding: CDATABlock, as: UTF8.self)
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        if captureDepth > 1 {
            captureDepth -= 1
            if Self.xhtmlBlocks.contains(elementName.lowercased()) { stack[stack.count - 1].text += " " }
            return
        }
        captureDepth = 0
        guard let frame = stack.popLast() else { return }
        if stack.isEmpty { rootClosed = true }
        let parent = stack.last?.key
        let inItem = item != nil && (parent == "item" || parent == "entry")
        let inFeed = item == nil && (parent == "channel" || parent == "feed" || parent == "rdf:rdf")
        let raw = frame.text

        switch frame.key {
        case "item", "entry":
            if let finished = item { document.items.append(finished) }
            item = nil
            acquisitionIndex = nil
        case "title":
            if inItem, item?.title == nil { item?.title = text(frame) } else if inFeed, document.title == nil { document.title = text(frame) }
        case "dc:title", "media:title":
            if item != nil, item?.alternateTitle == nil { item?.alternateTitle = text(frame) }
            else if inFeed, document.title == nil { document.title = text(frame) }
        case "link":
            guard frame.attributes["href"] == nil, let url = resolve(raw, base: frame.base) else { break }
            if inItem { if item?.link == nil { item?.link = url } } else if inFeed { document.link = document.link ?? url }
        case "guid", "id":
            let value = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !value.isEmpty else { break }
            if inItem {
                if item?.id == nil { item?.id = value }
                if frame.key == "guid", frame.attributes["isPermaLink"]?.lowercased() != "false",
                   let url = resolve(value, base: frame.base), url.scheme?.hasPrefix("http") == true, item?.guidLink == nil {
                    item?.guidLink = url
                }
            } else if inFeed, document.id == nil {
                document.id = value
            }
        case "dcterms:issued":
            if let date = FlexibleDateParser.parse(raw) {
                if inItem { item?.issued = date } else if inFeed { document.published = date }
            }
        case "pubdate", "published", "issued":
            if let date = FlexibleDateParser.parse(raw) {
                if inItem { item?.published = date } else if inFeed { document.published = date }
            }
        case "updated", "modified", "dc:date", "dcterms:modified", "lastbuilddate":
            if let date = FlexibleDateParser.parse(raw) {
                if inItem { item?.updated = date } else if inFeed { document.updated = date }
            }
        case "created", "dcterms:created":
            if inItem, let date = FlexibleDateParser.parse(raw) { item?.created = date }
        case "expirationdate":
            if inItem, let date = FlexibleDateParser.parse(raw) { item?.expired = date }
        case "news:end_date":
            if inItem, let date = FlexibleDateParser.parse(raw) { item?.endDate = date }
        case "description", "summary":
            // feedparser's rule when an RSS item has both: the second is the content.
            if inItem { if item?.summary == nil { item?.summary = text(frame) } else if item?.content == nil { item?.content = text(frame) } }
        case "itunes:summary", "media:description", "dc:description", "itunes:subtitle":
            if item != nil, item?.alternateSummary == nil { item?.alternateSummary = text(frame) }
        case "content", "content:encoded", "fullitem", "xhtml:body":
            if inItem, item?.content == nil { item?.content = text(frame) }
        case "url":
            if parent == "image", item == nil, document.image == nil { document.image = resolve(raw, base: frame.base) }
        default:
            break
        }
    }

    // MARK: Helpers

    private var isAtomFamily: Bool { document.rootName == "feed" || document.rootName == "entry" }

    private func text(_ frame: Frame) -> String {
        switch frame.kind {
        case .plain, .xhtml: return FeedText.plain(frame.text)
        case .html: return FeedText.html(frame.text)
        case .base64(let html):
            let compact = frame.text.filter { !$0.isWhitespace }
            guard let data = Data(base64Encoded: compact) else { return FeedText.plain(frame.text) }
            let decoded = String(decoding: data, as: UTF8.self)
            return html ? FeedText.html(decoded) : FeedText.plain(decoded)
        }
    }

    private func resolve(_ text: String, base: URL) -> URL? {
        CatalogParser.resolve(text, against: base)
    }
}
