import NewsstandCore

/// The acquisition links of one catalog entry to choose from (Enter on a book or issue in the catalog
/// browser): best first (`AcquisitionLink.ranked`), the chosen one downloaded into the Library shelf; before
/// them, when the entry has a page stream, a row to read its pages streamed instead.
public struct AcquisitionScreen: Equatable, Sendable {
    public let entry: CatalogEntry
    public let links: [AcquisitionLink]
    public var cursor = ListCursor()

    public init(entry: CatalogEntry) {
        self.entry = entry
        var links = entry.acquisitions
        // A feed that is not OPDS: its content links are plain downloads.
        if links.isEmpty {
            links = zip(entry.contentURLs, entry.contentURLs.indices).map { url, index in
                AcquisitionLink(url: url, kind: .acquisition, type: entry.contentTypes.indices.contains(index) ? entry.contentTypes[index] : nil,
                                size: entry.contentURLs.count == 1 ? entry.expectedSize : nil)
            }
        }
        self.links = AcquisitionLink.ranked(links)
    }

    /// The entry's pages to stream (OPDS-PSE), offered on the first row when it has them.
    public var pageStream: CatalogPageStream? { entry.pageStream }

    /// The rows: the page stream's, then one per link.
    public var rowCount: Int { links.count + (pageStream == nil ? 0 : 1) }

    /// The link on `row`; nil for the page stream's row (or none).
    public func link(atRow row: Int) -> AcquisitionLink? {
        let index = row - (pageStream == nil ? 0 : 1)
        return links.indices.contains(index) ? links[index] : nil
    }
}
