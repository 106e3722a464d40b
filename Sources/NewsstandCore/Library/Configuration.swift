import Foundation
import NewsstandImaging

/// The user's settings, read from `$XDG_CONFIG_HOME/newsstand/config`.
///
/// Plain text, one `key value` per line, `#` for comments:
///
///     theme paper
///     max-downloads 3
///     storage-budget 2G
///     refresh-interval 60
///     rate-limit 1M
///     max-download-size 4G
///     disk-reserve 1G
///     stall-timeout 30
public struct Configuration: Equatable, Sendable {
    /// Theme name (a file `NAME.theme`).
    public var theme = "dark"
    /// Transfers that run at once.
    public var maxDownloads = 3
    /// Bytes downloaded issues may take in all; beyond it, sync removes the oldest read ones. nil: no limit.
    public var storageBudget: Int64?
    /// Quiet hours and a daily cap for automatic downloads.
    public var autoDownloadLimits = AutoDownloadLimits()
    /// The longest line of article text, in columns.
    public var measure = 72
    /// Minutes between catalog refreshes while the shelf is open; 0 turns them off.
    public var refreshIntervalMinutes = 60
    /// How covers are drawn; nil chooses from the terminal (and theme).
    public var coverMode: CoverArtMode?
    /// Bytes per second for all downloads together; nil (`off`, the default) for no limit.
    public var rateLimit: Int?
    /// The most bytes one issue may download when its catalog gives no size (with a size, that size and a
    /// small margin bound it): a server that sends without end is stopped there.
    public var maxDownloadSize: Int64 = DownloadPolicy.defaultMaxDownloadSize
    /// Free bytes downloads leave on the disk: writing stops before the free space would go below it.
    public var diskReserve: Int64 = DownloadPolicy.defaultDiskReserve
    /// Seconds a download may receive nothing before the attempt fails (and is retried from its partial).
    public var stallTimeout: Int = DownloadPolicy.defaultStallTimeout
    /// The most entries one refresh stores from a feed (the newest; at most 10 pages are read either way).
    public var maxCatalogEntries: Int = PublicationRefresher.defaultMaxEntries

    public init() {}

    /// Every setting the file may hold, in the order the README lists them.
    public static let settingNames = ["theme", "max-downloads", "storage-budget", "refresh-interval", "quiet-hours",
                                      "daily-download-cap", "measure", "cover-mode", "rate-limit",
                                      "max-download-size", "disk-reserve", "stall-timeout", "max-catalog-entries"]

    /// Problems found while reading, each naming its line; the rest of the file still applies.
    public private(set) var warnings: [String] = []

    public static func load(from file: URL) -> Configuration {
        guard let text = try? String(contentsOf: file, encoding: .utf8) else { return Configuration() }
        return parse(text, source: file.path)
    }

    public static func parse(_ text: String, source: String = "config") -> Configuration {
        var configuration = Configuration()
        for (offset, rawLine) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).map(String.init)
            guard let key = words.first else { continue }
            let value = words.dropFirst().joined(separator: " ")
            switch key {
            case "theme" where !value.isEmpty:
                configuration.theme = value
            case "max-downloads":
                if let count = Int(value), (1...16).contains(count) {
                    configuration.maxDownloads = count
                } else {
                    configuration.warnings.append("\(source), line \(offset + 1): max-downloads takes a number from 1 to 16")
                }
            case "storage-budget":
                if let bytes = parseSize(value) {
                    configuration.storageBudget = bytes
                } else {
                    configuration.warnings.append("\(source), line \(offset + 1): storage-budget takes a size such as 500M or 2G")
                }
            case "cover-mode":
                if value == "auto" {
                    configuration.coverMode = nil
                } else if let mode = CoverArtMode(rawValue: value) {
                    configuration.coverMode = mode
                } else {
                    configuration.warnings.append("\(source), line \(offset + 1): cover-mode takes auto, ascii, ascii-color or blocks")
                }
            case "quiet-hours":
                if value == "off" {
                    configuration.autoDownloadLimits.quietHours = nil
                } else if let hours = AutoDownloadLimits.QuietHours(value) {
                    configuration.autoDownloadLimits.quietHours = hours
                } else {
                    configuration.warnings.append("\(source), line \(offset + 1): quiet-hours takes HH:MM-HH:MM (for example 23:00-07:00) or off")
                }
            case "daily-download-cap":
                if let count = Int(value), count >= 0 {
                    configuration.autoDownloadLimits.dailyCap = count
                } else {
                    configuration.warnings.append("\(source), line \(offset + 1): daily-download-cap takes a number of issues")
                }
            case "measure":
                if let columns = Int(value), (20...400).contains(columns) {
                    configuration.measure = columns
                } else {
                    configuration.warnings.append("\(source), line \(offset + 1): measure takes a number of columns from 20 to 400")
                }
            case "refresh-interval":
                if let minutes = Int(value), (0...10_080).contains(minutes) {
                    configuration.refreshIntervalMinutes = minutes
                } else {
                    configuration.warnings.append("\(source), line \(offset + 1): refresh-interval takes minutes from 0 (off) to 10080")
                }
            case "rate-limit":
                if value.lowercased() == "off" || value == "0" {
                    configuration.rateLimit = nil
                } else if let bytes = parseSize(value), bytes >= 1024, bytes <= Int64(Int32.max) {
                    configuration.rateLimit = Int(bytes)
                } else {
                    configuration.warnings.append("\(source), line \(offset + 1): rate-limit takes bytes per second such as 512K or 2M, or off")
                }
            case "max-download-size":
                if let bytes = parseSize(value), bytes >= 1 << 20 {
                    configuration.maxDownloadSize = bytes
                } else {
                    configuration.warnings.append("\(source), line \(offset + 1): max-download-size takes a size of at least 1M, such as 500M or 8G")
                }
            case "disk-reserve":
                if let bytes = parseSize(value) {
                    configuration.diskReserve = bytes
                } else {
                    configuration.warnings.append("\(source), line \(offset + 1): disk-reserve takes a size such as 500M or 2G, or 0")
                }
            case "stall-timeout":
                if let seconds = Int(value), (1...3600).contains(seconds) {
                    configuration.stallTimeout = seconds
                } else {
                    configuration.warnings.append("\(source), line \(offset + 1): stall-timeout takes seconds from 1 to 3600")
                }
            case "max-catalog-entries":
                if let count = Int(value), (1...1_000_000).contains(count) {
                    configuration.maxCatalogEntries = count
                } else {
                    configuration.warnings.append("\(source), line \(offset + 1): max-catalog-entries takes a number of entries from 1 to 1000000")
                }
            default:
                configuration.warnings.append("\(source), line \(offset + 1): unknown setting '\(key)' (settings: \(settingNames.joined(separator: ", ")))")
            }
        }
        return configuration
    }

    /// "500M", "2G", "750K" or plain bytes.
    public static func parseSize(_ text: String) -> Int64? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).uppercased()
        let units: [Character: Int64] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40]
        var digits = Substring(trimmed)
        var multiplier: Int64 = 1
        if digits.hasSuffix("B") { digits = digits.dropLast() }
        if let unit = digits.last, let factor = units[unit] {
            multiplier = factor
            digits = digits.dropLast()
        }
        guard let number = Double(digits), number >= 0, number * Double(multiplier) < 9e18 else { return nil }
        return Int64(number * Double(multiplier))
    }
}
