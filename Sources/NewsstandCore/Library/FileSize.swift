import Foundation

/// Size of a file on disk.
enum FileSize {
    /// Bytes in the file at `url`, or nil when it cannot be read.
    static func of(_ url: URL) -> Int64? {
        (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size].flatMap { ($0 as? NSNumber)?.int64Value }
    }
}
