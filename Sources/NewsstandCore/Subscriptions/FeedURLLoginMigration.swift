import Foundation

/// Moves the logins that libraries from before the credential store kept inside feed URLs
/// (`https://user:password@host/feed`) into the credential store, and keeps the URLs without them, so no password
/// stays in the database. Runs once per library (a setting remembers it), from wherever the library is opened.
public enum FeedURLLoginMigration {
    static let doneSetting = "feed_url_logins_moved"

    /// Moves every such login; returns one plain sentence per publication whose login could not be kept (its URL is
    /// cleaned all the same: the password leaves the database, and the user is told to log in again). Never shows a password.
    @discardableResult
    public static func run(store: LibraryStore, credentials: CredentialStore) throws -> [String] {
        guard try store.setting(doneSetting) == nil else { return [] }
        var warnings: [String] = []
        var cleaned: [(id: Int64, feedURL: String)] = []
        for (publicationID, title, stored) in try store.feedURLsWithUserInformation() {
            let address: String
            do {
                address = try credentials.takeLogin(from: stored).address
            } catch {
                address = URLCredentials.split(stored).address
                warnings.append("the login kept in the feed URL of \(title) could not be saved (\(error)); it was removed from the library: "
                                + "give it again with `newsstand login \(address)`")
            }
            cleaned.append((publicationID, address))
        }
        if !cleaned.isEmpty { try store.replaceFeedURLsErasingTheOldText(cleaned) }
        try store.setSetting(doneSetting, to: "yes")
        return warnings
    }
}

extension LibraryStore {
    /// Publications whose stored feed URL has user information (`…://user[:password]@host`), with their titles.
    func feedURLsWithUserInformation() throws -> [(id: Int64, title: String, feedURL: String)] {
        try locked {
            try database.query("SELECT id, title, feed_url FROM publications WHERE feed_url LIKE '%@%'").compactMap { row in
                guard let id = row[0].int64, let url = row[2].string, URLCredentials.split(url).hadUserInformation else { return nil }
                return (id, row[1].string ?? "", url)
            }
        }
    }

    /// Replaces publications' stored feed URLs (the text as given) so that the old text is nowhere in the files after:
    /// SQLite zeroes what it frees (`secure_delete`) and the write-ahead log is folded in and emptied.
    func replaceFeedURLsErasingTheOldText(_ urls: [(id: Int64, feedURL: String)]) throws {
        try locked {
            try database.execute("PRAGMA secure_delete = ON")
            defer { try? database.execute("PRAGMA secure_delete = OFF") }
            try database.transaction {
                for (id, text) in urls {
                    try database.query("UPDATE publications SET feed_url = ? WHERE id = ?", [.text(text), .integer(id)])
                }
            }
            try database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        }
    }
}
