import Foundation

/// Turns what a person typed or pasted as a feed address into a URL: http, https and file URLs as
/// they are, anything without a scheme as a path; other schemes are refused.
public enum SubscriptionURL {
    public static func parse(_ text: String) -> URL? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return nil }
        if let url = URL(string: trimmed), let scheme = url.scheme?.lowercased() {
            return ["http", "https", "file"].contains(scheme) && (scheme == "file" || !(url.host ?? "").isEmpty) ? url : nil
        }
        if trimmed.contains("://") { return nil }
        return URL(fileURLWithPath: expandingHome(trimmed)).standardizedFileURL
    }

    /// A path with a leading `~/` replaced by the home folder.
    public static func expandingHome(_ path: String) -> String {
        let trimmed = path.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix("~/") else { return trimmed }
        let home = ProcessInfo.processInfo.environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return home + trimmed.dropFirst()
    }
}
