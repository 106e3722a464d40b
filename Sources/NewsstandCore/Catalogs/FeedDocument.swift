import Foundation

extension Array {
    /// `removeAll(keepingCapacity: true)` for the few elements a feed item's arrays hold: each popped off the end
    /// (the general `removeAll` went through `replaceSubrange`, dearer than the elements themselves). An empty
    /// array is left alone (emptying one "keeping its capacity" gave it storage).
    @inline(__always)
    mutating func popAll() {
        while popLast() != nil {}
    }
}

/// What an XML feed (RSS, RDF, Atom, OPDS 1, Newsstand Atom) says, before it is mapped onto issues
/// and headlines, as `XMLFeedReader` reads it in one streaming pass (namespace-aware, resolving `xml:base`).
/// An item's links are `LazyURL`s, parsed only when used. When the reader hands each item to a
/// `FeedAssembler` as it ends, `items` stays empty and only `itemCount` counts them.
struct FeedDocument {
    var rootName = ""
    var title: String?
    var id: String?
    var link: URL?
    var image: URL?
    var published: Date?
    var updated: Date?
    var nextPage: URL?
    var search: CatalogSearchLink?
    var facets: [CatalogFacet] = []
    var start: URL?
    var items: [Item] = []
    /// Items read, whether kept in `items` or handed on.
    var itemCount = 0
    var sawOPDS = false
    var sawNewsstand = false

    struct Link: Equatable {
        var url: LazyURL
        var rel: String
        var type: String?
        var length: String?
        var title: String?
        /// `opds:indirectAcquisition` types, outermost first.
        var indirectTypes: [String] = []
    }

    struct MediaContent: Equatable {
        var url: LazyURL
        var type: String?
        var medium: String?
        var length: String?
    }

    struct Item {
        var id: String?
        /// RSS 1.0 `rdf:about`, the identifier when there is no other.
        var about: String?
        var title: String?
        var alternateTitle: String?
        var link: LazyURL?
        var guidLink: LazyURL?
        var published: Date?
        var updated: Date?
        var created: Date?
        /// `dcterms:issued`: in OPDS the book's own publication date, so it ranks after `updated`.
        var issued: Date?
        var expired: Date?
        var endDate: Date?
        var summary: String?
        var alternateSummary: String?
        var content: String?
        /// The HTML of `content`, else of `summary`, as the feed gave it (when it was HTML): a headline's
        /// article. At most `XMLFeedReader.markupLimit` bytes.
        var markup: String?
        var links: [Link] = []
        var enclosures: [MediaContent] = []
        var mediaContents: [MediaContent] = []
        var thumbnails: [LazyURL] = []
        var itunesImage: LazyURL?
        /// An OPDS-PSE page stream.
        var pageStream: CatalogPageStream?
        /// `news:cover_art_icon`: size and URL.
        var coverIcons: [(size: String, url: LazyURL)] = []

        /// Empties the item for the next one, as `Item()` but keeping its arrays' storage (a feed's items
        /// carry the same few links, enclosures and thumbnails each).
        /// A field is set to nil only when it holds something: most are empty by now (the assembler takes an issue's
        /// texts out), and an empty one then costs no call to release what it held.
        mutating func clear() {
            Self.empty(&id); Self.empty(&about); Self.empty(&title); Self.empty(&alternateTitle); Self.empty(&link)
            Self.empty(&guidLink)
            published = nil; updated = nil; created = nil; issued = nil; expired = nil; endDate = nil
            Self.empty(&summary); Self.empty(&alternateSummary); Self.empty(&content); Self.empty(&markup)
            // An empty array is left alone: emptying one "keeping its capacity" gave it storage.
            links.popAll()
            enclosures.popAll()
            mediaContents.popAll()
            thumbnails.popAll()
            Self.empty(&itunesImage); Self.empty(&pageStream)
            coverIcons.popAll()
        }

        @inline(__always)
        private static func empty<Value>(_ field: inout Value?) {
            if field != nil { field = nil }
        }

        /// Whether one of the links has a `rel` that passes `test`, each looked at where it is (`links.contains(where:)`
        /// copied every link, and destroyed the copy, to look at its `rel`).
        func hasLink(rel test: (String) -> Bool) -> Bool {
            for index in links.indices where test(links[index].rel) { return true }
            return false
        }
    }
}
