import Foundation
import NewsstandContent

/// Accounts on feed servers in the library: the accounts themselves, the publications that come from them, and the
/// read states the server sends.
extension LibraryStore {
    private static let accountColumns = "id, kind, url, user, added_at, last_sync, last_error, synced_to_usec"

    private static func account(from row: [SQLiteValue]) -> Account {
        Account(id: row[0].int64 ?? 0, kind: AccountKind(rawValue: row[1].string ?? "") ?? .googleReader,
                url: URL(string: row[2].string ?? "") ?? URL(fileURLWithPath: "/"), user: row[3].string ?? "",
                addedAt: Date(timeIntervalSince1970: row[4].double ?? 0), lastSync: row[5].double.map(Date.init(timeIntervalSince1970:)),
                lastError: row[6].string, syncedToMicroseconds: row[7].int64)
    }

    /// Adds the account at `url` (or changes the user of the one there).
    @discardableResult
    public func addAccount(kind: AccountKind, url: URL, user: String) throws -> Account {
        let url = URLCredentials.removingUserInformation(from: url)
        return try locked {
            try database.transaction {
                if let row = try database.query("SELECT \(Self.accountColumns) FROM accounts WHERE url = ?", [.text(url.absoluteString)]).first {
                    var account = Self.account(from: row)
                    if account.user != user {
                        // Another user's items are not this one's: start the sync over.
                        try database.query("UPDATE accounts SET user = ?, synced_to_usec = NULL WHERE id = ?", [.text(user), .integer(account.id)])
                        account.user = user
                        account.syncedToMicroseconds = nil
                    }
                    return account
                }
                let now = Date()
                try database.query("INSERT INTO accounts (kind, url, user, added_at) VALUES (?, ?, ?, ?)",
                                   [.text(kind.rawValue), .text(url.absoluteString), .text(user), .real(now.timeIntervalSince1970)])
                return Account(id: database.lastInsertedRowID, kind: kind, url: url, user: user, addedAt: now)
            }
        }
    }

    public func accounts() throws -> [Account] {
        try locked { try database.query("SELECT \(Self.accountColumns) FROM accounts ORDER BY added_at, id").map(Self.account(from:)) }
    }

    /// The account whose API base is `url` (compared as written, without a trailing slash).
    public func account(url: URL) throws -> Account? {
        let wanted = Self.normalized(url)
        return try accounts().first { Self.normalized($0.url) == wanted }
    }

    static func normalized(_ url: URL) -> String {
        var text = URLCredentials.removingUserInformation(from: url).absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }

    /// Removes an account. Its publications stay, as feeds of one's own (with their issues and downloads).
    public func removeAccount(id: Int64) throws {
        try locked {
            try database.transaction {
                try database.query("UPDATE publications SET account_id = NULL, account_stream = NULL WHERE account_id = ?", [.integer(id)])
                try database.query("DELETE FROM accounts WHERE id = ?", [.integer(id)])
            }
        }
    }

    /// Records a sync: when, how far it got (nil keeps the last), and what went wrong (nil: nothing).
    public func recordAccountSync(id: Int64, syncedTo microseconds: Int64?, error: String?, at date: Date = Date()) throws {
        try locked {
            try database.query("UPDATE accounts SET last_sync = ?, last_error = ?, synced_to_usec = coalesce(?, synced_to_usec) WHERE id = ?",
                               [.real(date.timeIntervalSince1970), error.map { .text($0) } ?? .null,
                                microseconds.map { .integer($0) } ?? .null, .integer(id)])
        }
    }

    /// Records a failed sync, keeping where the last good one got.
    public func recordAccountSyncFailure(id: Int64, error: String) throws {
        try locked {
            try database.query("UPDATE accounts SET last_error = ? WHERE id = ?", [.text(error), .integer(id)])
        }
    }

    /// The publications that come from the account.
    public func publications(accountID: Int64) throws -> [Publication] {
        try locked {
            try database.query("SELECT \(Self.publicationColumns) FROM publications WHERE account_id = ? ORDER BY added_at, id",
                               [.integer(accountID)]).map(Self.publication(from:))
        }
    }

    /// The publication for one of the account's subscriptions: the one already linked to its stream, else one of
    /// one's own for the same feed (which the account adopts), else a new one. Its title follows the server's, and it
    /// is subscribed.
    public func linkPublication(accountID: Int64, subscription: ServerSubscription) throws -> Publication {
        let linked = try locked {
            try database.query("SELECT \(Self.publicationColumns) FROM publications WHERE account_id = ? AND account_stream = ?",
                               [.integer(accountID), .text(subscription.streamID)]).first.map(Self.publication(from:))
        }
        let publication = try linked ?? addPublication(title: subscription.title, feedURL: subscription.feedURL)
        let title = TextSanitizer.singleLine(subscription.title)
        try locked {
            try database.query("""
                UPDATE publications SET account_id = ?, account_stream = ?, is_subscribed = 1, title = CASE WHEN ? = '' THEN title ELSE ? END
                WHERE id = ?
                """, [.integer(accountID), .text(subscription.streamID), .text(title), .text(title), .integer(publication.id)])
        }
        return try self.publication(id: publication.id) ?? publication
    }

    /// Marks read the account's issues that are not among the server's unread items (the name is the item's
    /// long id) and not yet read here; returns how many changed. Never marks one unread: what is read here goes to the
    /// server instead.
    @discardableResult
    public func markReadFromServer(accountID: Int64, unreadItems: Set<ServerItemID>, at date: Date = Date()) throws -> Int {
        try locked {
            try database.transaction {
                let rows = try database.query("""
                    SELECT issues.id, issues.name FROM issues JOIN publications ON publications.id = issues.publication_id
                    WHERE publications.account_id = ? AND issues.opened_at IS NULL AND issues.name LIKE 'tag:google.com,2005:reader/item/%'
                    """, [.integer(accountID)])
                var changed = 0
                for row in rows {
                    guard let id = row[0].int64, let item = row[1].string.flatMap(ServerItemID.init), !unreadItems.contains(item) else { continue }
                    try database.query("UPDATE issues SET opened_at = ? WHERE id = ?", [.real(date.timeIntervalSince1970), .integer(id)])
                    changed += 1
                }
                return changed
            }
        }
    }

    /// The publication's headlines with their bodies, in order: what an account's sync keeps when new ones come before them.
    func headlinesWithBodies(publicationID: Int64) throws -> [Headline] {
        try locked {
            try database.query("""
                SELECT title, link, date, summary, media_url, media_kind, body FROM headlines WHERE publication_id = ? ORDER BY position
                """, [.integer(publicationID)]).map { row in
                Headline(title: row[0].string ?? "", link: row[1].string.flatMap(URL.init(string:)),
                         date: row[2].double.map(Date.init(timeIntervalSince1970:)), summary: row[3].string ?? "",
                         mediaURL: row[4].string.flatMap(URL.init(string:)), mediaKind: row[5].string, body: row[6].string ?? "")
            }
        }
    }
}
