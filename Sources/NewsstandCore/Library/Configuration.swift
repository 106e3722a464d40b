import Foundation

/// The user's settings, read from `$XDG_CONFIG_HOME/newsstand/config`.
///
/// Plain text, one `key value` per line, `#` for comments:
///
///     theme paper
///     max-downloads 3
public struct Configuration: Equatable, Sendable {
    /// Theme name (a file `NAME.theme`).
    public var theme = "dark"
    /// Transfers that run at once.
    public var maxDownloads = 3

    public init() {}

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
            default:
                configuration.warnings.append("\(source), line \(offset + 1): unknown setting '\(key)'")
            }
        }
        return configuration
    }
}
