import Foundation

/// One way a catalog offers a book or issue (an OPDS acquisition link): what kind of acquisition it
/// is, the file's format and size, and whether Newsstand follows it.
///
/// Only open-access and plain acquisition are followed; borrowing, buying, samples and subscriptions
/// are told apart and say what they are (`description`), never fetched.
public struct AcquisitionLink: Equatable, Sendable {
    /// What the link's `rel` says the acquisition is.
    public enum Kind: String, Equatable, Sendable {
        case openAccess = "open access"
        case acquisition = "download"
        case borrow
        case buy
        case sample
        case subscribe = "subscription"

        /// From an OPDS `rel` (`http://opds-spec.org/acquisition/…`); nil for anything else.
        public init?(rel: String) {
            switch rel {
            case "http://opds-spec.org/acquisition/open-access": self = .openAccess
            case "http://opds-spec.org/acquisition": self = .acquisition
            case "http://opds-spec.org/acquisition/borrow": self = .borrow
            case "http://opds-spec.org/acquisition/buy": self = .buy
            case "http://opds-spec.org/acquisition/sample", "http://opds-spec.org/acquisition/preview": self = .sample
            case "http://opds-spec.org/acquisition/subscribe": self = .subscribe
            default: return nil
            }
        }

        /// Whether Newsstand downloads through links of this kind.
        public var isFollowed: Bool { self == .openAccess || self == .acquisition }
    }

    var link: LazyURL
    public var kind: Kind
    /// The file's media type: the innermost `opds:indirectAcquisition` type, else the link's.
    public var type: String?
    /// The file's size in bytes when the catalog gives it (`length`).
    public var size: Int64?

    public var url: URL { link.url }

    public init(url: URL, kind: Kind, type: String?, size: Int64? = nil) {
        self.init(link: LazyURL(url), kind: kind, type: type, size: size)
    }

    init(link: LazyURL, kind: Kind, type: String?, size: Int64?) {
        self.link = link
        self.kind = kind
        self.type = type
        self.size = size
    }

    /// The acquisition links among a feed item's links, as the feed lists them.
    static func all(in links: [FeedDocument.Link]) -> [AcquisitionLink] {
        links.compactMap { link in
            guard let kind = Kind(rel: link.rel) else { return nil }
            let size = link.length.flatMap { Int64($0.trimmingCharacters(in: .whitespaces)) }.flatMap { $0 > 0 ? $0 : nil }
            return AcquisitionLink(link: link.url, kind: kind, type: link.indirectTypes.last ?? link.type, size: size)
        }
    }

    /// The format in a word: EPUB, PDF, CBZ, CB7, CBT, else the type's or file's own name.
    public var format: String {
        let type = (type ?? "").split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        switch type {
        case "application/epub+zip": return "EPUB"
        case "application/pdf", "application/x-pdf": return "PDF"
        case "application/vnd.comicbook+zip", "application/x-cbz": return "CBZ"
        case "application/x-cb7", "application/vnd.comicbook+7z": return "CB7"
        case "application/x-cbt", "application/vnd.comicbook+tar": return "CBT"
        case "application/x-mobipocket-ebook": return "MOBI"
        case "application/vnd.amazon.ebook", "application/x-mobi8-ebook": return "AZW3"
        default: break
        }
        let path = link.absoluteString.split(separator: "?").first.map(String.init) ?? ""
        let name = path.split(separator: "/").last.map(String.init) ?? ""
        if let dot = name.lastIndex(of: "."), name.index(after: dot) < name.endIndex {
            return String(name[name.index(after: dot)...]).uppercased()
        }
        return type.isEmpty ? "unknown format" : type
    }

    /// Whether Newsstand reads the file (by its type, else its name).
    public var isReadable: Bool { ContentKind.of(type: type, link: link.absoluteString) == .readable }

    /// Whether choosing it downloads it: a followed kind, and a file that is not audio, video or another kind of thing.
    public var isDownloadable: Bool { kind.isFollowed && !ContentKind.of(type: type, link: link.absoluteString).isOther }

    /// One line for a choice: "EPUB · 2.1 MB · open access", "PDF · buy: not followed".
    public var description: String {
        var parts = [format]
        if let size { parts.append(HTTPError.size(size)) }
        if !kind.isFollowed {
            parts.append("\(kind.rawValue): not followed (Newsstand only downloads open-access and plain acquisition links)")
        } else if !isDownloadable {
            parts.append("\(kind.rawValue), but not a format Newsstand reads")
        } else {
            parts.append(kind.rawValue)
        }
        return parts.joined(separator: " · ")
    }

    /// The links in the order to offer them: downloadable first (readable here, then EPUB, PDF, CBZ, the
    /// rest), then those Newsstand does not follow; ties in the catalog's order.
    public static func ranked(_ links: [AcquisitionLink]) -> [AcquisitionLink] {
        func formatRank(_ link: AcquisitionLink) -> Int {
            switch link.format {
            case "EPUB": 0
            case "PDF": 1
            case "CBZ": 2
            case "CB7", "CBT": 3
            default: link.isReadable ? 4 : 5
            }
        }
        func kindRank(_ link: AcquisitionLink) -> Int {
            if link.isDownloadable { return link.isReadable ? 0 : 1 }
            return link.kind.isFollowed ? 2 : 3
        }
        return links.enumerated().sorted { a, b in
            (kindRank(a.element), formatRank(a.element), a.offset) < (kindRank(b.element), formatRank(b.element), b.offset)
        }.map(\.element)
    }
}
