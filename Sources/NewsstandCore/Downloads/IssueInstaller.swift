import Foundation
import NewsstandContent

/// Verifies downloaded assets and installs them as an issue folder, atomically.
///
/// Archives (an EPUB or CBZ zip, a CB7, a CBT) are unpacked by `ArchiveExtractor`, whose limits and
/// refusals (paths leaving the folder, links, devices) apply to every one of them; other files (a
/// PDF) are copied in as they are.
///
/// Everything is unpacked into a staging folder beside the destination, checked, synced to disk
/// and then renamed into place in one step (the rename synced too), so an issue is never half
/// installed: a crash or a power cut leaves either the previous folder or the new one, and by the
/// time the caller marks the issue available its files are on disk.
public enum IssueInstaller {
    /// Name prefixes of the folders an install works in beside the destination (see `LibraryStore.reconcile`).
    static let stagingPrefix = ".staging-"
    static let previousPrefix = ".previous-"

    /// Installs `assets` (downloaded files, in the issue's content order) as `destination`. Returns what progress
    /// sync keeps of the first file as downloaded (its KOReader id and name), taken before anything is unpacked.
    @discardableResult
    public static func install(assets: [URL], sourceURLs: [URL], for issue: Issue, into destination: URL,
                               limits: ExtractionLimits = .default, diskSync: DiskSync = .fsync) throws -> DownloadedFileIdentity? {
        try verify(assets: assets, issue: issue)
        let identity = assets.first.flatMap { asset in
            (try? KOReaderDocumentID.partialMD5(ofFile: asset)).map {
                DownloadedFileIdentity(partialMD5: $0, fileName: String(TextSanitizer.singleLine(sourceURLs.first?.lastPathComponent ?? asset.lastPathComponent).prefix(255)))
            }
        }
        let parent = destination.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        let staging = parent.appendingPathComponent("\(stagingPrefix)\(destination.lastPathComponent)-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: staging) }
        try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)

        for (index, asset) in assets.enumerated() {
            let sourceName = index < sourceURLs.count ? sourceURLs[index].lastPathComponent : "asset-\(index)"
            if isArchive(asset) {
                do {
                    try ArchiveExtractor.extract(archive: asset, into: staging, limits: limits)
                } catch {
                    throw DownloadError("the issue archive was refused: \(error)")
                }
            } else {
                let target = staging.appendingPathComponent(PathComponent.safe(sourceName))
                try? FileManager.default.removeItem(at: target)
                try FileManager.default.copyItem(at: asset, to: target)
            }
        }
        try validateContent(in: staging)
        try diskSync.tree(staging)

        let previous = parent.appendingPathComponent("\(previousPrefix)\(destination.lastPathComponent)-\(UUID().uuidString)", isDirectory: true)
        let hadPrevious = FileManager.default.fileExists(atPath: destination.path)
        if hadPrevious { try FileManager.default.moveItem(at: destination, to: previous) }
        do {
            try FileManager.default.moveItem(at: staging, to: destination)
        } catch {
            if hadPrevious { try? FileManager.default.moveItem(at: previous, to: destination) }
            throw DownloadError("cannot install the issue: \(error.localizedDescription)")
        }
        // The new folder is in place; syncing its parent makes the rename itself durable, and the
        // grandparent the parent's own entry (it may have just been made). A failure here is not
        // worth undoing a complete install for.
        try? diskSync.sync(parent)
        try? diskSync.sync(parent.deletingLastPathComponent())
        if hadPrevious { try? FileManager.default.removeItem(at: previous) }
        return identity
    }

    /// Checks sizes and the SHA-256 the catalog gave, before anything is unpacked.
    static func verify(assets: [URL], issue: Issue) throws {
        var total: Int64 = 0
        for asset in assets {
            guard let size = FileSize.of(asset), size > 0 else { throw DownloadError("the download is empty") }
            total += size
        }
        if let expected = issue.expectedSize, expected != total {
            throw DownloadError("the download has \(total) bytes but the catalog says \(expected)")
        }
        if let expectedDigest = issue.expectedSHA256, assets.count == 1 {
            let digest = try SHA256Digest.hexDigest(ofFile: assets[0])
            if digest != expectedDigest {
                throw DownloadError("the download is damaged: its SHA-256 does not match the catalog's")
            }
        }
    }

    /// An issue folder must hold a readable EPUB, a PDF, or a comic book's page pictures.
    static func validateContent(in folder: URL) throws {
        let container = folder.appendingPathComponent("META-INF/container.xml")
        if FileManager.default.fileExists(atPath: container.path) {
            do {
                _ = try EPUBReader.open(folder: folder)
            } catch {
                throw DownloadError("the issue is not a readable EPUB: \(error)")
            }
            return
        }
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        if files.contains(where: { $0.lowercased().hasSuffix(".pdf") }) { return }
        if (try? ComicBookReader.open(folder: folder)) != nil { return }
        throw DownloadError("the download is not an EPUB, PDF or comic book (CBZ, CB7, CBT) issue")
    }

    /// Whether a downloaded file is an archive to unpack: a zip (EPUB, CBZ), a 7-Zip (CB7) or a tar (CBT),
    /// judged by its first bytes, never by its name.
    static func isArchive(_ file: URL) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: file.path) else { return false }
        defer { try? handle.close() }
        let head = [UInt8]((try? handle.read(upToCount: 262)) ?? Data())
        if head.starts(with: [0x50, 0x4B, 0x03, 0x04]) { return true }              // zip
        if head.starts(with: [0x37, 0x7A, 0xBC, 0xAF, 0x27, 0x1C]) { return true }  // 7z
        return head.count >= 262 && head[257..<262].elementsEqual("ustar".utf8)     // POSIX or GNU tar
    }

    static func isZipArchive(_ file: URL) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: file.path) else { return false }
        defer { try? handle.close() }
        let magic = (try? handle.read(upToCount: 4)) ?? Data()
        return magic == Data([0x50, 0x4B, 0x03, 0x04])
    }
}
