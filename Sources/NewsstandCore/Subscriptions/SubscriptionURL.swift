import Foundation

/// Turns what a person typed or pasted as a feed address into a URL: http, https and file URLs as
/// they are, anything without a scheme as a path; other schemes are refused.
///
/// The URL never keeps user information: `https://user:password@host/feed` gives `https://host/feed`
/// (`parseMovingLogin` hands the login to a credential store first).
public enum SubscriptionURL {
    public static func parse(_ text: String) -> URL? {
        let trimmed = URLCredentials.split(text).address
        guard !trimmed.isEmpty else { return nil }
        if let url = URL(string: trimmed), let scheme = url.scheme?.lowercased() {
            return ["http", "https", "file"].contains(scheme) && (scheme == "file" || !(url.host ?? "").isEmpty) ? url : nil
        }
        if trimmed.contains("://") { return nil }
        return URL(fileURLWithPath: expandingHome(trimmed)).standardizedFileURL
    }

    /// Parses a feed address as `parse` does, first moving the login it carries (`user:password@`) into `credentials`.
    /// Nil when the address is not one (and then nothing is saved); throws when the login cannot be saved.
    public static func parseMovingLogin(_ text: String, into credentials: CredentialStore) throws -> (url: URL, saved: SavedLogin?)? {
        guard let url = parse(text) else { return nil }
        let moved = try credentials.takeLogin(from: text)
        return (url, moved.saved)
    }

    /// A path with a leading `~/` replaced by the home folder.
    public static func expandingHome(_ path: String) -> String {
        let trimmed = path.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix("~/") else { return trimmed }
        let home = ProcessInfo.processInfo.environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return home + trimmed.dropFirst()
    }
}
