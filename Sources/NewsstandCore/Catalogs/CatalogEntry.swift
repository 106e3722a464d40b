import Foundation

/// One issue as a publisher's catalog describes it, before it is in the library.
public struct CatalogEntry: Sendable, Equatable {
    public var name: String
    public var title: String
    public var date: Date
    public var summary: String
    public var coverURL: URL?
    public var contentURLs: [URL]
    public var expectedSize: Int64?
    public var expectedSHA256: String?
    /// The media type of each content URL when the feed gives it (`application/epub+zip`), else empty.
    /// For an OPDS acquisition through `opds:indirectAcquisition`, the innermost (final) type.
    public var contentTypes: [String]

    public init(name: String, title: String, date: Date, summary: String = "", coverURL: URL? = nil,
                contentURLs: [URL], expectedSize: Int64? = nil, expectedSHA256: String? = nil, contentTypes: [String] = []) {
        self.name = name
        self.title = title
        self.date = date
        self.summary = summary
        self.coverURL = coverURL
        self.contentURLs = contentURLs
        self.expectedSize = expectedSize
        self.expectedSHA256 = expectedSHA256
        self.contentTypes = contentTypes
    }
}
