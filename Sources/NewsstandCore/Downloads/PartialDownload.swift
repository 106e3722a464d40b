import Foundation
#if canImport(Glibc)
import Glibc
private let systemWrite = Glibc.write
private let systemClose = Glibc.close
#elseif canImport(Darwin)
import Darwin
private let systemWrite = Darwin.write
private let systemClose = Darwin.close
#endif

/// What is known about a partial download, kept in a small JSON sidecar next to the partial file
/// (`partial/ISSUE-ASSET.part.json`). It is written and fsynced before the first byte of data, so a
/// partial file on disk always says which representation its bytes belong to.
struct PartialMetadata: Codable, Equatable {
    /// The URL the bytes come from.
    var url: String
    /// The response's strong ETag, else its Last-Modified (http); size and modification time (file).
    var validator: String?
    /// The whole asset's length in bytes, when the server said.
    var length: Int64?
}

/// Reading and writing partial files and their sidecars.
enum PartialDownload {
    static func sidecar(of partial: URL) -> URL {
        partial.appendingPathExtension("json")
    }

    static func metadata(of partial: URL) -> PartialMetadata? {
        guard let data = FileManager.default.contents(atPath: sidecar(of: partial).path) else { return nil }
        return try? JSONDecoder().decode(PartialMetadata.self, from: data)
    }

    /// Writes the sidecar durably: to a temporary file, fsynced, renamed over the old one, directory fsynced.
    static func write(_ metadata: PartialMetadata, of partial: URL) throws {
        let directory = partial.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let target = sidecar(of: partial)
        let temporary = target.appendingPathExtension("tmp")
        let writer = try PartialWriter(url: temporary, truncate: true)
        do {
            try writer.write(try JSONEncoder().encode(metadata))
            try writer.sync()
            writer.close()
        } catch {
            writer.close()
            throw error
        }
        guard rename(temporary.path, target.path) == 0 else { throw PartialWriter.error(errno) }
        try? DiskSync.fsync.sync(directory)
    }

    /// Removes the partial file and its sidecar.
    static func remove(_ partial: URL) {
        try? FileManager.default.removeItem(at: partial)
        try? FileManager.default.removeItem(at: sidecar(of: partial))
    }

    /// Bytes on disk in the partial file (0 when there is none).
    static func size(of partial: URL) -> Int64 {
        FileSize.of(partial) ?? 0
    }
}

/// Writes a partial file with plain POSIX calls, so a full disk (ENOSPC, or EFBIG past a file size
/// limit) is reported as such.
///
/// With a `bufferSize`, small writes are gathered in memory and reach the file in blocks of that size
/// (one `write(2)` per block instead of one per network chunk). Buffered bytes reach the file on
/// `flush()` and on `sync()`, which flushes and then fsyncs; `close()` drops what was not flushed, so a
/// caller that wants the bytes on disk flushes or syncs first. Either way the file only ever holds a
/// prefix of what was written, which is all a partial download (resumed by its size) needs.
final class PartialWriter {
    private var fd: Int32
    private let capacity: Int
    private var buffer: UnsafeMutableRawPointer?
    private var buffered = 0

    /// Opens `url` for writing, creating it; truncated to empty, or positioned at its end to append.
    init(url: URL, truncate: Bool, bufferSize: Int = 0) throws {
        capacity = max(0, bufferSize)
        fd = open(url.path, O_WRONLY | O_CREAT | O_CLOEXEC | (truncate ? O_TRUNC : 0), 0o644)
        guard fd >= 0 else { throw Self.error(errno) }
        if !truncate && lseek(fd, 0, SEEK_END) < 0 {
            let code = errno
            close()
            throw Self.error(code)
        }
        if capacity > 0 { buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16) }
    }

    deinit {
        close()
        buffer?.deallocate()
    }

    func write(_ data: Data) throws {
        try data.withUnsafeBytes { try write($0) }
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        guard bytes.count > 0, let base = bytes.baseAddress else { return }
        guard let buffer else { return try writeFully(base, bytes.count) }
        if buffered + bytes.count <= capacity {
            (buffer + buffered).copyMemory(from: base, byteCount: bytes.count)
            buffered += bytes.count
            if buffered == capacity { try flush() }
            return
        }
        try flush()
        if bytes.count >= capacity { return try writeFully(base, bytes.count) }
        buffer.copyMemory(from: base, byteCount: bytes.count)
        buffered = bytes.count
    }

    /// Hands the buffered bytes to the file.
    func flush() throws {
        guard buffered > 0, let buffer else { return }
        let count = buffered
        buffered = 0
        try writeFully(buffer, count)
    }

    /// Flushes, then fsyncs: everything written so far is on disk.
    func sync() throws {
        try flush()
        if fsync(fd) != 0 { throw Self.error(errno) }
    }

    /// Closes the file; bytes still buffered (not flushed) are dropped.
    func close() {
        buffered = 0
        if fd >= 0 {
            _ = systemClose(fd)
            fd = -1
        }
    }

    private func writeFully(_ base: UnsafeRawPointer, _ count: Int) throws {
        guard fd >= 0 else { throw Self.error(EBADF) }
        var offset = 0
        while offset < count {
            let written = systemWrite(fd, base + offset, count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw Self.error(errno)
            }
            offset += written
        }
    }

    /// A write error in plain words; a full disk or a file size limit reads "the disk is full".
    static func error(_ code: Int32) -> DownloadError {
        if code == ENOSPC || code == EFBIG || code == EDQUOT { return DownloadError("the disk is full") }
        return DownloadError("cannot write the download: \(String(cString: strerror(code)))")
    }
}

/// Free space on the file system holding a folder, through statvfs.
enum FreeSpace {
    /// Bytes available to an unprivileged user at `url` (or its nearest existing parent); nil when unknown.
    @Sendable static func available(at url: URL) -> Int64? {
        var path = url
        while !FileManager.default.fileExists(atPath: path.path), path.path != "/" { path = path.deletingLastPathComponent() }
        var info = statvfs()
        guard statvfs(path.path, &info) == 0 else { return nil }
        return Int64(info.f_bavail) * Int64(info.f_frsize)
    }

    /// Megabytes with one decimal, for messages.
    static func megabytes(_ bytes: Int64) -> String {
        String(format: "%.1f", Double(bytes) / 1_048_576)
    }
}
