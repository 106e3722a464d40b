import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Makes what was written survive a power cut, not only a crash of the process: `fsync(2)` on files
/// and on the folders that name them.
///
/// A process that dies leaves its writes in the kernel's page cache, where the next run finds them; a
/// machine that loses power keeps only what was synced. Installs use it so an issue is never marked
/// available while its files are still only in memory.
public struct DiskSync: Sendable {
    /// Syncs one file or folder (a folder's sync makes the names created or renamed in it durable).
    public let sync: @Sendable (URL) throws -> Void

    public init(sync: @escaping @Sendable (URL) throws -> Void) {
        self.sync = sync
    }

    /// The real thing: `fsync(2)`. A file system that cannot sync a kind of file (EINVAL, ENOTSUP, as
    /// some network and virtual ones answer for folders) has nothing more to offer, which is not an error.
    public static let fsync = DiskSync { url in
        let fd = open(url.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw DownloadError("cannot open \(url.lastPathComponent) to save it: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        #if canImport(Glibc)
        let synced = Glibc.fsync(fd)
        #else
        let synced = Darwin.fsync(fd)
        #endif
        guard synced == 0 || errno == EINVAL || errno == ENOTSUP else { throw DownloadError("cannot save \(url.lastPathComponent) to disk: \(String(cString: strerror(errno)))") }
    }

    /// Syncs every file and folder under `folder`, deepest first, then `folder` itself.
    public func tree(_ folder: URL) throws {
        let keys: [URLResourceKey] = [.isRegularFileKey, .isDirectoryKey, .isSymbolicLinkKey]
        let items = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: keys)?.compactMap { $0 as? URL } ?? []
        for item in items.reversed() {
            let values = try item.resourceValues(forKeys: Set(keys))
            guard values.isSymbolicLink != true, values.isRegularFile == true || values.isDirectory == true else { continue }
            try sync(item)
        }
        try sync(folder)
    }
}
