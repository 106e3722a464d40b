import Foundation

/// Where a feed or catalog was read from, and so which of its references Newsstand follows.
///
/// A document fetched over http or https reaches only the network: its references are followed to http
/// and https, never to a file on this machine. A catalog the person subscribed to by path or `file://` URL
/// may also point to files, but only below its own folder (the file the person named may be anywhere).
/// Every other scheme (`ftp:`, `data:`, `javascript:`, `smb:`, a `file:` on another host…) is refused from
/// either. Every fetch, copy or hand-off of a reference read from a document asks its origin first
/// (`ResourceFetcher`, `CoverFileCache`, `AssetTransfer`, and `Feed.keepingReferences(admittedBy:)` for the
/// links a page offers to follow), so a refused reference is refused the same way wherever it goes.
public struct DocumentOrigin: Sendable, Hashable, CustomStringConvertible {
    /// The folder (standardised, symbolic links resolved) a local catalog's files must stay within; nil for a
    /// document from the network.
    public let localFolder: String?

    /// A document fetched over http or https (or from anywhere that is not a file): http and https only.
    public static let network = DocumentOrigin(localFolder: nil)

    private init(localFolder: String?) {
        self.localFolder = localFolder
    }

    /// The origin of the references in the document at `url`: a file's folder for a local file, else the network.
    public init(documentURL url: URL) {
        if url.scheme?.lowercased() == "file", Self.isLocalHost(url.host) {
            self.init(localFolder: Self.canonicalPath(url.deletingLastPathComponent().path))
        } else {
            self.init(localFolder: nil)
        }
    }

    /// The origin of a publication's feed and its issues: the catalog it was subscribed through (its root when
    /// it was chosen from a catalog), so a feed chosen below a local catalog may use the catalog's whole folder.
    public init(of publication: Publication) {
        self.init(documentURL: publication.catalogRoot ?? publication.feedURL)
    }

    /// Why `url` is not followed from a document of this origin, in plain words; nil when it is.
    public func refusal(of url: URL) -> String? {
        let scheme = url.scheme?.lowercased() ?? ""
        switch scheme {
        case "http", "https":
            return nil
        case "file":
            guard let localFolder else { return Self.pointsToLocalFile }
            guard Self.isLocalHost(url.host) else { return "the feed points to a file on another machine" }
            let path = Self.canonicalPath(url.path)
            if path == localFolder || path.hasPrefix(localFolder == "/" ? "/" : localFolder + "/") { return nil }
            return "the feed points to a local file outside its folder"
        case "":
            return "the feed points to something that is not a link"
        default:
            // A parsed scheme holds only letters, digits, `+`, `-` and `.`.
            return "the feed points to an address of another kind (\(scheme.prefix(20)):); only http and https are followed"
        }
    }

    /// Whether `url` is followed from a document of this origin.
    public func admits(_ url: URL) -> Bool { refusal(of: url) == nil }

    /// `url` when it is followed from a document of this origin; else a `FetchError` saying why not.
    @discardableResult
    public func check(_ url: URL) throws -> URL {
        if let refusal = refusal(of: url) { throw FetchError(refusal) }
        return url
    }

    public var description: String { localFolder.map { "a local catalog in \($0)" } ?? "the network" }

    /// What a document from the network says when it names a file on this machine.
    public static let pointsToLocalFile = "the feed points to a local file"

    /// `path` made absolute and standard (`.` and `..` taken out), with symbolic links resolved, so
    /// `folder/../elsewhere` and a link out of the folder are seen for where they lead. Links are resolved in the
    /// deepest part of the path that exists (a file not there yet has none of its own), so a folder reached through
    /// a link and a missing file inside it are compared alike.
    static func canonicalPath(_ path: String) -> String {
        var existing = URL(fileURLWithPath: path).standardizedFileURL
        var missing: [String] = []
        while !FileManager.default.fileExists(atPath: existing.path), existing.path != "/" {
            missing.insert(existing.lastPathComponent, at: 0)
            existing.deleteLastPathComponent()
        }
        var resolved = existing.resolvingSymlinksInPath()
        for component in missing { resolved.appendPathComponent(component) }
        let standard = resolved.path
        return standard.count > 1 && standard.hasSuffix("/") ? String(standard.dropLast()) : standard
    }

    private static func isLocalHost(_ host: String?) -> Bool {
        guard let host, !host.isEmpty else { return true }
        return host.lowercased() == "localhost"
    }
}

