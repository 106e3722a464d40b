import Foundation

/// The text of a small settings file (the config, a theme), at most `limit` bytes, read with `read` (a call or two for a
/// file of a few kilobytes): Foundation's `String(contentsOf:encoding:)` took a third of a millisecond on its first use,
/// on the way to the first frame.
public enum SettingsFileText {
    /// The most bytes read: a settings file is a few kilobytes; anything larger is no settings file.
    public static let limit = 1 << 20

    /// The file's text; nil when it cannot be opened or read, is not UTF-8, or holds more than `limit` bytes.
    public static func contents(of url: URL) -> String? {
        bytes(of: url).flatMap { String(validating: $0, as: UTF8.self) }
    }

    /// The file's bytes; nil when it cannot be opened or read, is not a regular file, or holds more than `limit` bytes.
    public static func bytes(of url: URL, limit: Int = limit) -> [UInt8]? {
        // Opened without waiting (a FIFO's open waits for a writer); then a regular file only: a device need never end.
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(min(Int(status.st_size), limit) + 1)
        var chunk = [UInt8](repeating: 0, count: 16 << 10)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { break }
            bytes += chunk[..<count]
            guard bytes.count <= limit else { return nil }
        }
        return bytes
    }
}
