import Foundation

/// Counts of one publication's issues, from SQL.
public struct IssueCounts: Equatable, Sendable {
    public var total: Int
    /// Issues whose state is available (downloaded and installed).
    public var downloaded: Int
    /// Issues marked NEW: arrived new and not opened since (as `Issue.isNew`).
    public var new: Int

    public init(total: Int = 0, downloaded: Int = 0, new: Int = 0) {
        self.total = total
        self.downloaded = downloaded
        self.new = new
    }
}

/// Reading a shelf a window at a time: keyset paging in shelf order (newest first: date descending, then id
/// descending), counts, and issues by id, so a front end never needs the whole library in memory.
///
/// Every query reads a range of an index (see migration 7 in `LibrarySchema`); the tests check their plans.
extension LibraryStore {
    /// Up to `limit` issues of a publication in the view's order (shelf order by default), strictly after `key`
    /// (nil: from the view's start).
    public func issues(publicationID: Int64, after key: IssueKey?, limit: Int, view: ShelfView = .standard) throws -> [Issue] {
        guard limit > 0 else { return [] }
        let (sql, values) = Self.pageQuery(publicationID: publicationID, key: key, limit: limit, towardsNewest: false, view: view)
        return try locked { try database.rows(sql, values, as: Self.issue(from:)) }
    }

    /// Up to `limit` issues strictly before `key` in the view's order (nil: the last ones), returned in that order.
    public func issues(publicationID: Int64, before key: IssueKey?, limit: Int, view: ShelfView = .standard) throws -> [Issue] {
        guard limit > 0 else { return [] }
        let (sql, values) = Self.pageQuery(publicationID: publicationID, key: key, limit: limit, towardsNewest: true, view: view)
        return try locked { try database.rows(sql, values, as: Self.issue(from:)).reversed() }
    }

    /// How many issues come before `key` in its publication's view (the index an issue with that key has there).
    public func shelfIndex(of key: IssueKey, publicationID: Int64, view: ShelfView = .standard) throws -> Int {
        let (sql, values) = view == .standard
            ? (Self.shelfIndexSQL, Self.shelfIndexValues(of: key, publicationID: publicationID))
            : Self.viewIndexQuery(of: key, publicationID: publicationID, view: view)
        return try locked { Int(try database.query(sql, values).first?.first?.int64 ?? 0) }
    }

    /// Issues of a publication its view shows: from the kept counts, or for unread issues counted over their index.
    public func issueCount(publicationID: Int64, filter: ShelfView.Filter) throws -> Int {
        let counts = try issueCounts(publicationID: publicationID)
        switch filter {
        case .all: return counts.total
        case .downloaded: return counts.downloaded
        case .new: return counts.new
        case .unread:
            return try locked { Int(try database.query(Self.unreadCountSQL, [.integer(publicationID)]).first?.first?.int64 ?? 0) }
        }
    }

    /// Counts for every publication (publications without issues are absent or zero), as triggers keep them (migration 8).
    public func issueCounts() throws -> [Int64: IssueCounts] {
        try locked {
            var counts: [Int64: IssueCounts] = [:]
            try database.forEachRow("SELECT publication_id, total, downloaded, new FROM issue_counts") { row in
                guard let publicationID = row.int64(0) else { return }
                counts[publicationID] = Self.counts(from: row, at: 1)
            }
            return counts
        }
    }

    /// Counts for one publication.
    public func issueCounts(publicationID: Int64) throws -> IssueCounts {
        try locked {
            try database.rows("SELECT total, downloaded, new FROM issue_counts WHERE publication_id = ?", [.integer(publicationID)]) {
                Self.counts(from: $0, at: 0)
            }.first ?? IssueCounts()
        }
    }

    /// Counts computed from the issues themselves (what `issue_counts` must always equal; for tests).
    func countedIssueCounts() throws -> [Int64: IssueCounts] {
        try locked {
            var counts: [Int64: IssueCounts] = [:]
            for row in try database.query(Self.allCountsSQL) {
                guard let publicationID = row[0].int64 else { continue }
                counts[publicationID, default: IssueCounts()].total += Int(row[1].int64 ?? 0)
                counts[publicationID, default: IssueCounts()].downloaded += Int(row[2].int64 ?? 0)
                counts[publicationID, default: IssueCounts()].new += Int(row[3].int64 ?? 0)
            }
            return counts
        }
    }

    private static func counts(from row: SQLiteRow, at column: Int) -> IssueCounts {
        IssueCounts(total: Int(row.int64(column) ?? 0), downloaded: Int(row.int64(column + 1) ?? 0), new: Int(row.int64(column + 2) ?? 0))
    }

    /// Issues with the given ids, by primary key (ids not found are left out), in the order of `ids`
    /// (an id given twice gives its issue twice).
    public func issues(ids: [Int64]) throws -> [Issue] {
        var seen = Set<Int64>()
        let distinct = ids.filter { seen.insert($0).inserted }
        guard !distinct.isEmpty else { return [] }
        var byID: [Int64: Issue] = [:]
        byID.reserveCapacity(distinct.count)
        try locked {
            // In chunks, to stay far below SQLite's limit on bound values in one statement.
            var start = distinct.startIndex
            while start < distinct.endIndex {
                let chunk = distinct[start..<min(start + Self.idsPerStatement, distinct.endIndex)]
                let placeholders = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
                try database.forEachRow("SELECT \(Self.issueColumns) FROM issues WHERE id IN (\(placeholders))", chunk.map { .integer($0) }) { row in
                    let issue = Self.issue(from: row)
                    byID[issue.id] = issue
                }
                start = chunk.endIndex
            }
        }
        return ids.compactMap { byID[$0] }
    }

    /// Every issue whose download is under way or unfinished: downloading, paused or failed (for the downloads screen), in id order.
    public func unfinishedDownloads() throws -> [Issue] {
        try locked {
            try database.rows("SELECT \(Self.issueColumns) FROM issues WHERE \(Self.unfinishedCondition) ORDER BY id", as: Self.issue(from:))
        }
    }

    /// Every downloaded issue, by publication and newest first (the storage budget's candidates; the start-up reconcile).
    public func downloadedIssues() throws -> [Issue] {
        try locked { try database.rows(Self.downloadedIssuesSQL, as: Self.issue(from:)) }
    }

    /// The newest issue of each publication that has one, read through the shelf-order index.
    public func newestIssues() throws -> [Issue] {
        try locked {
            try database.rows("""
                SELECT \(Self.issueColumns) FROM issues WHERE id IN (
                    SELECT (SELECT id FROM issues i WHERE i.publication_id = p.id ORDER BY date DESC, id DESC LIMIT 1) FROM publications p)
                ORDER BY publication_id
                """, as: Self.issue(from:))
        }
    }

    // MARK: Queries (internal for the tests that check their plans)

    /// The states of an unfinished download, spelled exactly as in the WHERE of the partial index
    /// `issues_unfinished` (migration 7): SQLite uses a partial index only for queries that repeat its condition.
    static let unfinishedCondition = "state IN ('downloading', 'paused', 'failed')"

    /// The downloaded issues through the partial index `issues_available`, then sorted (they are few). Named, because
    /// without statistics SQLite prefers `issues_in_shelf_order` to save the sort, and that reads every issue of the
    /// library to find the downloaded ones: 50,000 rows, most of the database, at every start.
    static let downloadedIssuesSQL = """
        SELECT \(issueColumns) FROM issues INDEXED BY issues_available WHERE state = 'available'
        ORDER BY publication_id, date DESC, id DESC
        """

    static let idsPerStatement = 500

    /// A page next to `key` (or at an end of the shelf when nil). Towards the oldest: the rows after `key` in shelf order.
    /// Towards the newest: the rows before it, nearest first (that is, oldest first; callers reverse them).
    ///
    /// With a key it is two exact ranges of `issues_in_shelf_order` merged in index order, not the row value
    /// `(date, id) < (?, ?)`: `id` is the rowid, and for a row value over it SQLite bounds the range by `date` alone
    /// and filters `id` one entry at a time, so a page beside thousands of issues of one date would step over all of them.
    ///
    /// Another view pages the same way over its own index (`ShelfView`; named, so the plan never depends on SQLite's
    /// guesses): `towardsNewest` then means towards the view's start.
    static func pageQuery(publicationID: Int64, key: IssueKey?, limit: Int, towardsNewest: Bool,
                          view: ShelfView = .standard) -> (String, [SQLiteValue]) {
        let sort = SortColumn(view.sort)
        let ascending = sort.ascending != towardsNewest
        let order = ascending ? "\(sort.column), id" : "\(sort.column) DESC, id DESC"
        let select = "SELECT \(issueColumns) FROM issues\(indexHint(view)) WHERE publication_id = ?\(view.filter.condition.map { " AND \($0)" } ?? "")"
        guard let key else {
            return ("\(select) ORDER BY \(order) LIMIT ?", [.integer(publicationID), .integer(Int64(limit))])
        }
        let beyond = ascending ? ">" : "<"
        let value = sort.value(of: key)
        return ("""
            \(select) AND \(sort.column) = ? AND id \(beyond) ?
            UNION ALL
            \(select) AND \(sort.column) \(beyond) ?
            ORDER BY \(order) LIMIT ?
            """,
            [.integer(publicationID), value, .integer(key.id), .integer(publicationID), value, .integer(Int64(limit))])
    }

    /// The column a sort orders by (then by id, the same way), and whether its view's start is its smallest.
    struct SortColumn {
        let column: String
        let ascending: Bool
        let byTitle: Bool

        init(_ sort: ShelfView.Sort) {
            byTitle = sort == .title
            column = byTitle ? "title COLLATE NOCASE" : "date"
            ascending = sort != .newest
        }

        func value(of key: IssueKey) -> SQLiteValue { byTitle ? .text(key.title) : .real(key.date) }
    }

    /// The index a view reads (migrations 7 and 14): nothing named for the shelf's own view, which keeps its plan.
    static func indexHint(_ view: ShelfView) -> String {
        if view.sort == .title { return " INDEXED BY issues_by_title" }
        switch view.filter {
        case .all: return ""
        case .downloaded: return " INDEXED BY issues_available_by_date"
        case .new: return " INDEXED BY issues_new_by_date"
        case .unread: return " INDEXED BY issues_unread_by_date"
        }
    }

    /// The issues before `key` in a view: two counts over ranges of the view's index, as `shelfIndexSQL`.
    static func viewIndexQuery(of key: IssueKey, publicationID: Int64, view: ShelfView) -> (String, [SQLiteValue]) {
        let sort = SortColumn(view.sort)
        let before = sort.ascending ? "<" : ">"
        let count = "SELECT count(*) FROM issues\(indexHint(view)) WHERE publication_id = ?\(view.filter.condition.map { " AND \($0)" } ?? "")"
        let value = sort.value(of: key)
        return ("SELECT (\(count) AND \(sort.column) \(before) ?) + (\(count) AND \(sort.column) = ? AND id \(before) ?)",
                [.integer(publicationID), value, .integer(publicationID), value, .integer(key.id)])
    }

    /// Unread issues of a publication, counted over their partial index (the kept counts have no column for them).
    static let unreadCountSQL = "SELECT count(*) FROM issues INDEXED BY issues_unread_by_date WHERE publication_id = ? AND opened_at IS NULL"

    /// Issues newer than the key, plus those as new with a larger id: two counts over exact ranges of `issues_in_shelf_order`.
    static let shelfIndexSQL = """
        SELECT (SELECT count(*) FROM issues WHERE publication_id = ? AND date > ?)
             + (SELECT count(*) FROM issues WHERE publication_id = ? AND date = ? AND id > ?)
        """

    static func shelfIndexValues(of key: IssueKey, publicationID: Int64) -> [SQLiteValue] {
        [.integer(publicationID), .real(key.date), .integer(publicationID), .real(key.date), .integer(key.id)]
    }

    /// The counts from the issues themselves, each read from its own index: totals `issues_in_shelf_order`, downloaded
    /// `issues_available`, NEW `issues_new` (migration 7). The last two are partial indexes, so their conditions are spelled exactly as in their WHERE.
    /// One statement, so the three counts come from the same snapshot.
    static let allCountsSQL = """
        SELECT publication_id, count(*), 0, 0 FROM issues GROUP BY publication_id
        UNION ALL
        SELECT publication_id, 0, count(*), 0 FROM issues WHERE state = 'available' GROUP BY publication_id
        UNION ALL
        SELECT publication_id, 0, 0, count(*) FROM issues WHERE arrived_new = 1 AND opened_at IS NULL GROUP BY publication_id
        """


    /// SQLite's plan for a statement, one line per step (`EXPLAIN QUERY PLAN`'s detail column), for tests.
    func queryPlan(_ sql: String, _ values: [SQLiteValue] = []) throws -> [String] {
        try locked {
            try database.query("EXPLAIN QUERY PLAN \(sql)", values).compactMap { $0.count > 3 ? $0[3].string : nil }
        }
    }
}
