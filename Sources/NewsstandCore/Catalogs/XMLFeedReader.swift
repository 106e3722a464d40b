import Foundation
import NewsstandContent

/// Reads an XML feed (RSS, RDF, Atom, OPDS 1, Newsstand Atom) into a `FeedDocument` in one
/// streaming pass over libxml2 (`XMLPushParser`): namespace-aware, resolving `xml:base`, with
/// CDATA and entities read as text.
///
/// Bytes go in as they come (`feed(_:)`, pieces of any size) and `finish()` gives the document;
/// `read(_:feedURL:)` does both from an `InputStream`. The reader keeps only the text of the one
/// text construct it is inside (a title, a summary, a date), at most `maxTextBytes` of it, so its
/// memory does not grow with the feed's size. Its items are kept in the document, or handed to a
/// `FeedAssembler` as each ends (then only what that makes of them grows with the feed).
final class XMLFeedReader: XMLPushParserDelegate {
    /// The most text kept for one element (a summary, a content body); the rest of it is dropped.
    static let maxTextBytes = 2 << 20
    /// Bytes read from a stream at once.
    static let readChunkBytes = 64 << 10

    private enum TextKind { case plain, html, xhtml, base64(html: Bool) }

    /// What an element is, worked out once per distinct name in a parse.
    private enum Role {
        case item, channel, rdfRoot, image, title, alternateTitle, link, guid, id, issued, published, updated, created
        case expired, endDate, summary, alternateSummary, content, url, indirectAcquisition, enclosure, mediaContent
        case mediaThumbnail, itunesLink, itunesImage, coverArtIcon, other
    }

    /// What an element is, worked out once per distinct name in a parse. A plain value: frames copy
    /// it on every element without reference counting.
    private struct ElementInfo {
        let role: Role
        let isTextConstruct: Bool
        let isXHTMLBlock: Bool
        /// `script` or `style` (any namespace): inside a text construct, its content is never text.
        let isScriptOrStyle: Bool
        /// `xhtml:body`, whose text is XHTML.
        let isXHTMLBody: Bool
        /// Atom's `feed` or `entry` (as a root: text constructs say their type).
        let isAtomRoot: Bool
        let marksNewsstand: Bool
        let marksOPDS: Bool
        /// Where its key is in `elementKeys`.
        let index: Int

        init(key: String, lowercasedLocalName: String, index: Int) {
            role = XMLFeedReader.roles[key] ?? .other
            isTextConstruct = XMLFeedReader.textConstructs.contains(key)
            isXHTMLBlock = XMLFeedReader.xhtmlBlocks.contains(lowercasedLocalName)
            isScriptOrStyle = lowercasedLocalName == "script" || lowercasedLocalName == "style"
            isXHTMLBody = key == "xhtml:body"
            isAtomRoot = key == "feed" || key == "entry"
            marksNewsstand = key.hasPrefix("news:")
            marksOPDS = key.hasPrefix("opds:")
            self.index = index
        }
    }

    private struct NameKey: Hashable {
        let localName: UnsafePointer<UInt8>
        let namespaceURI: UnsafePointer<UInt8>?
    }

    private struct Frame {
        var info: ElementInfo
        /// The element's base URL: `bases[baseIndex]` (a new one is pushed only for `xml:base`).
        var baseIndex: Int
        var kind: TextKind
        /// A `link` with `href` (its text is not a URL).
        var hasHref = false
    }

    // The parse state below is touched on every element, on one thread, never by overlapping
    // accesses; dynamic exclusivity checks on it cost a third of the reader's time, so they are off.
    @exclusivity(unchecked) private(set) var document = FeedDocument()
    /// The open elements' frames (plain values, pushed and popped on every element: see `PlainStack`).
    private let stack = PlainStack<Frame>()
    /// The base URLs in force: the feed's, then one for each open element with `xml:base`.
    @exclusivity(unchecked) private var bases: [URL] = []
    /// Each base's absolute string when it is a certain web URL (relative links against it resolve as text), else nil.
    @exclusivity(unchecked) private var baseTexts: [String?] = []
    /// Depth of markup nested inside a text construct (Atom xhtml content, stray tags in RSS text).
    @exclusivity(unchecked) private var captureDepth = 0
    /// The `captureDepth` of the `script` or `style` element being skipped inside a text construct, else 0.
    @exclusivity(unchecked) private var skippedDepth = 0
    /// The text of the text construct being read (the top frame), as UTF-8.
    private let text = TextBytes()
    @exclusivity(unchecked) private var textHighWater = 0
    /// The open `guid` says `isPermaLink="false"`. (A guid is a text construct: no element inside it opens a
    /// frame, so the one being read is the one that set this. Kept here, frames are pushed and popped as
    /// plain bytes; read from the attribute's bytes, no String made.)
    @exclusivity(unchecked) private var guidIsNotPermaLink = false
    /// The item being read, valid while `readingItem`: the pool's next slot, read in place (not optional: reading or
    /// setting a field of an optional struct through `item?.` copied the whole item).
    private var item: FeedDocument.Item {
        _read { yield pooledItems[pooledCount] }
        _modify { yield &pooledItems[pooledCount] }
    }
    @exclusivity(unchecked) private var readingItem = false
    /// What the reader keeps of the item being read beside it (its markup, its page links unresolved).
    private var parts: ItemParts { pooledParts[pooledCount] }
    /// Items read and not yet handed to the assembler, with their parts: the first `pooledCount` of each, and the
    /// item being read after them. While a piece's events are read, finished items wait here, and the assembler
    /// takes them all when the piece is read (`didDeliverEvents`) or the pool is full. Reading an item and mapping
    /// it in turn, the reader's code and the assembler's pushed each other out of the processor's instruction cache,
    /// as libxml2's and the reader's had (see `XMLEventLog`). Each item is read where it waits (moving it into an
    /// array and back copied it twice), and emptied there for the next with its arrays' storage kept. Slots are
    /// made as the pool first reaches them: as many as `pooledParts`.
    private let pooledItems = UnsafeMutablePointer<FeedDocument.Item>.allocate(capacity: poolLimit)
    @exclusivity(unchecked) private var pooledParts = [ItemParts()]
    @exclusivity(unchecked) private var pooledCount = 0
    /// The pooled items' markup, in bytes, and the most it was. It stays small without a limit of its own: the pool
    /// goes to the assembler whenever the parser's log has been read, which is whenever its bytes are full, and a
    /// text too large for the log is handed over only after the log (so a feed of long articles is mapped an item or
    /// two at a time).
    @exclusivity(unchecked) private var pooledMarkupBytes = 0
    @exclusivity(unchecked) private var pooledMarkupHighWater = 0
    private static let poolLimit = 64
    /// Buffers `FeedText.html` works in, kept from one text to the next.
    @exclusivity(unchecked) private var htmlScratch: [UInt8] = []
    @exclusivity(unchecked) private var htmlScratch2: [UInt8] = []
    /// The last attribute values `interned` gave.
    private let internedValues = RecentValues()
    /// The acquisition link that `opds:indirectAcquisition` elements belong to.
    @exclusivity(unchecked) private var acquisitionIndex: Int?
    private let feedURL: URL
    /// Where finished items go instead of `document.items`.
    private let assembler: FeedAssembler?
    @exclusivity(unchecked) private var rootNamespace: String?
    @exclusivity(unchecked) private(set) var rootClosed = false
    /// Every distinct name seen in this parse: its key, and what it is.
    @exclusivity(unchecked) private var elementKeys: [String] = []
    @exclusivity(unchecked) private var elementInfos: [ElementInfo] = []
    @exclusivity(unchecked) private var names: [NameKey: Int] = [:]
    /// The last name seen in each slot, found by pointer before hashing for the dictionary.
    @exclusivity(unchecked) private var recentNames = [(localNamePointer: UnsafePointer<UInt8>, namespaceURIPointer: UnsafePointer<UInt8>?, index: Int)?](repeating: nil, count: 2 * recentSlots)
    private static let recentSlotBits = 6
    private static let recentSlots = 1 << recentSlotBits
    /// The root is Atom's `feed` or `entry`: text constructs say their type.
    @exclusivity(unchecked) private var isAtomFamily = false
    /// The last link type `isCatalogType` judged, and what it is.
    @exclusivity(unchecked) private var lastCheckedType: String?
    @exclusivity(unchecked) private var lastTypeIsCatalog = false
    /// Items the fast lane read whole (`readIssueWhole`), for tests.
    @exclusivity(unchecked) private(set) var itemsReadWhole = 0
    /// Issues the fast lane read and the assembler has not yet had, in order (`makeLaneIssues`): the first
    /// `laneIssueCount`. Their texts are still bytes in the parser's log.
    private let laneIssues = UnsafeMutablePointer<LaneIssue>.allocate(capacity: laneIssueLimit)
    @exclusivity(unchecked) private var laneIssueCount = 0
    private static let laneIssueLimit = 128
    private var parser: XMLPushParser!

    init(feedURL: URL, assembler: FeedAssembler? = nil) {
        self.feedURL = feedURL
        self.assembler = assembler
        bases = [feedURL]
        baseTexts = [Self.certainText(feedURL)]
        pooledItems.initialize(to: FeedDocument.Item())
        super.init()
        parser = XMLPushParser(delegate: self)
    }

    deinit {
        pooledItems.deinitialize(count: pooledParts.count)
        pooledItems.deallocate()
        laneIssues.deinitialize(count: laneIssueCount)
        laneIssues.deallocate()
    }

    /// The most bytes held at once while reading: libxml2's unparsed input, the parser's log of its events (a fixed
    /// size), the text being collected and the markup of items waiting for the assembler. It stays near
    /// `XMLPushParser.maxPushBytes` whatever the feed's size.
    var bufferedBytesHighWater: Int {
        parser.highWaterBufferedBytes + XMLEventLog.memoryBytes + textHighWater + pooledMarkupHighWater
    }

    /// Reads the next piece of the feed. Returns false once reading has stopped (libxml2 gave up on
    /// the XML, a limit was passed, or `finish` was called): the caller may stop fetching.
    @discardableResult
    func feed(_ bytes: UnsafeRawBufferPointer) -> Bool {
        parser.feed(bytes)
    }

    @discardableResult
    func feed(_ data: Data) -> Bool {
        parser.feed(data)
    }

    /// Ends the feed. Throws when the XML is not well-formed and nothing could be read; a feed with
    /// a flaw (or that stops early) after its title or some items gives what was read and the problem.
    func finish() throws -> (FeedDocument, problem: String?) {
        parser.finish()
        if let encoding = parser.unknownEncoding {
            throw CatalogError("the feed is in an encoding Newsstand cannot read: '\(encoding)' (neither libxml2 nor iconv knows it)")
        }
        let failure = parser.failure
        if failure == nil && rootClosed { return (document, nil) }
        // A stream that stops inside the root element is truncated, even when libxml2 has no complaint.
        let line = failure?.line ?? parser.currentLine
        let reason = failure?.reason ?? "it ends before the root element is closed"
        if document.itemCount == 0 && document.title == nil {
            throw CatalogError("the feed is not well-formed XML (line \(line): \(reason))")
        }
        return (document, "the feed is not well-formed XML (line \(line): \(reason)); \(document.itemCount) items could be read")
    }

    /// Parses `stream` to the end in pieces of `readChunkBytes`. Throws when the XML is not
    /// well-formed before any item was read, or when the stream cannot be read.
    static func read(_ stream: InputStream, feedURL: URL) throws -> (FeedDocument, problem: String?) {
        let reader = XMLFeedReader(feedURL: feedURL)
        try reader.read(stream)
        return try reader.finish()
    }

    /// Feeds `stream` to the end (or until reading stops), in pieces of `readChunkBytes`; `finish` follows.
    func read(_ stream: InputStream) throws {
        stream.open()
        defer { stream.close() }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.readChunkBytes, alignment: 1)
        defer { buffer.deallocate() }
        let bytes = buffer.bindMemory(to: UInt8.self)
        while true {
            let count = stream.read(bytes.baseAddress!, maxLength: bytes.count)
            if count < 0 {
                throw CatalogError("the feed could not be read" + (stream.streamError.map { ": \($0.localizedDescription)" } ?? ""))
            }
            if count == 0 { break }
            if !feed(UnsafeRawBufferPointer(rebasing: buffer[0..<count])) { break }
        }
    }

    /// Parses `data` in pieces (libxml2 never holds it all at once).
    static func read(_ data: Data, feedURL: URL) throws -> (FeedDocument, problem: String?) {
        let reader = XMLFeedReader(feedURL: feedURL)
        reader.feed(data)
        return try reader.finish()
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

    /// The element's key and what it is, from the cache when this name was seen before. libxml2
    /// gives names from its parser's dictionary: one pointer per distinct name, never freed or
    /// reused while the parser lives (entity content is parsed with the same dictionary), and a
    /// reader has one parser. So the pointers alone identify the name.
    private func info(localName: UnsafePointer<UInt8>, namespaceURI: UnsafePointer<UInt8>?) -> ElementInfo {
        // Names sit a few bytes apart in libxml2's dictionary: the pointers are mixed (Fibonacci
        // hashing, the top bits of a product) so that neighbours do not share a slot.
        let mixed = UInt(bitPattern: Int(bitPattern: localName) &+ Int(bitPattern: namespaceURI) &* 31) &* 0x9E37_79B9_7F4A_7C15
        let slot = Int(mixed >> UInt(UInt.bitWidth - Self.recentSlotBits))
        // Two ways: the slot's last name and the one before it.
        for way in (2 * slot)...(2 * slot + 1) {
            if let recent = recentNames[way], recent.localNamePointer == localName, recent.namespaceURIPointer == namespaceURI {
                return elementInfos[recent.index]
            }
        }
        let cacheKey = NameKey(localName: localName, namespaceURI: namespaceURI)
        if let cached = names[cacheKey] {
            remember(cached, localName: localName, namespaceURI: namespaceURI, slot: slot)
            return elementInfos[cached]
        }
        let local = String(cString: localName)
        let uri = namespaceURI.map { String(cString: $0) }
        let key = key(for: local, namespace: uri)
        let index = elementInfos.count
        elementKeys.append(key)
        elementInfos.append(ElementInfo(key: key, lowercasedLocalName: local.lowercased(), index: index))
        names[cacheKey] = index
        remember(index, localName: localName, namespaceURI: namespaceURI, slot: slot)
        return elementInfos[index]
    }

    /// Puts the name at `index` first in its slot; the name that was first moves to second.
    private func remember(_ index: Int, localName: UnsafePointer<UInt8>, namespaceURI: UnsafePointer<UInt8>?, slot: Int) {
        recentNames[2 * slot + 1] = recentNames[2 * slot]
        recentNames[2 * slot] = (localName, namespaceURI, index)
    }

    private static let textConstructs: Set<String> = [
        "title", "subtitle", "tagline", "summary", "content", "description", "rights", "copyright", "info",
        "content:encoded", "media:title", "media:description", "itunes:summary", "itunes:subtitle", "dc:title",
        "dc:description", "id", "guid", "link", "pubdate", "published", "issued", "updated", "modified", "created",
        "lastbuilddate", "expirationdate", "dc:date", "dcterms:issued", "dcterms:modified", "dcterms:created",
        "news:end_date", "url", "fullitem", "xhtml:body",
    ]

    private static let xhtmlBlocks: Set<String> = ["p", "br", "div", "li", "tr", "td", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre", "hr"]

    private static let roles: [String: Role] = [
        "item": .item, "entry": .item, "channel": .channel, "feed": .channel, "rdf:rdf": .rdfRoot, "image": .image,
        "title": .title, "dc:title": .alternateTitle, "media:title": .alternateTitle, "link": .link, "guid": .guid, "id": .id,
        "dcterms:issued": .issued, "pubdate": .published, "published": .published, "issued": .published,
        "updated": .updated, "modified": .updated, "dc:date": .updated, "dcterms:modified": .updated, "lastbuilddate": .updated,
        "created": .created, "dcterms:created": .created, "expirationdate": .expired, "news:end_date": .endDate,
        "description": .summary, "summary": .summary,
        "itunes:summary": .alternateSummary, "media:description": .alternateSummary, "dc:description": .alternateSummary,
        "itunes:subtitle": .alternateSummary,
        "content": .content, "content:encoded": .content, "fullitem": .content, "xhtml:body": .content, "url": .url,
        "opds:indirectacquisition": .indirectAcquisition, "enclosure": .enclosure, "media:content": .mediaContent,
        "media:thumbnail": .mediaThumbnail, "itunes:link": .itunesLink, "itunes:image": .itunesImage,
        "news:cover_art_icon": .coverArtIcon,
    ]

    // MARK: XMLPushParserDelegate

    override func startElement(_ tag: XMLStartTag) {
        let info = info(localName: tag.localName, namespaceURI: tag.namespaceURI)
        if captureDepth > 0 {
            captureDepth += 1
            if info.isXHTMLBlock { appendSpace() }
            if info.isScriptOrStyle && skippedDepth == 0 { skippedDepth = captureDepth }
            return
        }
        if info.role == .item, !readingItem, let assembler, let upcoming, let parentFrame = stack.last,
           readIssueWhole(tag, baseIndex: parentFrame.baseIndex, assembler: assembler, events: upcoming) {
            return
        }
        let inheritedBaseIndex = stack.last?.baseIndex ?? 0
        var baseIndex = inheritedBaseIndex
        if let xmlBase = tag.xmlBase,
           let url = URL(string: FeedText.trimmed(xmlBase), relativeTo: bases[baseIndex])?.absoluteURL {
            bases.append(url)
            baseTexts.append(Self.certainText(url))
            baseIndex = bases.count - 1
        }
        let parent = stack.last?.info.role
        if stack.isEmpty {
            document.rootName = elementKeys[info.index]
            isAtomFamily = info.isAtomRoot
        }
        if info.marksNewsstand { document.sawNewsstand = true }
        if info.marksOPDS { document.sawOPDS = true }

        var frame = Frame(info: info, baseIndex: baseIndex, kind: .html)
        let href = info.role == .link ? tag.attributeBytes(.href) : nil
        frame.hasHref = href != nil
        if info.isTextConstruct && !frame.hasHref {
            frame.kind = textKind(tag, info: info)
            captureDepth = 1
            text.removeAll(keepingCapacityUpTo: 64 << 10)
        }
        if info.role == .guid { guidIsNotPermaLink = Self.isFalse(tag.attributeBytes(.isPermaLink)) }
        stack.append(frame)

        switch info.role {
        case .item:
            // After an item ends its fields are already fresh; only an item opened inside an open one starts again.
            if readingItem { item = FeedDocument.Item() }
            readingItem = true
            parts.reset()
            item.about = tag.attribute("about", prefix: "rdf")
            acquisitionIndex = nil
        case .link:
            // A search template's braces are no URL: it is read as text, before links are resolved.
            guard let href else { break }
            // Read once (the same String as the last link's, usually).
            let relValue = interned(tag, .rel)
            if !readingItem, parent == .channel, document.search == nil, href.contains(UInt8(ascii: "{")), relValue == "search" {
                if let template = SearchTemplate.normalize(XMLBytes.attributeValue(href), base: bases[baseIndex]) { document.search = .template(template) }
                break
            }
            // An OPDS-PSE page stream: a template too. (Its rel is looked at first: a search of every
            // item link's text through Foundation was an eighth of reading an Atom feed.)
            if readingItem, parent == .item, relValue?.utf8.first == UInt8(ascii: "h"), relValue == CatalogPageStream.rel,
               case let pageHref = XMLBytes.attributeValue(href), pageHref.contains("{pageNumber}") {
                if let template = CatalogPageStream.template(pageHref, base: bases[baseIndex]),
                   let count = tag.attribute("count", namespace: "http://vaemendis.net/opds-pse/ns").flatMap({ Int(FeedText.trimmed($0)) }), count > 0 {
                    let lastRead = tag.attribute("lastRead", namespace: "http://vaemendis.net/opds-pse/ns").flatMap { Int(FeedText.trimmed($0)) }
                    item.pageStream = CatalogPageStream(template: template, pageCount: count, type: interned(tag, .type), lastRead: lastRead)
                }
                break
            }
            let rel = FeedText.trimmed(relValue ?? "alternate", newlines: false)
            let type = interned(tag, .type)
            if assembler != nil, readingItem, parent == .item, !parts.hasAlternate, rel == "alternate",
               !isCatalogType(type), !XMLBytes.hasAmpersand(href) {
                parts.alternateHref.removeAll(keepingCapacityUpTo: 4 << 10)
                parts.alternateHref.append(href)
                parts.hasAlternate = true
                parts.alternateType = type
                parts.alternateLength = tag.attribute(.length)
                parts.alternateTitle = tag.attribute(.title)
                parts.alternateBase = baseIndex
                acquisitionIndex = nil
                break
            }
            guard let url = resolve(attribute: href, base: baseIndex) else { break }
            let opdsRel = rel.utf8.first == UInt8(ascii: "h") && rel.hasPrefix("http://opds-spec.org/")
            if opdsRel || type.map({ FeedText.contains($0, "profile=opds-catalog") }) == true { document.sawOPDS = true }
            if readingItem, parent == .item {
                // Room for the usual few links at once, not one and then two.
                if item.links.isEmpty == true { item.links.reserveCapacity(4) }
                item.links.append(FeedDocument.Link(url: url, rel: rel, type: type, length: tag.attribute(.length), title: tag.attribute(.title)))
                acquisitionIndex = opdsRel && FeedParser.isAcquisition(rel) ? item.links.count - 1 : nil
            } else if !readingItem, parent == .channel {
                if rel == "next", document.nextPage == nil { document.nextPage = url.url }
                if rel == "alternate", document.link == nil { document.link = url.url }
                if rel.utf8.first != UInt8(ascii: "a") { catalogLink(rel: rel, type: type, url: url, tag: tag) }
            }
        case .indirectAcquisition:
            if let index = acquisitionIndex, let type = tag.attribute(.type), readingItem {
                item.links[index].indirectTypes.append(type)
            }
        case .enclosure:
            if readingItem, let url = resolve(attribute: tag.attributeBytes(.url) ?? tag.attributeBytes(.href), base: baseIndex) {
                item.enclosures.append(.init(url: url, type: interned(tag, .type), medium: nil, length: tag.attribute(.length)))
            }
        case .mediaContent:
            if readingItem, let url = resolve(attribute: tag.attributeBytes(.url), base: baseIndex) {
                item.mediaContents.append(.init(url: url, type: interned(tag, .type), medium: interned(tag, .medium), length: tag.attribute(.fileSize)))
            }
        case .mediaThumbnail:
            if let url = resolve(attribute: tag.attributeBytes(.url), base: baseIndex) {
                if readingItem { item.thumbnails.append(url) } else if document.image == nil { document.image = url.url }
            }
        case .itunesLink where tag.attribute(.rel)?.lowercased() == "image":
            if let url = resolve(attribute: tag.attributeBytes(.href), base: baseIndex) {
                if readingItem { if item.itunesImage == nil { item.itunesImage = url } } else { document.image = url.url }
            }
        case .itunesImage:
            if let url = resolve(attribute: tag.attributeBytes(.href) ?? tag.attributeBytes(.url), base: baseIndex) {
                if readingItem { if item.itunesImage == nil { item.itunesImage = url } } else { document.image = url.url }
            }
        case .coverArtIcon:
            if readingItem, let url = resolve(attribute: tag.attributeBytes(.src), base: baseIndex) {
                item.coverIcons.append((size: (tag.attribute(.size) ?? "").uppercased(), url: url))
            }
        default:
            break
        }
    }

    /// How a text construct's text reads: Atom says with `type` (and Atom 0.3 with `mode`); RSS
    /// text is HTML.
    private func textKind(_ tag: XMLStartTag, info: ElementInfo) -> TextKind {
        if info.isXHTMLBody { return .xhtml }
        guard isAtomFamily else { return .html }
        // The usual: no mode, and no type or one of the three Atom names, told from the bytes.
        if tag.attributeBytes(.mode) == nil {
            guard let typeBytes = tag.attributeBytes(.type) else { return .plain }
            if Self.spells(typeBytes, "html") { return .html }
            if Self.spells(typeBytes, "text") { return .plain }
            if Self.spells(typeBytes, "xhtml") { return .xhtml }
        }
        let typeAttribute = interned(tag, .type)
        let mode = tag.attribute(.mode)
        if mode == nil, let typeAttribute {
            // The three types Atom names, as the general reading below takes them.
            switch typeAttribute {
            case "text": return .plain
            case "html": return .html
            case "xhtml": return .xhtml
            default: break
            }
        }
        if typeAttribute == nil && mode == nil { return .plain } // Atom's default, type="text"
        let type = (typeAttribute.flatMap { $0.isEmpty ? nil : $0 } ?? "text").lowercased()
        let html = type == "html" || type == "text/html" || mode == "escaped"
        let textual = type == "text" || type == "html" || type == "xhtml" || type.hasPrefix("text/") || type.hasSuffix("+xml") || type.hasSuffix("/xml")
        if mode == "base64" || (!textual && mode == nil && tag.attribute(.src) == nil) {
            return .base64(html: html || type.contains("html"))
        } else if html {
            return .html
        } else if type == "xhtml" || type == "application/xhtml+xml" {
            return .xhtml
        }
        return .plain
    }

    override func characters(_ bytes: UnsafeBufferPointer<UInt8>) {
        // Only a text construct's text is ever read; whitespace between elements is not kept.
        guard captureDepth > 0, skippedDepth == 0 else { return }
        let room = Self.maxTextBytes - text.count
        guard room > 0 else { return }
        text.append(bytes.count <= room ? bytes : UnsafeBufferPointer(rebasing: bytes[..<room]))
    }

    private func appendSpace() {
        if text.count < Self.maxTextBytes { text.append(UInt8(ascii: " ")) }
    }

    override func endElement(localName: UnsafePointer<UInt8>, namespaceURI: UnsafePointer<UInt8>?) {
        if captureDepth > 1 {
            if captureDepth == skippedDepth { skippedDepth = 0 }
            captureDepth -= 1
            if info(localName: localName, namespaceURI: namespaceURI).isXHTMLBlock { appendSpace() }
            return
        }
        let captured = captureDepth == 1
        captureDepth = 0
        skippedDepth = 0
        guard let frame = stack.popLast() else { return }
        if stack.isEmpty { rootClosed = true }
        // An `xml:base` that closes here stays in `bases` until the events are read (`didDeliverEvents`): pooled
        // items' links may be resolved against it.
        guard captured || frame.info.role == .item else { return }
        textHighWater = max(textHighWater, text.count)
        let parent = stack.last?.info.role
        let inItem = readingItem && parent == .item
        let inFeed = !readingItem && (parent == .channel || parent == .rdfRoot)

        switch frame.info.role {
        case .item:
            if readingItem {
                readingItem = false
                document.itemCount += 1
                if assembler != nil {
                    pool()
                } else {
                    var finished = FeedDocument.Item()
                    swap(&finished, &item)
                    if parts.hasMarkup { finished.markup = String(decoding: parts.markup.bytes, as: UTF8.self) }
                    document.items.append(finished)
                    parts.reset()
                }
            }
            acquisitionIndex = nil
        case .title:
            if inItem, item.title == nil { item.title = readText(frame) } else if inFeed, document.title == nil { document.title = readText(frame) }
        case .alternateTitle:
            if readingItem, item.alternateTitle == nil { item.alternateTitle = readText(frame) }
            else if inFeed, document.title == nil { document.title = readText(frame) }
        case .link:
            guard !frame.hasHref else { break }
            if inItem, assembler != nil, item.link == nil {
                if parts.hasLink {
                    completeTextLink(&item, parts)
                    if item.link != nil { break }
                }
                parts.linkText.removeAll(keepingCapacityUpTo: 4 << 10)
                parts.linkText.append(text.bytes)
                parts.hasLink = true
                parts.linkBase = frame.baseIndex
                break
            }
            guard let url = resolve(utf8: text.bytes, base: frame.baseIndex) else { break }
            if inItem { if item.link == nil { item.link = url } } else if inFeed { document.link = document.link ?? url.url }
        case .guid, .id:
            let value = trimmedText
            guard !value.isEmpty else { break }
            if inItem {
                if item.id == nil { item.id = value }
                if frame.info.role == .guid, !guidIsNotPermaLink,
                   let url = resolve(value, base: frame.baseIndex), url.isDeferred || url.url.scheme?.hasPrefix("http") == true,
                   item.guidLink == nil {
                    item.guidLink = url
                }
            } else if inFeed, document.id == nil {
                document.id = value
            }
        case .issued:
            if let date = textDate() {
                if inItem { item.issued = date } else if inFeed { document.published = date }
            }
        case .published:
            if let date = textDate() {
                if inItem { item.published = date } else if inFeed { document.published = date }
            }
        case .updated:
            if let date = textDate() {
                if inItem { item.updated = date } else if inFeed { document.updated = date }
            }
        case .created:
            if inItem, let date = textDate() { item.created = date }
        case .expired:
            if inItem, let date = textDate() { item.expired = date }
        case .endDate:
            if inItem, let date = textDate() { item.endDate = date }
        case .summary:
            // feedparser's rule when an RSS item has both: the second is the content.
            if inItem {
                if item.summary == nil {
                    item.summary = readText(frame)
                    if !parts.hasMarkup { keepMarkup(frame) }
                } else if item.content == nil {
                    item.content = readText(frame)
                    keepMarkup(frame)
                }
            }
        case .alternateSummary:
            if readingItem, item.alternateSummary == nil { item.alternateSummary = readText(frame) }
        case .content:
            if inItem, item.content == nil {
                item.content = readText(frame)
                keepMarkup(frame)
            }
        case .url:
            if parent == .image, !readingItem, document.image == nil { document.image = resolve(utf8: text.bytes, base: frame.baseIndex)?.url }
        default:
            break
        }
    }

    // MARK: Issues read whole

    /// The fast lane: reads the item that `tag` opens straight from the events after it in the parser's log, when it
    /// is the common issue item, and hands it to the assembler at once. Such an item ends in the log, and has only
    /// childless children: texts (title, summary, content, id, guid, dates), one content file (an RSS `enclosure` or
    /// an Atom `link rel="enclosure"`), thumbnails, page links (`rel="alternate"`, or RSS `link` text, which an issue
    /// never uses) and elements nothing reads. Reading it so takes no frames and no `FeedDocument.Item`, pools
    /// nothing and makes only what its entry keeps. Anything else (another element or link, an `xml:base`, a nested
    /// element, a second file, a file that is no issue's, items held for the feed's format) and the lane returns
    /// false having taken no event (the items waiting in the pool may have been mapped, in order): the item is read
    /// event by event, as every item was before. What each element gives is what `endElement` and `FeedAssembler`
    /// make of it; `FeedAssemblerTests` compares the two readings.
    private func readIssueWhole(_ tag: XMLStartTag, baseIndex: Int, assembler: FeedAssembler, events: XMLEventLog) -> Bool {
        guard tag.xmlBase == nil else { return false }
        var id: String?
        var title: LaneIssue.Text?, alternateTitle: LaneIssue.Text?, summary: LaneIssue.Text?, content: LaneIssue.Text?
        var alternateSummary: LaneIssue.Text?
        var published: Date?, updated: Date?, issued: Date?, created: Date?, endDate: Date?
        // The content file: its link, type and size, and whether it is an RSS `enclosure` (kept in plain variables: an
        // optional tuple of them was destroyed through the runtime's generic tuple code).
        var fileURL: LazyURL?, fileType: String?, fileLength: String?, fileIsEnclosure = false
        var files = 0
        var thumbnail: LazyURL?
        var longestText = 0
        // The child open (its role and how its text reads), and its text.
        var child: (info: ElementInfo, kind: TextKind)?
        var childText = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
        var offset = 0
        while true {
            guard let event = events.peek(offset) else { return false }
            offset += 1
            switch event {
            case let .start(localName, namespaceURI, attributes, attributeCount):
                guard child == nil else { return false }
                let info = info(localName: localName, namespaceURI: namespaceURI)
                let childTag = XMLStartTag(localName: localName, namespaceURI: namespaceURI, attributes: attributes, attributeCount: attributeCount)
                guard !info.marksNewsstand, !info.marksOPDS, childTag.xmlBase == nil else { return false }
                var kind = TextKind.plain
                switch info.role {
                case .title, .alternateTitle, .summary, .alternateSummary, .content:
                    kind = textKind(childTag, info: info)
                    if case .base64 = kind { return false }
                case .id, .guid, .issued, .published, .updated, .created, .expired, .endDate, .other:
                    break
                case .link:
                    guard let href = childTag.attributeBytes(.href) else { break }
                    // Its rel from the bytes: `alternate` (also when there is none) or `enclosure`, with spaces or tabs
                    // around it at most, as `startElement` trims it.
                    var isEnclosure = false
                    if let rel = childTag.attributeBytes(.rel) {
                        let (range, plainEnds) = FeedText.trimmedRange(rel, newlines: false)
                        let trimmed = UnsafeBufferPointer(rebasing: rel[range])
                        isEnclosure = Self.spells(trimmed, "enclosure")
                        guard plainEnds, isEnclosure || Self.spells(trimmed, "alternate") else { return false }
                    }
                    let type = interned(childTag, .type)
                    guard !isCatalogType(type) else { return false }
                    guard isEnclosure, let url = resolve(attribute: href, base: baseIndex) else { break }
                    files += 1
                    (fileURL, fileType, fileLength, fileIsEnclosure) = (url, type, childTag.attribute(.length), false)
                case .enclosure:
                    guard let url = resolve(attribute: childTag.attributeBytes(.url) ?? childTag.attributeBytes(.href), base: baseIndex) else { break }
                    files += 1
                    (fileURL, fileType, fileLength, fileIsEnclosure) = (url, interned(childTag, .type), childTag.attribute(.length), true)
                case .mediaThumbnail:
                    if thumbnail == nil, let url = resolve(attribute: childTag.attributeBytes(.url), base: baseIndex) { thumbnail = url }
                default:
                    return false
                }
                child = (info, kind)
                childText = UnsafeBufferPointer(start: nil, count: 0)
            case let .text(bytes):
                // Text between the children is not read.
                if child != nil { childText = bytes }
            case .end:
                guard let (info, kind) = child else {
                    // The item's own end.
                    return finishIssue()
                }
                child = nil
                longestText = max(longestText, childText.count)
                switch info.role {
                case .title: if title == nil { title = (childText, kind) }
                case .alternateTitle: if alternateTitle == nil { alternateTitle = (childText, kind) }
                case .summary:
                    if summary == nil { summary = (childText, kind) } else if content == nil { content = (childText, kind) }
                case .alternateSummary: if alternateSummary == nil { alternateSummary = (childText, kind) }
                case .content: if content == nil { content = (childText, kind) }
                case .id, .guid:
                    if id == nil, case let value = Self.trimmed(childText), !value.isEmpty { id = value }
                case .issued: if let date = FlexibleDateParser.parse(utf8: childText) { issued = date }
                case .published: if let date = FlexibleDateParser.parse(utf8: childText) { published = date }
                case .updated: if let date = FlexibleDateParser.parse(utf8: childText) { updated = date }
                case .created: if let date = FlexibleDateParser.parse(utf8: childText) { created = date }
                case .endDate: if let date = FlexibleDateParser.parse(utf8: childText) { endDate = date }
                default: break
                }
            }
        }

        func finishIssue() -> Bool {
            guard files == 1, let fileURL else { return false }
            // Items before it waiting in the pool are mapped first, in order (the lane's issues before those first of all).
            if pooledCount > 0 { assemblePooledItems() }
            guard assembler.takesIssue(url: fileURL, type: fileType) else { return false }
            // `FeedParser.cover` for what such an item can have: a thumbnail, else a picture enclosure.
            let cover = thumbnail ?? (fileIsEnclosure && FeedParser.isPictureType(fileType) ? fileURL : nil)
            (laneIssues + laneIssueCount).initialize(to: LaneIssue(
                id: id, about: tag.attribute("about", prefix: "rdf"), title: title, alternateTitle: alternateTitle, summary: summary,
                content: content, alternateSummary: alternateSummary, published: published, updated: updated, issued: issued,
                created: created, endDate: endDate, url: fileURL, type: fileType, length: fileLength, cover: cover))
            laneIssueCount += 1
            if laneIssueCount == Self.laneIssueLimit { makeLaneIssues() }
            events.skip(offset)
            itemsReadWhole += 1
            document.itemCount += 1
            acquisitionIndex = nil
            textHighWater = max(textHighWater, longestText)
            return true
        }
    }

    /// An issue the fast lane read, until the assembler has it: its texts as the bytes in the parser's log and how
    /// they read (made into strings by `makeLaneIssues`), the rest as the assembler takes it.
    private struct LaneIssue {
        /// A text construct's bytes in the parser's log, and how they read.
        typealias Text = (bytes: UnsafeBufferPointer<UInt8>, kind: TextKind)
        var id: String?
        var about: String?
        var title: Text?, alternateTitle: Text?, summary: Text?, content: Text?, alternateSummary: Text?
        var published: Date?, updated: Date?, issued: Date?, created: Date?, endDate: Date?
        var url: LazyURL
        var type: String?
        var length: String?
        var cover: LazyURL?
        /// The title and summary made, between the phases of `makeLaneIssues`.
        var titleText: String? = nil
        var summaryText: String? = nil
    }

    /// Hands the issues the fast lane read to the assembler, in order, in phases: every title made, then every summary,
    /// then each issue mapped. Made an issue at a time, the code of each step (texts, HTML, names, entries) took turns
    /// in the processor's instruction cache and pushed the others out, as libxml2's and the reader's had (see
    /// `XMLEventLog`); a phase runs its code over some hundred issues at once. The texts' bytes are in the parser's log,
    /// which keeps them until `didDeliverEvents` returns: the issues are made by then (or when `laneIssueLimit` wait).
    private func makeLaneIssues() {
        guard laneIssueCount > 0, let assembler else { return }
        for index in 0..<laneIssueCount {
            if let title = laneIssues[index].title { laneIssues[index].titleText = readText(title.bytes, kind: title.kind) }
        }
        for index in 0..<laneIssueCount {
            if let summary = laneIssues[index].summary { laneIssues[index].summaryText = readText(summary.bytes, kind: summary.kind) }
        }
        for index in 0..<laneIssueCount {
            // Moved out, not copied: each string goes on to its entry without a retain and a release.
            let issue = (laneIssues + index).move()
            assembler.addIssue(id: issue.id, about: issue.about, title: issue.titleText,
                               alternateTitle: issue.alternateTitle.map { readText($0.bytes, kind: $0.kind) },
                               summary: issue.summaryText,
                               content: issue.content.map { readText($0.bytes, kind: $0.kind) },
                               alternateSummary: issue.alternateSummary.map { readText($0.bytes, kind: $0.kind) },
                               published: issue.published, updated: issue.updated, issued: issue.issued, created: issue.created,
                               endDate: issue.endDate, url: issue.url, type: issue.type, length: issue.length, cover: issue.cover)
        }
        laneIssueCount = 0
    }

    /// `FeedParser.isCatalogType(type)`, the answer for the last type kept: a feed's links have a handful of types,
    /// each the same String each time (`interned`). For every link of an item, in the fast lane and out of it.
    private func isCatalogType(_ type: String?) -> Bool {
        guard let type else { return false }
        if type != lastCheckedType {
            lastCheckedType = type
            lastTypeIsCatalog = FeedParser.isCatalogType(type)
        }
        return lastTypeIsCatalog
    }

    // MARK: Pooled items

    /// Leaves the item just read, and its parts, in the pool (see `pooledItems`): the next is read in the slot after
    /// it. The assembler takes the pool when it is full.
    private func pool() {
        parts.sawNewsstand = document.sawNewsstand
        if parts.hasMarkup {
            pooledMarkupBytes += parts.markup.count
            pooledMarkupHighWater = max(pooledMarkupHighWater, pooledMarkupBytes)
        }
        pooledCount += 1
        if pooledCount == Self.poolLimit {
            assemblePooledItems()
        } else if pooledCount == pooledParts.count {
            (pooledItems + pooledCount).initialize(to: FeedDocument.Item())
            pooledParts.append(ItemParts())
        }
    }

    /// Hands the pooled items to the assembler in order, each read where it is and then emptied for the next
    /// with its arrays' storage kept (an item handed over by value was copied and destroyed twice). An item still
    /// being read moves to the first slot. The fast lane's issues waiting go first: an item is pooled only after them
    /// (the lane maps the pool before it takes an item).
    private func assemblePooledItems() {
        makeLaneIssues()
        guard let assembler, pooledCount > 0 else { return }
        for index in 0..<pooledCount {
            let itemParts = pooledParts[index]
            assembler.add(&pooledItems[index], markup: itemParts.hasMarkup ? itemParts.markup.bytes : nil, atomFamily: isAtomFamily,
                          sawNewsstand: itemParts.sawNewsstand, completeLinks: { self.completeLinks(&$0, itemParts) })
            pooledItems[index].clear()
            itemParts.reset()
        }
        if readingItem {
            swap(&pooledItems[0], &pooledItems[pooledCount])
            pooledParts.swapAt(0, pooledCount)
        }
        pooledCount = 0
        pooledMarkupBytes = 0
    }

    /// The events of a piece are read: the pooled items go to the assembler, and the bases of elements that closed
    /// are let go (the open frames' bases are the first ones, up to the innermost's).
    override func didDeliverEvents() {
        assemblePooledItems()
        let kept = (stack.last?.baseIndex ?? 0) + 1
        if bases.count > kept {
            bases.removeSubrange(kept...)
            baseTexts.removeSubrange(kept...)
        }
    }

    /// Puts an item's pending page links (see `ItemParts`) into `item` as reading them at once would have: the
    /// `link` text as its link, the `alternate` link before the item's others (only the first alternate link is
    /// ever read).
    private func completeLinks(_ item: inout FeedDocument.Item, _ parts: ItemParts) {
        completeTextLink(&item, parts)
        if parts.hasAlternate,
           let url = resolve(utf8: parts.alternateHref.bytes, base: parts.alternateBase) {
            // Only an `alternate` link is kept pending.
            item.links.insert(FeedDocument.Link(url: url, rel: "alternate", type: parts.alternateType, length: parts.alternateLength,
                                                title: parts.alternateTitle), at: 0)
        }
    }

    private func completeTextLink(_ item: inout FeedDocument.Item, _ parts: ItemParts) {
        if parts.hasLink, item.link == nil {
            item.link = resolve(utf8: parts.linkText.bytes, base: parts.linkBase)
        }
    }

    // MARK: Helpers

    /// `tag.attribute(local)`, the same String as last time when the value is one of the last few
    /// seen: a `rel`, a `type` or a `medium` takes a handful of values over thousands of elements,
    /// so they are neither decoded nor stored again for each.
    private func interned(_ tag: XMLStartTag, _ common: XMLStartTag.CommonAttribute) -> String? {
        guard let bytes = tag.attributeBytes(common) else { return nil }
        // A value with an ampersand is not its own text (`&#38;`): decoded, never kept.
        if XMLBytes.hasAmpersand(bytes) { return XMLBytes.attributeValue(bytes) }
        return internedValues.value(bytes, decode: XMLBytes.attributeValue)
    }

    /// Whether an attribute's value is exactly `text`.
    @inline(__always)
    private static func spells(_ bytes: UnsafeBufferPointer<UInt8>, _ text: StaticString) -> Bool {
        bytes.count == text.utf8CodeUnitCount && (bytes.isEmpty || memcmp(bytes.baseAddress!, text.utf8Start, bytes.count) == 0)
    }

    /// Whether an attribute's value is `false` in any case, read from its bytes (as `lowercased() == "false"`
    /// read it: only ASCII letters lower to these five).
    private static func isFalse(_ bytes: UnsafeBufferPointer<UInt8>?) -> Bool {
        guard let bytes, bytes.count == 5 else { return false }
        return bytes[0] | 0x20 == UInt8(ascii: "f") && bytes[1] | 0x20 == UInt8(ascii: "a") && bytes[2] | 0x20 == UInt8(ascii: "l")
            && bytes[3] | 0x20 == UInt8(ascii: "s") && bytes[4] | 0x20 == UInt8(ascii: "e")
    }

    /// The collected text trimmed (`FeedText.trimmed`), trimmed on the bytes when its ends are ASCII: one String made, the value
    /// (the untrimmed one was made, then retained as the result and released, for every id).
    private var trimmedText: String { Self.trimmed(text.bytes) }

    private static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        let (range, plainEnds) = FeedText.trimmedRange(bytes)
        if range.isEmpty { return "" }
        guard plainEnds else { return FeedText.trimmed(String(decoding: bytes, as: UTF8.self)) }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    private func textDate() -> Date? {
        FlexibleDateParser.parse(utf8: text.bytes)
    }

    /// The most bytes of an item's HTML kept for reading it as an article.
    static let markupLimit = 512 << 10

    /// Keeps the collected text as the item's markup, for a headline's article: only when the feed marked it as
    /// HTML (Atom `type="html"`, RSS description and `content:encoded`), at most `markupLimit` bytes; otherwise
    /// the markup kept before stays.
    private func keepMarkup(_ frame: Frame) {
        guard case .html = frame.kind, !text.isEmpty, text.count <= Self.markupLimit else { return }
        parts.markup.removeAll(keepingCapacityUpTo: 64 << 10)
        parts.markup.append(text.bytes)
        parts.hasMarkup = true
    }

    private func readText(_ frame: Frame) -> String {
        readText(text.bytes, kind: frame.kind)
    }

    /// `bytes`, the text of a text construct of `kind`, as one line.
    private func readText(_ bytes: UnsafeBufferPointer<UInt8>, kind: TextKind) -> String {
        switch kind {
        case .plain, .xhtml: return TextSanitizer.singleLine(utf8: bytes)
        case .html:
            defer {
                // A huge text's buffers are not kept for the small ones after it.
                if htmlScratch.capacity > 64 << 10 { htmlScratch = [] }
                if htmlScratch2.capacity > 64 << 10 { htmlScratch2 = [] }
            }
            return FeedText.html(utf8: bytes, scratch: &htmlScratch, &htmlScratch2)
        case .base64(let html):
            let raw = String(decoding: bytes, as: UTF8.self)
            let compact = raw.filter { !$0.isWhitespace }
            guard let data = Data(base64Encoded: compact) else { return FeedText.plain(raw) }
            let decoded = String(decoding: data, as: UTF8.self)
            return html ? FeedText.html(decoded) : FeedText.plain(decoded)
        }
    }

    /// A feed-level OPDS link: search (template or OpenSearch description), facet, start.
    private func catalogLink(rel: String, type: String?, url: LazyURL, tag: XMLStartTag) {
        switch rel {
        case "search" where document.search == nil:
            if (type ?? "").lowercased().contains("opensearchdescription") {
                document.search = .description(url.url)
            }
        case "start" where document.start == nil:
            document.start = url.url
        case "http://opds-spec.org/facet":
            let group = tag.attribute("facetGroup", prefix: "opds") ?? tag.attribute("facetGroup") ?? ""
            let active = (tag.attribute("activeFacet", prefix: "opds") ?? tag.attribute("activeFacet")) == "true"
            let count = (tag.attribute("count", prefix: "thr") ?? tag.attribute("count")).flatMap { Int($0) }
            let title = tag.attribute(.title).map(FeedText.plain) ?? url.absoluteString
            document.facets.append(CatalogFacet(group: FeedText.plain(group), title: title, url: url.url, isActive: active, count: count))
        default:
            break
        }
    }

    /// The link `text` gives against `bases[base]`, parsed only when used (see `LazyURL`). The base
    /// is read only for a link that needs it.
    private func resolve(_ text: String, base: Int) -> LazyURL? {
        LazyURL(text, base: bases[base], certainBaseText: baseTexts[base])
    }

    /// `resolve` of an attribute's value, read from its bytes (one String made, the link's) unless it
    /// holds an ampersand (which libxml2 hands over as a reference).
    private func resolve(attribute bytes: UnsafeBufferPointer<UInt8>?, base: Int) -> LazyURL? {
        guard let bytes else { return nil }
        if XMLBytes.hasAmpersand(bytes) { return resolve(XMLBytes.attributeValue(bytes), base: base) }
        return resolve(utf8: bytes, base: base)
    }

    /// `resolve` of UTF-8 that needs no decoding (the collected text, a pending link's bytes).
    private func resolve(utf8 bytes: UnsafeBufferPointer<UInt8>, base: Int) -> LazyURL? {
        LazyURL.resolving(utf8: bytes, base: bases[base], certainBaseText: baseTexts[base])
    }

    private static func certainText(_ url: URL) -> String? {
        let text = url.absoluteString
        return CatalogParser.isCertainWebURL(text) ? text : nil
    }

    /// What the reader keeps of an item beside `FeedDocument.Item` until the assembler takes it. Its markup as
    /// bytes, made into a String only for an item that needs it (a headline's article), not for every issue of a feed
    /// whose texts are HTML. Its page links as the parser's bytes, with the index of their base in `bases`, until
    /// the assembler needs them (when the item is held or becomes a headline): an issue never uses them, and
    /// resolving each and making its String was a tenth of reading a feed; the first `link` text (RSS) and the
    /// first `alternate` link that is not a catalog's (Atom), only while items go to an assembler. Each is in plain
    /// fields with a flag that says whether it is there (an optional tuple of them was made and destroyed whole for
    /// every item). And whether the feed had shown itself Newsstand's when the item ended.
    private final class ItemParts {
        let markup = TextBytes()
        @exclusivity(unchecked) var hasMarkup = false
        let linkText = TextBytes(capacity: 64)
        @exclusivity(unchecked) var hasLink = false
        @exclusivity(unchecked) var linkBase = 0
        let alternateHref = TextBytes(capacity: 64)
        @exclusivity(unchecked) var hasAlternate = false
        @exclusivity(unchecked) var alternateType: String?
        @exclusivity(unchecked) var alternateLength: String?
        @exclusivity(unchecked) var alternateTitle: String?
        @exclusivity(unchecked) var alternateBase = 0
        @exclusivity(unchecked) var sawNewsstand = false

        /// Nothing kept (the texts stay until they are written over: only read while their flag is set).
        func reset() {
            hasMarkup = false
            hasLink = false
            hasAlternate = false
        }
    }
}
