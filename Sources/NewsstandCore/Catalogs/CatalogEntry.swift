import Foundation

/// One issue as a publisher's catalog describes it, before it is in the library.
///
/// Its links are kept as a feed gives them (`LazyURL`) and parsed into `URL`s only when
/// `coverURL` or `contentURLs` is read: the library stores their text (`coverURLText`,
/// `contentURLsText`), so a refresh parses none of them.
///
/// A value like any struct, its fields held in one shared object that a change copies first when another
/// value holds it too (copy on write, as `Array` does). A feed makes thousands of entries: held inline, each
/// entry's dozen references were each retained when it was moved into the feed's array and released when
/// the temporary it was built in went (`Date` and `URL` are resilient, so the entry could not be moved in
/// registers: it was copied), an atomic operation each and a third of the reference counting of reading a
/// feed. Now making one is one allocation, and copying or moving it one reference.
public struct CatalogEntry: Sendable, Equatable, CustomStringConvertible {
    /// The fields. Changed only through `uniqueFields()`, when no other entry holds them: shared ones are
    /// only read, from any thread (hence `@unchecked Sendable`), and no access overlaps another (so the
    /// dynamic exclusivity checks, which every access to a class's field pays, are off).
    private final class Fields: @unchecked Sendable {
        @exclusivity(unchecked) var name: String
        @exclusivity(unchecked) var title: String
        @exclusivity(unchecked) var date: Date
        @exclusivity(unchecked) var summary: String
        @exclusivity(unchecked) var coverLink: LazyURL?
        /// The first content link, kept apart: nearly every entry has one, and an array of one was an allocation for each.
        @exclusivity(unchecked) var firstContentLink: LazyURL?
        /// The content links after the first (empty, with no storage, for most entries).
        @exclusivity(unchecked) var moreContentLinks: [LazyURL]
        @exclusivity(unchecked) var expectedSize: Int64?
        @exclusivity(unchecked) var expectedSHA256: String?
        @exclusivity(unchecked) var contentTypes: [String]
        @exclusivity(unchecked) var acquisitions: [AcquisitionLink]
        @exclusivity(unchecked) var contentLengths: [Int64?]
        @exclusivity(unchecked) var pageStream: CatalogPageStream?

        init(name: String, title: String, date: Date, summary: String, coverLink: LazyURL?, firstContentLink: LazyURL?,
             moreContentLinks: [LazyURL], expectedSize: Int64?, expectedSHA256: String?, contentTypes: [String],
             acquisitions: [AcquisitionLink], contentLengths: [Int64?], pageStream: CatalogPageStream?) {
            self.name = name
            self.title = title
            self.date = date
            self.summary = summary
            self.coverLink = coverLink
            self.firstContentLink = firstContentLink
            self.moreContentLinks = moreContentLinks
            self.expectedSize = expectedSize
            self.expectedSHA256 = expectedSHA256
            self.contentTypes = contentTypes
            self.acquisitions = acquisitions
            self.contentLengths = contentLengths
            self.pageStream = pageStream
        }

        /// The content links in order.
        var contentLinks: [LazyURL] {
            get { firstContentLink.map { [$0] + moreContentLinks } ?? [] }
            set {
                firstContentLink = newValue.first
                moreContentLinks = newValue.count > 1 ? Array(newValue.dropFirst()) : []
            }
        }

        func copy() -> Fields {
            Fields(name: name, title: title, date: date, summary: summary, coverLink: coverLink, firstContentLink: firstContentLink,
                   moreContentLinks: moreContentLinks, expectedSize: expectedSize, expectedSHA256: expectedSHA256,
                   contentTypes: contentTypes, acquisitions: acquisitions, contentLengths: contentLengths, pageStream: pageStream)
        }

        func equals(_ other: Fields) -> Bool {
            name == other.name && title == other.title && date == other.date && summary == other.summary
                && coverLink == other.coverLink && firstContentLink == other.firstContentLink
                && moreContentLinks == other.moreContentLinks && expectedSize == other.expectedSize
                && expectedSHA256 == other.expectedSHA256 && contentTypes == other.contentTypes
                && acquisitions == other.acquisitions && contentLengths == other.contentLengths && pageStream == other.pageStream
        }
    }

    private var fields: Fields

    /// The fields, copied first when another entry holds them too.
    @inline(__always)
    private mutating func uniqueFields() -> Fields {
        if !isKnownUniquelyReferenced(&fields) { fields = fields.copy() }
        return fields
    }

    public var name: String {
        get { fields.name }
        _modify { yield &uniqueFields().name }
    }

    public var title: String {
        get { fields.title }
        _modify { yield &uniqueFields().title }
    }

    public var date: Date {
        get { fields.date }
        _modify { yield &uniqueFields().date }
    }

    public var summary: String {
        get { fields.summary }
        _modify { yield &uniqueFields().summary }
    }

    var coverLink: LazyURL? {
        get { fields.coverLink }
        _modify { yield &uniqueFields().coverLink }
    }

    var contentLinks: [LazyURL] {
        get { fields.contentLinks }
        set { uniqueFields().contentLinks = newValue }
    }

    public var expectedSize: Int64? {
        get { fields.expectedSize }
        _modify { yield &uniqueFields().expectedSize }
    }

    public var expectedSHA256: String? {
        get { fields.expectedSHA256 }
        _modify { yield &uniqueFields().expectedSHA256 }
    }

    /// The media type of each content URL when the feed gives it (`application/epub+zip`), else empty.
    /// For an OPDS acquisition through `opds:indirectAcquisition`, the innermost (final) type.
    public var contentTypes: [String] {
        get { fields.contentTypes }
        _modify { yield &uniqueFields().contentTypes }
    }

    /// Every OPDS acquisition link of the entry, as the catalog lists them (for acquiring one title from
    /// the browser; `AcquisitionLink.ranked` orders them). Not stored in the library.
    public var acquisitions: [AcquisitionLink] {
        get { fields.acquisitions }
        _modify { yield &uniqueFields().acquisitions }
    }

    /// The size of each content URL as the feed states it (`length`), for showing; empty when it gives none.
    /// Unlike `expectedSize`, it bounds no download.
    public var contentLengths: [Int64?] {
        get { fields.contentLengths }
        _modify { yield &uniqueFields().contentLengths }
    }

    /// The book's pages as an OPDS-PSE stream, when the catalog offers one.
    public var pageStream: CatalogPageStream? {
        get { fields.pageStream }
        _modify { yield &uniqueFields().pageStream }
    }

    public var coverURL: URL? {
        get { coverLink?.url }
        set { coverLink = newValue.map(LazyURL.init) }
    }

    public var contentURLs: [URL] {
        get { contentLinks.map(\.url) }
        set { contentLinks = newValue.map(LazyURL.init) }
    }

    /// `coverURL?.absoluteString`, without parsing the URL.
    public var coverURLText: String? { fields.coverLink?.absoluteString }

    /// `contentURLs.map(\.absoluteString)`, without parsing the URLs.
    public var contentURLTexts: [String] {
        guard let first = fields.firstContentLink else { return [] }
        return [first.absoluteString] + fields.moreContentLinks.map(\.absoluteString)
    }

    /// `contentURLTexts` one a line, as the library stores them: for the usual one link its text, with no array
    /// made on the way.
    public var contentURLsText: String {
        guard let first = fields.firstContentLink else { return "" }
        let more = fields.moreContentLinks
        return more.isEmpty ? first.absoluteString : contentURLTexts.joined(separator: "\n")
    }

    /// Every field, as a struct holding them inline would print them (what tests compare feeds by).
    public var description: String {
        "CatalogEntry(name: \(String(reflecting: name)), title: \(String(reflecting: title)), date: \(date), "
            + "summary: \(String(reflecting: summary)), coverURL: \(String(describing: coverURLText)), contentURLs: \(contentURLTexts), "
            + "expectedSize: \(String(describing: expectedSize)), expectedSHA256: \(String(describing: expectedSHA256)), "
            + "contentTypes: \(contentTypes), acquisitions: \(acquisitions), contentLengths: \(contentLengths), "
            + "pageStream: \(String(describing: pageStream)))"
    }

    public static func == (lhs: CatalogEntry, rhs: CatalogEntry) -> Bool {
        lhs.fields === rhs.fields || lhs.fields.equals(rhs.fields)
    }

    public init(name: String, title: String, date: Date, summary: String = "", coverURL: URL? = nil,
                contentURLs: [URL], expectedSize: Int64? = nil, expectedSHA256: String? = nil, contentTypes: [String] = []) {
        self.init(name: name, title: title, date: date, summary: summary, coverLink: coverURL.map(LazyURL.init),
                  contentLinks: contentURLs.map(LazyURL.init), expectedSize: expectedSize, expectedSHA256: expectedSHA256,
                  contentTypes: contentTypes)
    }

    /// Every field a feed gives at once (a feed reader makes thousands): the content links as the first and the rest.
    init(name: String, title: String, date: Date, summary: String, coverLink: LazyURL?, firstContentLink: LazyURL?,
         moreContentLinks: [LazyURL], contentTypes: [String], acquisitions: [AcquisitionLink], contentLengths: [Int64?],
         pageStream: CatalogPageStream?) {
        fields = Fields(name: name, title: title, date: date, summary: summary, coverLink: coverLink, firstContentLink: firstContentLink,
                        moreContentLinks: moreContentLinks,
                        expectedSize: nil, expectedSHA256: nil, contentTypes: contentTypes, acquisitions: acquisitions,
                        contentLengths: contentLengths, pageStream: pageStream)
    }

    init(name: String, title: String, date: Date, summary: String = "", coverLink: LazyURL?, contentLinks: [LazyURL],
         expectedSize: Int64? = nil, expectedSHA256: String? = nil, contentTypes: [String] = []) {
        fields = Fields(name: name, title: title, date: date, summary: summary, coverLink: coverLink, firstContentLink: contentLinks.first,
                        moreContentLinks: Array(contentLinks.dropFirst()), expectedSize: expectedSize, expectedSHA256: expectedSHA256,
                        contentTypes: contentTypes, acquisitions: [], contentLengths: [], pageStream: nil)
    }
}
