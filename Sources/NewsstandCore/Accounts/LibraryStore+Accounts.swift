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
                        try database.query("""
                            UPDATE accounts SET user = ?, synced_to_usec = NULL, full_check_at = NULL, unread_counts_digest = NULL,
                            unread_list_digest = NULL, starred_list_digest = NULL WHERE id = ?
                            """, [.text(user), .integer(account.id)])
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
            try database.transaction {
                try database.query("UPDATE accounts SET last_sync = ?, last_error = ?, synced_to_usec = coalesce(?, synced_to_usec) WHERE id = ?",
                                   [.real(date.timeIntervalSince1970), error.map { .text($0) } ?? .null,
                                    microseconds.map { .integer($0) } ?? .null, .integer(id)])
            }
        }
    }

    /// Records a sync that found nothing new: its time, no problem, and the same time as the refresh of the
    /// `publicationIDs` it checked, in one transaction not waited for on the disk (only times are written: a power cut
    /// may forget them, as ``recordUnchangedRefreshes(_:)``'s).
    public func recordUnchangedAccountSync(id: Int64, refreshing publicationIDs: [Int64], at date: Date = Date()) throws {
        try locked {
            try database.transaction(waitingForDisk: false) {
                try database.query("UPDATE publications SET last_refresh = ? WHERE id IN (SELECT value FROM json_each(?))",
                                   [.real(date.timeIntervalSince1970), .text("[" + publicationIDs.map(String.init).joined(separator: ",") + "]")])
                try database.query("UPDATE accounts SET last_sync = ?, last_error = NULL WHERE id = ?", [.real(date.timeIntervalSince1970), .integer(id)])
            }
        }
    }

    /// What an account's last full check of its read states saw (migration 20): when it was, a digest of the server's
    /// unread counts then, and one of the unread list applied; and a digest of the starred list last applied. All nil
    /// before the first.
    public struct AccountReadCheck: Sendable, Equatable {
        public var at: Date?
        public var countsDigest: String?
        public var listDigest: String?
        public var starredDigest: String?

        public init(at: Date? = nil, countsDigest: String? = nil, listDigest: String? = nil, starredDigest: String? = nil) {
            self.at = at
            self.countsDigest = countsDigest
            self.listDigest = listDigest
            self.starredDigest = starredDigest
        }
    }

    public func readCheck(accountID: Int64) throws -> AccountReadCheck {
        try locked {
            guard let row = try database.query("""
                SELECT full_check_at, unread_counts_digest, unread_list_digest, starred_list_digest FROM accounts WHERE id = ?
                """, [.integer(accountID)]).first else { return AccountReadCheck() }
            return AccountReadCheck(at: row[0].double.map(Date.init(timeIntervalSince1970:)), countsDigest: row[1].string, listDigest: row[2].string,
                                    starredDigest: row[3].string)
        }
    }

    public func recordReadCheck(accountID: Int64, _ check: AccountReadCheck) throws {
        try locked {
            try database.query("""
                UPDATE accounts SET full_check_at = ?, unread_counts_digest = ?, unread_list_digest = ?, starred_list_digest = ? WHERE id = ?
                """, [check.at.map { .real($0.timeIntervalSince1970) } ?? .null, check.countsDigest.map { .text($0) } ?? .null,
                      check.listDigest.map { .text($0) } ?? .null, check.starredDigest.map { .text($0) } ?? .null, .integer(accountID)])
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
            try database.rows("SELECT \(Self.publicationColumns) FROM publications WHERE account_id = ? ORDER BY added_at, id",
                               [.integer(accountID)], as: Self.publication(from:))
        }
    }

    /// The publication for one of the account's subscriptions: the one already linked to its stream, else one of
    /// one's own for the same feed (which the account adopts), else a new one. Its title follows the server's, and it
    /// is subscribed.
    public func linkPublication(accountID: Int64, subscription: ServerSubscription) throws -> Publication {
        let linked = try locked {
            try database.rows("SELECT \(Self.publicationColumns) FROM publications WHERE account_id = ? AND account_stream = ?",
                               [.integer(accountID), .text(subscription.streamID)], as: Self.publication(from:)).first
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

    /// Marks read the account's issues that are not among the server's unread items (the issue's name is the item's
    /// long id) and not yet read here, and its headlines as the list says (read or unread, unless a change made here
    /// waits to be sent); returns how many became read. Never marks an issue unread: what is read here goes to the
    /// server instead.
    @discardableResult
    public func markReadFromServer(accountID: Int64, unreadItems: Set<ServerItemID>, at date: Date = Date()) throws -> Int {
        try locked {
            try database.transaction {
                // SQLite compares the names with the list (`json_each`): only the issues to mark come back, however many are unread.
                let rows = try database.query("""
                    SELECT issues.id FROM issues JOIN publications ON publications.id = issues.publication_id
                    WHERE publications.account_id = ? AND issues.opened_at IS NULL AND issues.name LIKE 'tag:google.com,2005:reader/item/%'
                    AND issues.name NOT IN (SELECT value FROM json_each(?))
                    """, [.integer(accountID), .text(Self.jsonList(of: unreadItems))])
                for row in rows {
                    guard let id = row[0].int64 else { continue }
                    try database.query("UPDATE issues SET opened_at = ? WHERE id = ?", [.real(date.timeIntervalSince1970), .integer(id)])
                }
                // Headlines both ways: read here or there is read, unread there (and not changed here since) is unread.
                return rows.count + (try applyServerStatesToHeadlines(accountID: accountID, unreadItems: unreadItems, starredItems: nil, at: date))
            }
        }
    }

    /// Items as a JSON array of their long ids (an issue's name), for SQLite's `json_each`.
    static func jsonList(of items: Set<ServerItemID>) -> String {
        var text = "["
        text.reserveCapacity(items.count * (ServerItemID.longPrefix.utf8.count + 19) + 2)
        for (index, item) in items.enumerated() {
            if index > 0 { text += "," }
            text += "\""
            text += item.longForm
            text += "\""
        }
        return text + "]"
    }

    /// The publication's headlines with their bodies and states, in order: what an account's sync keeps when new ones come before them.
    func headlinesWithBodies(publicationID: Int64) throws -> [Headline] {
        try locked {
            try database.query("SELECT \(Self.headlineColumns) FROM headlines h \(Self.stateJoin) WHERE h.publication_id = ? ORDER BY h.position",
                               [.integer(publicationID)]).map(Self.headline(from:))
        }
    }

    // MARK: Marks to send

    /// Queues a change of an issue's state for its account's server, when it comes from one (its name is the item's
    /// long id); the last change of an item's state wins. Call inside a transaction, holding the lock.
    func queueAccountMark(issueID: Int64, _ state: ServerItemState, adding: Bool, at date: Date = Date()) throws {
        guard let row = try database.query("""
            SELECT publications.account_id, issues.name FROM issues JOIN publications ON publications.id = issues.publication_id
            WHERE issues.id = ? AND publications.account_id IS NOT NULL
            """, [.integer(issueID)]).first,
              let accountID = row[0].int64, let item = row[1].string.flatMap(ServerItemID.init) else { return }
        try queueAccountMark(accountID: accountID, item: item, state, adding: adding, at: date)
    }

    /// Queues a change of an item's state for the account's server; the last change of an item's state wins. Call
    /// inside a transaction, holding the lock.
    func queueAccountMark(accountID: Int64, item: ServerItemID, _ state: ServerItemState, adding: Bool, at date: Date = Date()) throws {
        try database.query("""
            INSERT INTO account_marks (account_id, item_id, state, adding, queued_at) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (account_id, item_id, state) DO UPDATE SET adding = excluded.adding, queued_at = excluded.queued_at
            """, [.integer(accountID), .integer(item.value), .text(state.rawValue), .integer(adding ? 1 : 0), .real(date.timeIntervalSince1970)])
    }

    /// One queued change of an item's state.
    public struct PendingMark: Sendable, Equatable {
        public var item: ServerItemID
        public var state: ServerItemState
        public var adding: Bool
        public var queuedAt: Date
    }

    /// The changes waiting to be sent to the account's server, oldest first.
    public func pendingMarks(accountID: Int64) throws -> [PendingMark] {
        try locked {
            try database.query("SELECT item_id, state, adding, queued_at FROM account_marks WHERE account_id = ? ORDER BY queued_at, item_id",
                               [.integer(accountID)]).compactMap { row in
                guard let id = row[0].int64, let state = row[1].string.flatMap(ServerItemState.init(rawValue:)) else { return nil }
                return PendingMark(item: ServerItemID(id), state: state, adding: row[2].int64 == 1,
                                   queuedAt: Date(timeIntervalSince1970: row[3].double ?? 0))
            }
        }
    }

    /// Forgets the marks the server now has: those not changed again since they were read (`queuedAt` the same).
    public func clearSentMarks(_ marks: [PendingMark], accountID: Int64) throws {
        try locked {
            try database.transaction {
                for mark in marks {
                    try database.query("DELETE FROM account_marks WHERE account_id = ? AND item_id = ? AND state = ? AND adding = ? AND queued_at = ?",
                                       [.integer(accountID), .integer(mark.item.value), .text(mark.state.rawValue), .integer(mark.adding ? 1 : 0),
                                        .real(mark.queuedAt.timeIntervalSince1970)])
                }
            }
        }
    }

    // MARK: Starred

    /// Stars or unstars an issue here; one from an account is starred or unstarred on its server at the next send.
    public func setStarred(_ starred: Bool, issueID: Int64) throws {
        try locked {
            try database.transaction {
                try database.query("UPDATE issues SET is_starred = ? WHERE id = ?", [.integer(starred ? 1 : 0), .integer(issueID)])
                try queueAccountMark(issueID: issueID, .starred, adding: starred)
            }
        }
    }

    /// The ids of the starred issues (kept whatever the storage budget).
    public func starredIssueIDs() throws -> Set<Int64> {
        try locked { Set(try database.query("SELECT id FROM issues WHERE is_starred = 1").compactMap { $0[0].int64 }) }
    }

    /// Makes the account's issues and headlines starred exactly as the server's list says, except those with a change
    /// of their own still to send; returns how many issues changed.
    @discardableResult
    public func applyStarredFromServer(accountID: Int64, starredItems: Set<ServerItemID>) throws -> Int {
        try locked {
            try database.transaction {
                let pending = Set(try database.query("SELECT item_id FROM account_marks WHERE account_id = ? AND state = 'starred'",
                                                     [.integer(accountID)]).compactMap { $0[0].int64 })
                // Only the issues whose star differs from the list come back (SQLite compares the names, `json_each`).
                let rows = try database.query("""
                    SELECT issues.id, issues.name, issues.is_starred FROM issues JOIN publications ON publications.id = issues.publication_id
                    WHERE publications.account_id = ? AND issues.name LIKE 'tag:google.com,2005:reader/item/%'
                    AND (issues.is_starred = 1) != (issues.name IN (SELECT value FROM json_each(?)))
                    """, [.integer(accountID), .text(Self.jsonList(of: starredItems))])
                var changed = 0
                for row in rows {
                    guard let id = row[0].int64, let item = row[1].string.flatMap(ServerItemID.init), !pending.contains(item.value) else { continue }
                    let starred = row[2].int64 != 1
                    try database.query("UPDATE issues SET is_starred = ? WHERE id = ?", [.integer(starred ? 1 : 0), .integer(id)])
                    changed += 1
                }
                _ = try applyServerStatesToHeadlines(accountID: accountID, unreadItems: nil, starredItems: starredItems, at: Date())
                return changed
            }
        }
    }
}
