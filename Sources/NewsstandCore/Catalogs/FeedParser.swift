import Foundation
import NewsstandContent

/// Reads any publication feed Newsstand knows — the seed's property-list catalog, RSS (2.0, 0.9x,
/// 1.0/RDF), Atom, OPDS 1.x, OPDS 2.0 JSON and Apple's Newsstand Atom — choosing the format from the
/// content, never from the file name, and maps it onto issues (items with downloadable content),
/// headlines (items without), and navigation links (OPDS).
///
/// XML is read by libxml2's streaming parser (`XMLFeedReader`) in pieces, from memory or from a
/// file, so the parser's memory stays flat however large the feed.
public enum FeedParser {
    static let notAFeed = "not a feed: expected RSS, Atom, OPDS or a property-list catalog"

    /// Parses a feed fetched from `url` (relative links resolve against it, or against `xml:base`).
    public static func parse(_ data: Data, url: URL) throws -> Feed {
        guard let format = detectFormat(data) else { throw CatalogError(notAFeed) }
        switch format {
        case .propertyList:
            let catalog = try CatalogParser.parse(data, catalogURL: url)
            return Feed(format: .propertyList, title: catalog.title, entries: catalog.entries, problems: catalog.problems)
        case .opds2:
            return try OPDS2Parser.parse(data, url: url)
        case .rss, .atom, .opds1, .newsstandAtom:
            return try readXML(detected: format, url: url) { $0.feed(data) }
        }
    }

    /// Parses a feed stored in `file` (for example a download written to a temporary file), streaming
    /// XML from disk; `url` is where the feed came from, for relative links.
    public static func parse(contentsOf file: URL, url: URL) throws -> Feed {
        guard let handle = FileHandle(forReadingAtPath: file.path) else { throw CatalogError("cannot read \(file.path)") }
        let head = handle.readData(ofLength: 64 << 10)
        try? handle.close()
        guard let format = try detectFormat(head) ?? detectFormat(Data(contentsOf: file)) else { throw CatalogError(notAFeed) }
        switch format {
        case .rss, .atom, .opds1, .newsstandAtom:
            guard let stream = InputStream(url: file) else { throw CatalogError("cannot read \(file.path)") }
            return try readXML(detected: format, url: url) { try $0.read(stream) }
        default:
            return try parse(try Data(contentsOf: file), url: url)
        }
    }

    // MARK: Detection

    /// The feed's format judged from its first bytes (the XML root element and its namespaces, the
    /// JSON keys, or a property-list header), or nil when it is none of them.
    public static func detectFormat(_ data: Data) -> FeedFormat? {
        if data.starts(with: Array("bplist".utf8)) { return .propertyList }
        let head = headText(data)
        var index = head.startIndex
        // Skip whitespace, XML declaration, comments, processing instructions and doctype.
        while index < head.endIndex {
            let rest = head[index...]
            if rest.first!.isWhitespace || rest.first == "\u{FEFF}" {
                index = head.index(after: index)
            } else if rest.hasPrefix("<?") {
                guard let end = rest.range(of: "?>") else { return nil }
                index = end.upperBound
            } else if rest.hasPrefix("<!--") {
                guard let end = rest.range(of: "-->") else { return nil }
                index = end.upperBound
            } else if rest.hasPrefix("<!") {
                if rest.prefix(64).lowercased().hasPrefix("<!doctype plist") { return .propertyList }
                guard var end = rest.firstIndex(of: ">") else { return nil }
                // A doctype's internal subset (`[ <!ENTITY …> ]`) holds '>' of its own.
                if rest.prefix(9).lowercased() == "<!doctype", let bracket = rest.firstIndex(of: "["), bracket < end {
                    guard let close = internalSubsetEnd(rest[bracket...]) else { return nil }
                    end = close
                }
                index = head.index(after: end)
            } else {
                break
            }
        }
        guard index < head.endIndex else { return nil }
        let rest = head[index...]
        if rest.first == "{" || rest.first == "[" {
            if let format = detectJSON(data) { return format }
            return isPropertyList(data) ? .propertyList : nil
        }
        guard rest.first == "<" else { return isPropertyList(data) ? .propertyList : nil }
        let nameEnd = rest.dropFirst().firstIndex { $0.isWhitespace || $0 == ">" || $0 == "/" } ?? rest.endIndex
        let qualified = String(rest[rest.index(after: rest.startIndex)..<nameEnd])
        let local = qualified.split(separator: ":").last.map(String.init)?.lowercased() ?? ""
        var lowered: String { rest.lowercased() }
        switch local {
        case "plist": return .propertyList
        case "rss", "channel": return .rss
        case "rdf":
            // RSS 1.0 and 0.90: items or a channel, or, before it has either, the namespace of RSS 1.0 or 0.90
            // (an empty feed is a feed).
            let lowered = lowered
            return FeedText.contains(lowered, "<item") || FeedText.contains(lowered, "<channel") || FeedText.contains(lowered, ":item")
                || FeedText.contains(lowered, "http://purl.org/rss/1.0/") || FeedText.contains(lowered, "http://my.netscape.com/rdf/simple/0.9/") ? .rss : nil
        case "feed", "entry":
            let lowered = lowered
            if FeedText.contains(lowered, "http://itunes.apple.com/2011/newsstand") { return .newsstandAtom }
            if FeedText.contains(lowered, "http://opds-spec.org/") || FeedText.contains(lowered, "profile=opds-catalog") { return .opds1 }
            return .atom
        default: return nil
        }
    }

    /// The `>` that ends a doctype whose internal subset starts `subset` (`[`): after the `]` that
    /// closes it (outside quoted strings and comments) and any white space.
    private static func internalSubsetEnd(_ subset: Substring) -> String.Index? {
        var index = subset.index(after: subset.startIndex)
        var quote: Character? = nil
        while index < subset.endIndex {
            let character = subset[index]
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if subset[index...].hasPrefix("<!--") {
                guard let close = subset[index...].range(of: "-->") else { return nil }
                index = close.upperBound
                continue
            } else if character == "]" {
                var after = subset.index(after: index)
                while after < subset.endIndex, subset[after].isWhitespace { after = subset.index(after: after) }
                return after < subset.endIndex && subset[after] == ">" ? after : nil
            }
            index = subset.index(after: index)
        }
        return nil
    }

    /// The first 64 KB as text: UTF-16 and UTF-32 (with or without a byte-order mark) and EBCDIC decoded,
    /// anything else read byte for byte (enough to find markup).
    private static func headText(_ data: Data) -> String {
        let head = data.prefix(64 << 10)
        let bytes = [UInt8](head.prefix(4))
        if bytes.count >= 2 {
            if bytes.starts(with: [0x00, 0x00, 0xFE, 0xFF]) || bytes.starts(with: [0x00, 0x00, 0x00, 0x3C]) {
                return String(data: head.prefix(head.count / 4 * 4), encoding: .utf32BigEndian) ?? ""
            }
            if bytes.starts(with: [0xFF, 0xFE, 0x00, 0x00]) || bytes.starts(with: [0x3C, 0x00, 0x00, 0x00]) {
                return String(data: head.prefix(head.count / 4 * 4), encoding: .utf32LittleEndian) ?? ""
            }
            if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0x00, 0x3C]) {
                return String(data: head.prefix(head.count / 2 * 2), encoding: .utf16BigEndian) ?? ""
            }
            if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0x3C, 0x00]) {
                return String(data: head.prefix(head.count / 2 * 2), encoding: .utf16LittleEndian) ?? ""
            }
        }
        if bytes.starts(with: [0x4C, 0x6F, 0xA7, 0x94]), let ebcdic = IconvTranscoder(from: "IBM037") {
            // EBCDIC: markup is in characters every EBCDIC code page shares.
            var text: [UInt8] = []
            head.withUnsafeBytes { ebcdic.convert($0, final: true) { text.append(contentsOf: $0) } }
            return String(decoding: text, as: UTF8.self)
        }
        var start = head.startIndex
        if head.starts(with: [0xEF, 0xBB, 0xBF]) { start += 3 }
        return head[start...].withUnsafeBytes { bytes in
            String(unsafeUninitializedCapacity: bytes.count) { text in
                for index in 0..<bytes.count { text[index] = bytes[index] < 0x80 ? bytes[index] : 0x3F }
                return bytes.count
            }
        }
    }

    private static func detectJSON(_ data: Data) -> FeedFormat? {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
        if object["authentication"] != nil && object["publications"] == nil { return nil }
        for key in ["publications", "navigation", "groups", "catalogs"] where object[key] != nil { return .opds2 }
        if object["metadata"] != nil && (object["links"] != nil || object["images"] != nil) { return .opds2 }
        return nil
    }

    private static func isPropertyList(_ data: Data) -> Bool {
        (try? PropertyListSerialization.propertyList(from: data, options: [], format: nil)) != nil
    }

    // MARK: XML

    /// The feed an XML reading gives, with the reader's problem; throws when nothing usable was read.
    static func build(_ read: (FeedDocument, problem: String?), detected: FeedFormat) throws -> Feed {
        try FeedAssembler(detected: detected).finish(read)
    }

    /// Reads an XML feed with its items mapped as they are read (`FeedAssembler`), so they are never all held.
    static func readXML(detected: FeedFormat, url: URL, _ read: (XMLFeedReader) throws -> Void) throws -> Feed {
        let assembler = FeedAssembler(detected: detected)
        let reader = XMLFeedReader(feedURL: url, assembler: assembler)
        try read(reader)
        return try assembler.finish(reader.finish())
    }

    static func format(of document: FeedDocument, detected: FeedFormat) -> FeedFormat {
        guard document.rootName == "feed" || document.rootName == "entry" else { return detected }
        if document.sawNewsstand { return .newsstandAtom }
        if document.sawOPDS { return .opds1 }
        return detected == .rss ? .atom : detected
    }

    /// Maps the items: downloadable ones become issues, OPDS catalog links navigation, the rest headlines
    /// (`FeedAssembler`, given the whole document).
    static func build(_ document: FeedDocument, detected: FeedFormat) -> Feed {
        let assembler = FeedAssembler(detected: detected)
        let atomFamily = document.rootName == "feed" || document.rootName == "entry"
        for var item in document.items { assembler.add(&item, atomFamily: atomFamily, sawNewsstand: document.sawNewsstand) }
        return assembler.finish(document)
    }

    /// An issue's unique name from its guid/id (or enclosure URL): one sanitised line, at most 200 characters.
    static func issueName(_ raw: String) -> String {
        let name = TextSanitizer.singleLine(raw)
        return name.utf8.count <= 200 ? name : String(name.prefix(200))
    }

    static func alternateLink(_ item: FeedDocument.Item) -> LazyURL? {
        item.links.first { $0.rel == "alternate" && !isCatalogType($0.type) }?.url
    }

    struct Asset {
        var url: LazyURL
        var type: String?
        /// The size the feed gives (`length`, `fileSize`), as text; parsed only when kept.
        var length: String? = nil
    }

    /// Downloadable content: RSS enclosures, Atom `rel="enclosure"`, the best OPDS acquisition link,
    /// and Media RSS content that is not an image (images are covers unless nothing else is there).
    static func contentAssets(_ item: FeedDocument.Item) -> [Asset] {
        var assets: [Asset] = []
        contentAssets(item, into: &assets)
        return assets
    }

    /// `contentAssets` into `assets` (emptied first), an array the caller keeps for the next item.
    static func contentAssets(_ item: FeedDocument.Item, into assets: inout [Asset]) {
        assets.popAll()
        // Each element read where it is (`for link in` copied every link whole).
        for index in item.enclosures.indices {
            assets.append(Asset(url: item.enclosures[index].url, type: item.enclosures[index].type, length: item.enclosures[index].length))
        }
        for index in item.links.indices where item.links[index].rel == "enclosure" {
            assets.append(Asset(url: item.links[index].url, type: item.links[index].type, length: item.links[index].length))
        }
        if item.hasLink(rel: isAcquisition), let acquisition = bestAcquisition(item.links) {
            assets.append(Asset(url: acquisition.url, type: acquisition.indirectTypes.last ?? acquisition.type, length: acquisition.length))
        }
        for media in item.mediaContents where !isImage(media) { assets.append(Asset(url: media.url, type: media.type, length: media.length)) }
        if assets.isEmpty, let image = item.mediaContents.first(where: isImage) { assets.append(Asset(url: image.url, type: image.type)) }
        guard assets.count > 1 else { return }
        // The first of each URL, in order. An item has a few: each is compared with those kept before it
        // (a set was made and hashed into for every item with two); a set only for many.
        var kept = 0
        if assets.count <= 16 {
            for index in assets.indices where !assets[..<kept].contains(where: { $0.url == assets[index].url }) {
                assets.swapAt(kept, index)
                kept += 1
            }
        } else {
            var seen: Set<LazyURL> = []
            for index in assets.indices where seen.insert(assets[index].url).inserted {
                assets.swapAt(kept, index)
                kept += 1
            }
        }
        assets.removeLast(assets.count - kept)
    }

    private static func isImage(_ content: FeedDocument.MediaContent) -> Bool {
        content.medium?.lowercased() == "image" || isPictureType(content.type)
    }

    /// Whether a file's MIME type (any case) is a picture's: an enclosure of one is a cover.
    static func isPictureType(_ type: String?) -> Bool {
        (type ?? "").lowercased().hasPrefix("image/")
    }

    /// The acquisition link to download: open access and plain acquisition before sample, then borrow,
    /// subscribe and buy; EPUB before PDF before a comic book (CBZ, CB7, CBT) before anything else. HTML pages
    /// (a shop) are not content.
    static func bestAcquisition(_ links: [FeedDocument.Link]) -> FeedDocument.Link? {
        guard links.contains(where: { isAcquisition($0.rel) }) else { return nil }
        let candidates = links.filter { link in
            guard isAcquisition(link.rel) else { return false }
            let type = (link.indirectTypes.last ?? link.type ?? "").lowercased()
            return !type.hasPrefix("text/html") && !type.hasPrefix("application/xhtml")
        }
        func relRank(_ rel: String) -> Int {
            switch rel {
            case "http://opds-spec.org/acquisition/open-access": 0
            case "http://opds-spec.org/acquisition": 1
            case "http://opds-spec.org/acquisition/borrow": 2
            case "http://opds-spec.org/acquisition/subscribe": 3
            case "http://opds-spec.org/acquisition/buy": 4
            case "http://opds-spec.org/acquisition/sample", "http://opds-spec.org/acquisition/preview": 5
            default: 6
            }
        }
        func typeRank(_ link: FeedDocument.Link) -> Int {
            let type = (link.indirectTypes.last ?? link.type ?? "").lowercased()
            if type.hasPrefix("application/epub+zip") { return 0 }
            if type.hasPrefix("application/pdf") { return 1 }
            if ["application/vnd.comicbook+zip", "application/x-cbz", "application/x-cb7", "application/x-cbt"].contains(where: type.hasPrefix) { return 2 }
            return 3
        }
        return candidates.enumerated().min { a, b in
            (relRank(a.element.rel), typeRank(a.element), a.offset) < (relRank(b.element.rel), typeRank(b.element), b.offset)
        }?.element
    }

    /// The cover: Newsstand's SOURCE icon (else the largest listed), the OPDS image (before its
    /// thumbnail), iTunes image, a Media RSS image, then a Media RSS thumbnail. `assets` are the
    /// item's `contentAssets`.
    static func cover(_ item: FeedDocument.Item, assets: [Asset]) -> LazyURL? {
        if let icon = item.coverIcons.first(where: { $0.size == "SOURCE" }) ?? item.coverIcons.max(by: { iconWidth($0.size) < iconWidth($1.size) }) {
            return icon.url
        }
        // Only links whose rel starts like one of these are compared with each.
        if item.hasLink(rel: { $0.utf8.first == UInt8(ascii: "h") || $0.utf8.first == UInt8(ascii: "x") }) {
            for rel in coverRels {
                if let link = item.links.first(where: { $0.rel == rel }) { return link.url }
            }
        }
        if let image = item.itunesImage { return image }
        if let image = item.mediaContents.first(where: isImage), !assets.contains(where: { $0.url == image.url }) { return image.url }
        if let thumbnail = item.thumbnails.first { return thumbnail }
        return item.enclosures.first { isPictureType($0.type) }?.url
    }

    private static let coverRels = ["http://opds-spec.org/image", "http://opds-spec.org/cover", "x-stanza-cover-image",
                                    "http://opds-spec.org/image/thumbnail", "http://opds-spec.org/thumbnail", "x-stanza-cover-image-thumbnail"]

    private static func iconWidth(_ size: String) -> Int {
        Int(size.split(separator: "X").first ?? "") ?? Int(size) ?? 0
    }

    static func isCatalogType(_ type: String?) -> Bool {
        guard var type else { return false }
        if type.utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) { type = type.lowercased() }
        return FeedText.contains(type, "profile=opds-catalog") || type.hasPrefix("application/atom+xml") || type.hasPrefix("application/opds+json")
    }

    /// An OPDS navigation entry's target: a link to another catalog feed (subsection, sort, or any
    /// link typed as an OPDS/Atom feed).
    static func navigationLink(_ item: FeedDocument.Item) -> FeedDocument.Link? {
        item.links.first { isCatalogType($0.type) && !isAcquisition($0.rel) && $0.rel != "self" }
    }

    /// Whether `rel` is an OPDS acquisition relation (`http://opds-spec.org/acquisition…`). Most
    /// rels (`alternate`, `enclosure`) are told apart by their first byte before `hasPrefix`.
    static func isAcquisition(_ rel: String) -> Bool {
        rel.utf8.first == UInt8(ascii: "h") && rel.hasPrefix("http://opds-spec.org/acquisition")
    }
}
