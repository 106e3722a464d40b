import Foundation
import NewsstandContent

/// What the library knows a headline by across refreshes (which replace every headline): its link, else its title and
/// date to the second. Computed in SQL from the stored row, so the key is the same whoever asks.
enum HeadlineKey {
    /// The key of the `headlines` row called `alias` in a query.
    static func sql(_ alias: String) -> String {
        "coalesce(\(alias).link, \(alias).title || char(31) || coalesce(CAST(CAST(\(alias).date AS INTEGER) AS TEXT), ''))"
    }
}

/// Headlines' read and starred states (migration 19), kept by publication and ``HeadlineKey``: set here (opening a
/// headline, `N`, `*`, `newsstand mark`) or by an account's server. A headline from an account keeps the server's item
/// id, and its changes queue in `account_marks` with the issues' until the server has them. Starred headlines stay
/// whatever `max-headlines` says (``replaceHeadlines(_:publicationID:markingNewArrivals:)`` keeps them).
extension LibraryStore {
    /// The columns ``headline(from:)`` reads: the row `h`'s, then its state `s`'s (joined with ``stateJoin``).
    static let headlineColumns = headlineColumns(body: "h.body")
    /// The same without the bodies (an empty one each), for lists.
    static let headlineColumnsWithoutBody = headlineColumns(body: "''")
    private static func headlineColumns(body: String) -> String {
        "h.title, h.link, h.date, h.summary, h.media_url, h.media_kind, \(body), \(HeadlineKey.sql("h")), s.item_id, s.read_at, s.is_starred, s.arrived_new"
    }
    static let stateJoin = "LEFT JOIN headline_states s ON s.publication_id = h.publication_id AND s.key = \(HeadlineKey.sql("h"))"

    static func headline(from row: [SQLiteValue]) -> Headline {
        var headline = Headline(title: row[0].string ?? "", link: row[1].string.flatMap(URL.init(string:)),
                                date: row[2].double.map(Date.init(timeIntervalSince1970:)), summary: row[3].string ?? "",
                                mediaURL: row[4].string.flatMap(URL.init(string:)), mediaKind: row[5].string, body: row[6].string ?? "",
                                serverItem: row[8].int64.map(ServerItemID.init))
        headline.key = row[7].string
        headline.isRead = row[9] != .null
        headline.isStarred = row[10].int64 == 1
        headline.isNew = !headline.isRead && row[11].int64 == 1
        return headline
    }

    /// Stores one headline at `position` and indexes it for search; its key.
    func insertHeadline(_ headline: Headline, publicationID: Int64, position: Int, articleText: String? = nil) throws -> String? {
        let key = try database.query("""
            INSERT INTO headlines (publication_id, position, title, link, date, summary, media_url, media_kind, body)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING \(HeadlineKey.sql("headlines"))
            """,
                           [.integer(publicationID), .integer(Int64(position)), .text(TextSanitizer.singleLine(headline.title)),
                            headline.link.map { .text($0.absoluteString) } ?? .null,
                            headline.date.map { .real($0.timeIntervalSince1970) } ?? .null,
                            .text(TextSanitizer.singleLine(headline.summary)),
                            headline.mediaURL.map { .text($0.absoluteString) } ?? .null,
                            headline.mediaKind.map { .text(TextSanitizer.singleLine($0)) } ?? .null,
                            .text(headline.body)]).first?.first?.string
        try database.query("INSERT INTO headline_text (title, body, publication_id, position) VALUES (?, ?, ?, ?)",
                           [.text(Self.searchable(headline.title)),
                            .text(Self.indexedText(of: headline, articleText: articleText)),
                            .integer(publicationID), .integer(Int64(position))])
        return key
    }

    /// The publication's headline known by `key`, with its body and state; nil when it has none by that key.
    public func headline(publicationID: Int64, key: String) throws -> (headline: Headline, position: Int)? {
        try locked {
            try database.query("""
                SELECT \(Self.headlineColumns), h.position FROM headlines h \(Self.stateJoin)
                WHERE h.publication_id = ? AND \(HeadlineKey.sql("h")) = ? ORDER BY h.position LIMIT 1
                """, [.integer(publicationID), .text(key)]).first.map { (Self.headline(from: $0), Int($0[12].int64 ?? 0)) }
        }
    }

    /// The headline that came from an account's server as `item`: its publication, key and place; nil when the library has none.
    public func headline(serverItem item: ServerItemID) throws -> (publicationID: Int64, key: String, position: Int)? {
        try locked {
            try database.query("""
                SELECT h.publication_id, s.key, h.position FROM headline_states s
                JOIN headlines h ON h.publication_id = s.publication_id AND \(HeadlineKey.sql("h")) = s.key
                WHERE s.item_id = ? ORDER BY h.position LIMIT 1
                """, [.integer(item.value)]).first.flatMap { row in
                guard let publicationID = row[0].int64, let key = row[1].string else { return nil }
                return (publicationID, key, Int(row[2].int64 ?? 0))
            }
        }
    }

    /// Marks a headline read (NEW goes) or unread (NEW comes back to one that arrived new); one from an account is
    /// marked on its server at the next send. Returns false when the publication has no headline by that key.
    @discardableResult
    public func setHeadlineRead(_ read: Bool, publicationID: Int64, key: String, at date: Date = Date()) throws -> Bool {
        try changeHeadlineState(publicationID: publicationID, key: key, .read, adding: read, sql: read
            ? "read_at = coalesce(read_at, \(date.timeIntervalSince1970))" : "read_at = NULL")
    }

    /// Stars or unstars a headline (a starred one is kept until unstarred); one from an account is starred or
    /// unstarred on its server at the next send. Returns false when the publication has no headline by that key.
    @discardableResult
    public func setHeadlineStarred(_ starred: Bool, publicationID: Int64, key: String) throws -> Bool {
        try changeHeadlineState(publicationID: publicationID, key: key, .starred, adding: starred, sql: "is_starred = \(starred ? 1 : 0)")
    }

    private func changeHeadlineState(publicationID: Int64, key: String, _ state: ServerItemState, adding: Bool, sql assignment: String) throws -> Bool {
        try locked {
            try database.transaction {
                let exists = try database.query("SELECT 1 FROM headlines h WHERE h.publication_id = ? AND \(HeadlineKey.sql("h")) = ? LIMIT 1",
                                                [.integer(publicationID), .text(key)])
                guard !exists.isEmpty else { return false }
                try database.query("INSERT INTO headline_states (publication_id, key) VALUES (?, ?) ON CONFLICT DO NOTHING",
                                   [.integer(publicationID), .text(key)])
                try database.query("UPDATE headline_states SET \(assignment) WHERE publication_id = ? AND key = ?",
                                   [.integer(publicationID), .text(key)])
                if let row = try database.query("""
                    SELECT p.account_id, s.item_id FROM headline_states s JOIN publications p ON p.id = s.publication_id
                    WHERE s.publication_id = ? AND s.key = ? AND s.item_id IS NOT NULL AND p.account_id IS NOT NULL
                    """, [.integer(publicationID), .text(key)]).first, let accountID = row[0].int64, let item = row[1].int64 {
                    try queueAccountMark(accountID: accountID, item: ServerItemID(item), state, adding: adding)
                }
                return true
            }
        }
    }

    /// Makes the account's headlines read or unread, and starred or not, as the server's lists say (`nil`: that list
    /// was not read whole, so it changes nothing), except those with a change of their own still to send. Returns how
    /// many became read. Call holding the lock, inside a transaction.
    func applyServerStatesToHeadlines(accountID: Int64, unreadItems: Set<ServerItemID>?, starredItems: Set<ServerItemID>?,
                                      at date: Date) throws -> Int {
        // SQLite compares the states with the lists (`json_each`): only the headlines that change are touched, however
        // many the account has (an unchanged sync of 50,000 items changes none).
        func mine(_ state: ServerItemState) -> String {
            """
            publication_id IN (SELECT id FROM publications WHERE account_id = ?1) AND item_id IS NOT NULL
            AND item_id NOT IN (SELECT item_id FROM account_marks WHERE account_id = ?1 AND state = '\(state.rawValue)')
            """
        }
        var markedRead = 0
        if let unreadItems {
            let list = SQLiteValue.text(Self.jsonNumbers(of: unreadItems))
            markedRead = try database.query("""
                UPDATE headline_states SET read_at = ?3 WHERE \(mine(.read)) AND read_at IS NULL
                AND item_id NOT IN (SELECT value FROM json_each(?2)) RETURNING 1
                """, [.integer(accountID), list, .real(date.timeIntervalSince1970)]).count
            try database.query("""
                UPDATE headline_states SET read_at = NULL WHERE \(mine(.read)) AND read_at IS NOT NULL
                AND item_id IN (SELECT value FROM json_each(?2))
                """, [.integer(accountID), list])
        }
        if let starredItems {
            try database.query("""
                UPDATE headline_states SET is_starred = (item_id IN (SELECT value FROM json_each(?2)))
                WHERE \(mine(.starred)) AND is_starred != (item_id IN (SELECT value FROM json_each(?2)))
                """, [.integer(accountID), .text(Self.jsonNumbers(of: starredItems))])
        }
        return markedRead
    }

    /// Items as a JSON array of their numbers (a headline state's `item_id`), for SQLite's `json_each`.
    static func jsonNumbers(of items: Set<ServerItemID>) -> String {
        "[" + items.map { String($0.value) }.joined(separator: ",") + "]"
    }
}
