import Foundation

/// Measures and removes installed issues on disk.
public struct IssueStorage: Sendable {
    public let store: LibraryStore
    public let paths: LibraryPaths

    public init(store: LibraryStore, paths: LibraryPaths) {
        self.store = store
        self.paths = paths
    }

    /// Bytes an installed issue takes on disk (0 when it has no folder).
    public func size(of issue: Issue, in publication: Publication) -> Int64 {
        let folder = paths.folder(for: issue, of: publication)
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.fileSizeKey, .isRegularFileKey]) else { return 0 }
        var total: Int64 = 0
        for case let file as URL in walker {
            let values = try? file.resourceValues(forKeys: [.fileSizeKey, .isRegularFileKey])
            if values?.isRegularFile == true { total += Int64(values?.fileSize ?? 0) }
        }
        return total
    }

    /// Removes an issue's files; it goes back to TAP TO DOWNLOAD and can be downloaded again at any time.
    public func evict(_ issue: Issue, of publication: Publication) throws {
        try store.setState(.notDownloaded, issueID: issue.id)
        let folder = paths.folder(for: issue, of: publication)
        if FileManager.default.fileExists(atPath: folder.path) { try FileManager.default.removeItem(at: folder) }
    }

    /// Removes a publication, its issues from the library, and their files.
    public func removePublication(_ publication: Publication) throws {
        try store.removePublication(id: publication.id)
        let folder = paths.issuesDirectory.appendingPathComponent(PathComponent.safe(publication.name), isDirectory: true)
        if FileManager.default.fileExists(atPath: folder.path) { try FileManager.default.removeItem(at: folder) }
    }
}
