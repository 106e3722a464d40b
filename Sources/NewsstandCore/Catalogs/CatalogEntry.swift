import Foundation

/// One issue as a publisher's catalog describes it, before it is in the library.
///
/// Its links are kept as a feed gives them (`LazyURL`) and parsed into `URL`s only when
/// `coverURL` or `contentURLs` is read: the library stores their text (`coverURLText`,
/// `contentURLTexts`), so a refresh parses none of them.
public struct CatalogEntry: Sendable, Equatable {
    public var name: String
    public var title: String
    public var date: Date
    public var summary: String
    var coverLink: LazyURL?
    var contentLinks: [LazyURL]
    public var expectedSize: Int64?
    public var expectedSHA256: String?
    /// The media type of each content URL when the feed gives it (`application/epub+zip`), else empty.
    /// For an OPDS acquisition through `opds:indirectAcquisition`, the innermost (final) type.
    public var contentTypes: [String]
    /// Every OPDS acquisition link of the entry, as the catalog lists them (for acquiring one title from
    /// the browser; `AcquisitionLink.ranked` orders them). Not stored in the library.
    public var acquisitions: [AcquisitionLink] = []
    /// The size of each content URL as the feed states it (`length`), for showing; empty when it gives none.
    /// Unlike `expectedSize`, it bounds no download.
    public var contentLengths: [Int64?] = []
    /// The book's pages as an OPDS-PSE stream, when the catalog offers one.
    public var pageStream: CatalogPageStream?

    public var coverURL: URL? {
        get { coverLink?.url }
        set { coverLink = newValue.map(LazyURL.init) }
    }

    public var contentURLs: [URL] {
        get { contentLinks.map(\.url) }
        set { contentLinks = newValue.map(LazyURL.init) }
    }

    /// `coverURL?.absoluteString`, without parsing the URL.
    public var coverURLText: String? { coverLink?.absoluteString }

    /// `contentURLs.map(\.absoluteString)`, without parsing the URLs.
    public var contentURLTexts: [String] { contentLinks.map(\.absoluteString) }

    public init(name: String, title: String, date: Date, summary: String = "", coverURL: URL? = nil,
                contentURLs: [URL], expectedSize: Int64? = nil, expectedSHA256: String? = nil, contentTypes: [String] = []) {
        self.init(name: name, title: title, date: date, summary: summary, coverLink: coverURL.map(LazyURL.init),
                  contentLinks: contentURLs.map(LazyURL.init), expectedSize: expectedSize, expectedSHA256: expectedSHA256,
                  contentTypes: contentTypes)
    }

    /// Every field a feed gives at once (a feed reader makes thousands: set one by one after, each was a copy).
    init(name: String, title: String, date: Date, summary: String, coverLink: LazyURL?, contentLinks: [LazyURL], contentTypes: [String],
         acquisitions: [AcquisitionLink], contentLengths: [Int64?], pageStream: CatalogPageStream?) {
        self.name = name
        self.title = title
        self.date = date
        self.summary = summary
        self.coverLink = coverLink
        self.contentLinks = contentLinks
        self.contentTypes = contentTypes
        self.acquisitions = acquisitions
        self.contentLengths = contentLengths
        self.pageStream = pageStream
    }

    init(name: String, title: String, date: Date, summary: String = "", coverLink: LazyURL?, contentLinks: [LazyURL],
         expectedSize: Int64? = nil, expectedSHA256: String? = nil, contentTypes: [String] = []) {
        self.name = name
        self.title = title
        self.date = date
        self.summary = summary
        self.coverLink = coverLink
        self.contentLinks = contentLinks
        self.expectedSize = expectedSize
        self.expectedSHA256 = expectedSHA256
        self.contentTypes = contentTypes
    }
}
