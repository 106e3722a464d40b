import Foundation

/// One issue of a publication, as the library knows it (like NKIssue).
public struct Issue: Sendable, Equatable, Identifiable {
    public let id: Int64
    public let publicationID: Int64
    /// The catalog's own id of the issue (Atom `id`, OPDS identifier, the plist's `Name`): unique within its
    /// publication, the key refreshes are matched by. Often a `urn:uuid:…` or a URL; people see `handle`.
    public var name: String
    /// The name people see and type (`small-engines-2026`): unique within its publication, set when the issue
    /// arrived and never changed (see `IssueHandle`).
    public var handle: String
    public var title: String
    public var date: Date
    public var summary: String
    public var coverURL: URL?
    /// One or more files that together make the issue.
    public var contentURLs: [URL]
    /// Expected size in bytes of the content, when the catalog says.
    public var expectedSize: Int64?
    /// Expected SHA-256 (lowercase hex) of the content, when the catalog says.
    public var expectedSHA256: String?
    public var state: IssueState
    /// 0…1 while downloading.
    public var progress: Double
    /// When the issue first appeared in the library.
    public var addedAt: Date
    /// When it was last opened for reading; nil for never.
    public var openedAt: Date?
    /// It arrived with a refresh after the publication was subscribed (not with the first catalog).
    public var arrivedNew: Bool
    /// Starred here or on its account's server: marked on the shelf, never removed to save space.
    public var isStarred = false

    /// Whether a cover may be drawn: the catalog's, or once the issue is downloaded, its own (a comic
    /// book's first page; see `CoverArtService`).
    public var mayHaveCover: Bool { coverURL != nil || state == .available }

    /// `handle` defaults to `name`.
    public init(id: Int64, publicationID: Int64, name: String, handle: String? = nil, title: String, date: Date, summary: String = "",
                coverURL: URL? = nil, contentURLs: [URL], expectedSize: Int64? = nil, expectedSHA256: String? = nil,
                state: IssueState = .notDownloaded, progress: Double = 0, addedAt: Date = Date(), openedAt: Date? = nil,
                arrivedNew: Bool = false) {
        self.id = id
        self.publicationID = publicationID
        self.name = name
        self.handle = handle ?? name
        self.title = title
        self.date = date
        self.summary = summary
        self.coverURL = coverURL
        self.contentURLs = contentURLs
        self.expectedSize = expectedSize
        self.expectedSHA256 = expectedSHA256
        self.state = state
        self.progress = progress
        self.addedAt = addedAt
        self.openedAt = openedAt
        self.arrivedNew = arrivedNew
    }

    /// False for issues a feed lists without content to fetch (Apple's Newsstand feeds give only metadata and covers).
    public var isDownloadable: Bool { !contentURLs.isEmpty }

    /// Arrived since the reader last looked and not opened yet: the shelf marks it NEW until it is opened.
    public var isNew: Bool { arrivedNew && openedAt == nil }
}
