import NewsstandCore

/// The acquisition links of one catalog entry to choose from (Enter on a book or issue in the catalog
/// browser): best first (`AcquisitionLink.ranked`), the chosen one downloaded into the Library shelf.
public struct AcquisitionChoice: Equatable, Sendable {
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
}
