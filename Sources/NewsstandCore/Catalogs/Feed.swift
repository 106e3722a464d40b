import Foundation

/// The kinds of publication feed `FeedParser` reads, named by what the content is (never by file name).
public enum FeedFormat: String, Sendable, CaseIterable {
    /// The seed's property-list catalog (XML or binary), read by `CatalogParser`.
    case propertyList = "plist"
    /// RSS 2.0, and RSS 0.9x / 1.0 (RDF).
    case rss
    /// Atom 1.0 (and 0.3).
    case atom
    /// OPDS 1.x: an Atom feed with `http://opds-spec.org/...` links or `profile=opds-catalog` types.
    case opds1 = "opds"
    /// OPDS 2.0 JSON.
    case opds2
    /// Apple's Newsstand Atom feed (`news:` namespace http://itunes.apple.com/2011/Newsstand).
    case newsstandAtom = "newsstand-atom"
}

/// A feed item without a readable issue to download: shown as a headline, never as an issue. A
/// podcast's episode is one, its audio or video file in `mediaURL` (for a player, never queued).
public struct Headline: Sendable, Equatable {
    public var title: String
    public var link: URL?
    public var date: Date?
    public var summary: String
    /// The item's file that is not an issue (audio, video, …), when it has one.
    public var mediaURL: URL?
    /// What that file is, in plain words ("audio (audio/mpeg)").
    public var mediaKind: String?
    /// The item's text as HTML (its content, else its summary), read as an article; empty when the feed
    /// gave only plain text (then `summary` is the article). Never shown without `XHTMLDocumentParser`.
    public var body: String
    /// The item's id on its account's server, for a headline from an account (its read and starred states go there).
    public var serverItem: ServerItemID?
    /// What the library knows it by across refreshes (``HeadlineKey``); set when read from the library.
    public var key: String?
    /// Read here or on its account's server (opening it reads it; `N` toggles it).
    public var isRead = false
    /// Starred (`*`): kept whatever `max-headlines` says, until unstarred.
    public var isStarred = false
    /// Arrived with a refresh after the publication's first, and not read yet.
    public var isNew = false

    public init(title: String, link: URL? = nil, date: Date? = nil, summary: String = "", mediaURL: URL? = nil, mediaKind: String? = nil,
                body: String = "", serverItem: ServerItemID? = nil) {
        self.title = title
        self.link = link
        self.date = date
        self.summary = summary
        self.mediaURL = mediaURL
        self.mediaKind = mediaKind
        self.body = body
        self.serverItem = serverItem
    }
}

/// An OPDS navigation entry (or OPDS 2 navigation / catalog link): another feed to browse.
public struct NavigationLink: Sendable, Equatable {
    public var title: String
    public var url: URL
    public var summary: String
    /// The link's relation (`http://opds-spec.org/sort/new`, `subsection`…), empty when it has none.
    public var rel: String = ""
    /// The target says it is an acquisition feed (`kind=acquisition`): a list of books, not more navigation.
    public var isAcquisitionFeed = false

    public init(title: String, url: URL, summary: String = "") {
        self.title = title
        self.url = url
        self.summary = summary
    }
}

/// A parsed feed of any format: its issues, headlines, navigation links, the next page, and what was skipped.
public struct Feed: Sendable, Equatable {
    public var format: FeedFormat
    /// The publication's title when the feed names it.
    public var title: String?
    /// Items with downloadable content: the publication's issues.
    public var entries: [CatalogEntry]
    /// Items without downloadable content.
    public var headlines: [Headline]
    /// Links to other feeds (OPDS navigation), for a browser view.
    public var navigation: [NavigationLink]
    /// The next page of a paginated feed (`rel="next"`), when there is one.
    public var nextPage: URL?
    /// Plain-words reasons for items that were skipped.
    public var problems: [String]
    /// How the catalog is searched, when it says (OpenSearch, OPDS 2 `search`).
    public var search: CatalogSearchLink?
    /// Other views of this feed (OPDS facets), in feed order.
    public var facets: [CatalogFacet] = []
    /// The catalog's root (`rel="start"`), when the feed names it.
    public var start: URL?

    public init(format: FeedFormat, title: String? = nil, entries: [CatalogEntry] = [], headlines: [Headline] = [],
                navigation: [NavigationLink] = [], nextPage: URL? = nil, problems: [String] = []) {
        self.format = format
        self.title = title
        self.entries = entries
        self.headlines = headlines
        self.navigation = navigation
        self.nextPage = nextPage
        self.problems = problems
    }

    /// The issues as a `Catalog` (what `LibraryStore` and the refresher work with).
    public var catalog: Catalog { Catalog(title: title, entries: entries, problems: problems) }
}
