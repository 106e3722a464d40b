import Foundation
import NewsstandContent
import Synchronization

/// The persistent issue library (like NKLibrary): publications, their issues and states, and where the reader is.
///
/// Backed by one SQLite file in WAL mode with a busy timeout, so the TUI and a command-line
/// process can use the same library at once. Every method is safe to call from any thread.
// @unchecked: `database` wraps a sqlite3 connection, used only inside `locked` (or before `init` returns).
public final class LibraryStore: @unchecked Sendable {
    let database: SQLiteDatabase
    /// Held around every use of `database`.
    private let connectionTurn = Mutex(())
    public let file: URL

    /// Opens (creating if needed) the library at `file` and brings its schema up to date.
    public init(file: URL) throws {
        self.file = file
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        database = try SQLiteDatabase(path: file.path)
        try database.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON; "
                             + "PRAGMA journal_size_limit = \(Self.writeAheadLogLimit);")
        database.keepWriteAheadLogFile()
        try migrate()
    }

    /// The most bytes the write-ahead log's file keeps after a checkpoint has emptied it (SQLite's journal size limit).
    /// With it set, the last connection to close leaves the file empty (`keepWriteAheadLogFile`).
    static let writeAheadLogLimit = 4 << 20

    /// Closes the connection; later calls fail.
    public func close() {
        locked { database.close() }
    }

    private func migrate() throws {
        let version = database.userVersion
        guard version < LibrarySchema.currentVersion else {
            if version > LibrarySchema.currentVersion {
                throw SQLiteError(code: 0, message: "the library was written by a newer Newsstand (schema \(version)); this one knows up to \(LibrarySchema.currentVersion)")
            }
            return
        }
        try database.transaction {
            for step in version..<LibrarySchema.currentVersion {
                try database.execute(LibrarySchema.migrations[step])
                try LibrarySchema.followUps[step + 1]?(database)
            }
            try database.execute("PRAGMA user_version = \(LibrarySchema.currentVersion)")
        }
    }

    @discardableResult
    func locked<T, Failure: Error>(_ body: () throws(Failure) -> T) throws(Failure) -> T {
        try connectionTurn.withLock { _ throws(Failure) in try body() }
    }

    // MARK: Publications

    /// Adds a publication for `feedURL`, or returns the existing one. Its name is a unique slug of `title`.
    /// The library never keeps a login: user information in `feedURL` (`user:password@`) is dropped.
    @discardableResult
    public func addPublication(title: String, feedURL: URL) throws -> Publication {
        let feedURL = URLCredentials.removingUserInformation(from: feedURL)
        return try locked {
            try database.transaction {
                if var publication = try database.rows("SELECT \(Self.publicationColumns) FROM publications WHERE feed_url = ?",
                                                       [.text(feedURL.absoluteString)], as: Self.publication(from:)).first {
                    if !publication.isSubscribed {
                        try database.query("UPDATE publications SET is_subscribed = 1 WHERE id = ?", [.integer(publication.id)])
                        publication.isSubscribed = true
                    }
                    return publication
                }
                let base = PathComponent.slug(title)
                var name = base
                var suffix = 2
                while try !database.query("SELECT 1 FROM publications WHERE name = ?", [.text(name)]).isEmpty {
                    name = "\(base)-\(suffix)"
                    suffix += 1
                }
                let safeTitle = TextSanitizer.singleLine(title)
                try database.query("INSERT INTO publications (name, title, feed_url, added_at) VALUES (?, ?, ?, ?)",
                                   [.text(name), .text(safeTitle), .text(feedURL.absoluteString), .real(Date().timeIntervalSince1970)])
                return Publication(id: database.lastInsertedRowID, name: name, title: safeTitle, feedURL: feedURL)
            }
        }
    }

    /// Changes a publication's title (its name, used on the command line, stays).
    public func renamePublication(id: Int64, to title: String) throws {
        let clean = TextSanitizer.singleLine(title)
        guard !clean.isEmpty else { throw SQLiteError(code: 0, message: "a title cannot be empty") }
        try locked {
            try database.query("UPDATE publications SET title = ? WHERE id = ?", [.text(clean), .integer(id)])
        }
    }

    /// Sets which new issues download by themselves and how many downloaded issues to keep (nil: all).
    public func setPolicy(publicationID: Int64, autoDownload: AutoDownloadPolicy, keepNewest: Int?) throws {
        try locked {
            try database.query("UPDATE publications SET auto_download = ?, keep_newest = ? WHERE id = ?",
                               [.text(autoDownload.rawValue), keepNewest.map { .integer(Int64($0)) } ?? .null, .integer(publicationID)])
        }
    }

    /// Stops refreshing a publication but keeps its downloaded issues readable; issues not on disk are forgotten.
    public func unsubscribeKeepingDownloads(publicationID: Int64) throws {
        try locked {
            try database.transaction {
                try database.query("UPDATE publications SET is_subscribed = 0, auto_download = 'none' WHERE id = ?", [.integer(publicationID)])
                try database.query("DELETE FROM issues WHERE publication_id = ? AND state <> 'available'", [.integer(publicationID)])
            }
        }
    }

    /// Every publication, in the order they were added.
    public func publications() throws -> [Publication] {
        try locked {
            try database.rows(Self.publicationsSQL, as: Self.publication(from:))
        }
    }

    /// Whether the library has any publication (without reading them).
    public func hasPublications() throws -> Bool {
        try locked { try database.query("SELECT EXISTS (SELECT 1 FROM publications)").first?.first?.int64 == 1 }
    }

    public func publication(id: Int64) throws -> Publication? {
        try locked {
            try database.rows("SELECT \(Self.publicationColumns) FROM publications WHERE id = ?", [.integer(id)], as: Self.publication(from:)).first
        }
    }

    /// Finds a publication by name, title (case-insensitive) or feed URL.
    public func findPublication(_ reference: String) throws -> Publication? {
        try locked {
            try database.rows("SELECT \(Self.publicationColumns) FROM publications WHERE name = ? OR lower(title) = lower(?) OR feed_url = ? LIMIT 1",
                               [.text(reference), .text(reference), .text(reference)], as: Self.publication(from:)).first
        }
    }

    /// Removes one issue from the library (the caller removes its files first).
    public func removeIssue(id: Int64) throws {
        try locked {
            try database.transaction {
                try database.query("DELETE FROM settings WHERE key = 'currently_reading' AND value = ?", [.text(String(id))])
                try database.query("DELETE FROM issues WHERE id = ?", [.integer(id)])
            }
        }
    }

    /// Removes a publication and its issues from the library (the caller removes their files).
    public func removePublication(id: Int64) throws {
        try locked {
            try database.transaction {
                try database.query("DELETE FROM settings WHERE key = 'currently_reading' AND value IN (SELECT id FROM issues WHERE publication_id = ?)", [.integer(id)])
                try database.query("DELETE FROM publications WHERE id = ?", [.integer(id)])
            }
        }
    }

    /// Records how a refresh went: the catalog's title (when given), the time, and any problem.
    public func recordRefresh(publicationID: Int64, title: String?, error: String?, at date: Date = Date()) throws {
        try locked {
            if let title, !title.isEmpty {
                try database.query("UPDATE publications SET title = ?, last_refresh = ?, last_error = ? WHERE id = ?",
                                   [.text(TextSanitizer.singleLine(title)), .real(date.timeIntervalSince1970), error.map { .text($0) } ?? .null, .integer(publicationID)])
            } else {
                try database.query("UPDATE publications SET last_refresh = ?, last_error = ? WHERE id = ?",
                                   [.real(date.timeIntervalSince1970), error.map { .text($0) } ?? .null, .integer(publicationID)])
            }
        }
    }

    /// Records a refresh that failed outright: the previous issues and title stay as they were.
    public func recordRefreshFailure(publicationID: Int64, error: String) throws {
        try locked {
            try database.query("UPDATE publications SET last_error = ? WHERE id = ?", [.text(error), .integer(publicationID)])
        }
    }

    // MARK: Issues

    /// Adds catalog entries to a publication in one transaction. An entry whose name (the catalog's id) already
    /// exists updates that issue's metadata and keeps its state and handle; nothing is duplicated and nothing fails.
    /// A new issue gets a free handle (`IssueHandle`). Issues added with `markingNewArrivals` are NEW until opened.
    ///
    /// A known issue costs one statement, an update by its unique name, and no handle work. A new one costs that
    /// update (which finds nothing) and its insert; when its first choice of handle is taken, an insert per further
    /// choice (and a few look-ups of the handle index where a numbering starts).
    @discardableResult
    public func upsertIssues(_ entries: [CatalogEntry], publicationID: Int64, markingNewArrivals: Bool = false) throws -> [Issue] {
        try locked {
            try database.transaction {
                let now = Date().timeIntervalSince1970
                var handles = IssueHandleAllocator()
                for entry in entries {
                    let title = TextSanitizer.singleLine(entry.title)
                    let values: [SQLiteValue] = [
                        .text(title), .real(entry.date.timeIntervalSince1970), .text(TextSanitizer.singleLine(entry.summary)),
                        entry.coverURLText.map { .text($0) } ?? .null,
                        .text(entry.contentURLsText),
                        entry.expectedSize.map { .integer($0) } ?? .null,
                        entry.expectedSHA256.map { .text($0.lowercased()) } ?? .null,
                        .integer(publicationID), .text(entry.name),
                    ]
                    try database.query("""
                        UPDATE issues SET title = ?, date = ?, summary = ?, cover_url = ?, content_urls = ?, expected_size = ?, expected_sha256 = ?
                        WHERE publication_id = ? AND name = ?
                        """, values)
                    if database.changedRowCount > 0 { continue }
                    let inserted = values + [.real(now), .integer(markingNewArrivals ? 1 : 0)]
                    _ = try handles.assign(
                        candidates: IssueHandle.candidates(catalogID: entry.name, title: title, date: entry.date),
                        isTaken: { handle in try isHandleTaken(handle, publicationID: publicationID) },
                        claim: { handle in
                            // Nothing is inserted when another issue of the publication has the handle.
                            try database.query("""
                                INSERT INTO issues (title, date, summary, cover_url, content_urls, expected_size, expected_sha256,
                                                    publication_id, name, added_at, arrived_new, handle)
                                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                                ON CONFLICT (publication_id, handle) DO NOTHING
                                """, inserted + [.text(handle)])
                            return database.changedRowCount == 1
                        })
                }
                return try database.rows("SELECT \(Self.issueColumns) FROM issues WHERE publication_id = ? ORDER BY date DESC, id DESC",
                                          [.integer(publicationID)], as: Self.issue(from:))
            }
        }
    }

    /// Whether a publication has an issue with this handle (one entry of the handle index).
    private func isHandleTaken(_ handle: String, publicationID: Int64) throws -> Bool {
        try !database.query("SELECT 1 FROM issues WHERE handle = ? AND publication_id = ?", [.text(handle), .integer(publicationID)]).isEmpty
    }

    /// A publication's issues, newest first.
    public func issues(publicationID: Int64) throws -> [Issue] {
        try locked {
            try database.rows("SELECT \(Self.issueColumns) FROM issues WHERE publication_id = ? ORDER BY date DESC, id DESC",
                               [.integer(publicationID)], as: Self.issue(from:))
        }
    }

    /// Every issue in the library, by publication and newest first.
    public func allIssues() throws -> [Issue] {
        try locked {
            try database.rows("SELECT \(Self.issueColumns) FROM issues ORDER BY publication_id, date DESC, id DESC", as: Self.issue(from:))
        }
    }

    /// Issues in one state (by its stored name), in id order.
    func issues(storedState: String) throws -> [Issue] {
        try locked {
            try database.rows("SELECT \(Self.issueColumns) FROM issues WHERE state = ? ORDER BY id", [.text(storedState)], as: Self.issue(from:))
        }
    }

    public func issue(id: Int64) throws -> Issue? {
        try locked {
            try database.rows("SELECT \(Self.issueColumns) FROM issues WHERE id = ?", [.integer(id)], as: Self.issue(from:)).first
        }
    }

    /// Finds issues by `HANDLE` or `PUBLICATION/HANDLE` (the publication by name or title); a handle found wins, else
    /// the catalog's id (`NAME`, `PUBLICATION/NAME`) is tried, so what worked before handles still does. More than
    /// one result means the reference is ambiguous.
    public func findIssues(_ reference: String) throws -> [Issue] {
        try locked {
            if let slash = reference.firstIndex(of: "/") {
                let publication = String(reference[..<slash])
                let rest = String(reference[reference.index(after: slash)...])
                for column in ["handle", "name"] {
                    let issues = try database.rows("""
                        SELECT \(Self.issueColumns(prefix: "i.")) FROM issues i JOIN publications p ON p.id = i.publication_id
                        WHERE i.\(column) = ? AND (p.name = ? OR lower(p.title) = lower(?)) ORDER BY i.id
                        """, [.text(rest), .text(publication), .text(publication)], as: Self.issue(from:))
                    if !issues.isEmpty { return issues }
                }
            }
            let byHandle = try database.rows("SELECT \(Self.issueColumns) FROM issues WHERE handle = ? ORDER BY id", [.text(reference)], as: Self.issue(from:))
            if !byHandle.isEmpty { return byHandle }
            return try database.rows("SELECT \(Self.issueColumns) FROM issues WHERE name = ? ORDER BY id", [.text(reference)], as: Self.issue(from:))
        }
    }

    /// Sets an issue's state (and progress: 1 when available, 0 when not downloaded or failed;
    /// a paused issue keeps its stored progress unless one is given).
    public func setState(_ state: IssueState, issueID: Int64, progress: Double? = nil) throws {
        let progressValue: Double? = progress ?? {
            switch state {
            case .available: 1
            case .notDownloaded, .failed: 0
            case .downloading: 0
            case .paused: nil
            }
        }()
        let reason: SQLiteValue = if case .failed(let reason) = state { .text(reason) } else { .null }
        try locked {
            try database.query("UPDATE issues SET state = ?, progress = COALESCE(?, progress), failure_reason = ? WHERE id = ?",
                               [.text(state.storedName), progressValue.map { .real($0) } ?? .null, reason, .integer(issueID)])
        }
    }

    /// Records download progress (0…1) without touching the state.
    public func setProgress(_ progress: Double, issueID: Int64) throws {
        try locked {
            try database.query("UPDATE issues SET progress = ? WHERE id = ?", [.real(progress), .integer(issueID)])
        }
    }

    /// SQLite's own consistency check of the database file: `["ok"]` when it is sound.
    public func integrityCheck() throws -> [String] {
        try locked {
            try database.query("PRAGMA integrity_check").compactMap { $0.first?.string }
        }
    }

    /// Issues whose download was under way (queued or transferring) when the last process stopped.
    /// Paused issues are not among them: they wait for the user.
    public func interruptedDownloads() throws -> [Issue] {
        try locked {
            // The unfinished condition too, so SQLite reads the partial index issues_unfinished instead of the table.
            try database.rows("SELECT \(Self.issueColumns) FROM issues WHERE \(Self.unfinishedCondition) AND state = 'downloading' ORDER BY id", as: Self.issue(from:))
        }
    }

    // MARK: Reading

    /// Marks an issue as the one being read, and as opened (which clears NEW).
    public func markOpened(issueID: Int64, at date: Date = Date()) throws {
        try locked {
            try database.transaction {
                try database.query("UPDATE issues SET opened_at = ? WHERE id = ?", [.real(date.timeIntervalSince1970), .integer(issueID)])
                try database.query("INSERT INTO settings (key, value) VALUES ('currently_reading', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                                   [.text(String(issueID))])
                try queueAccountMark(issueID: issueID, .read, adding: true)
            }
        }
    }

    /// Marks an issue read (as if opened: NEW goes) or unread (never opened: NEW comes back to an issue that arrived
    /// new, and it stops being the issue being read, so READING and continue-reading go too).
    public func setRead(_ read: Bool, issueID: Int64, at date: Date = Date()) throws {
        try locked {
            try database.transaction {
                if read {
                    try database.query("UPDATE issues SET opened_at = coalesce(opened_at, ?) WHERE id = ?", [.real(date.timeIntervalSince1970), .integer(issueID)])
                } else {
                    try database.query("UPDATE issues SET opened_at = NULL WHERE id = ?", [.integer(issueID)])
                    try database.query("DELETE FROM settings WHERE key = 'currently_reading' AND value = ?", [.text(String(issueID))])
                }
                try queueAccountMark(issueID: issueID, .read, adding: read)
            }
        }
    }

    /// The issue being read, if any.
    public func currentlyReadingIssueID() throws -> Int64? {
        try locked {
            try database.query("SELECT value FROM settings WHERE key = 'currently_reading'").first?.first?.string.flatMap { Int64($0) }
        }
    }

    public func saveReadingPosition(_ position: ReadingPosition, issueID: Int64) throws {
        try locked {
            try database.query("""
                INSERT INTO reading_positions (issue_id, article_index, block_index, character_offset, updated_at) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (issue_id) DO UPDATE SET article_index = excluded.article_index, block_index = excluded.block_index,
                    character_offset = excluded.character_offset, updated_at = excluded.updated_at
                """, [.integer(issueID), .integer(Int64(position.articleIndex)), .integer(Int64(position.blockIndex)),
                      .integer(Int64(position.characterOffset)), .real(Date().timeIntervalSince1970)])
        }
    }

    public func readingPosition(issueID: Int64) throws -> ReadingPosition? {
        try locked {
            try database.query("SELECT article_index, block_index, character_offset FROM reading_positions WHERE issue_id = ?",
                               [.integer(issueID)]).first.map {
                ReadingPosition(articleIndex: Int($0[0].int64 ?? 0), blockIndex: Int($0[1].int64 ?? 0), characterOffset: Int($0[2].int64 ?? 0))
            }
        }
    }

    /// A number that changes whenever another process commits to the library (SQLite's data_version),
    /// so a long-running front end can notice a sync's changes without reloading blindly.
    public func externalChangeCounter() throws -> Int64 {
        try locked { try database.query("PRAGMA data_version").first?.first?.int64 ?? 0 }
    }

    // MARK: Settings

    /// A stored setting (small facts the program remembers, like having offered the sample library).
    public func setting(_ key: String) throws -> String? {
        try locked {
            try database.query("SELECT value FROM settings WHERE key = ?", [.text(key)]).first?.first?.string
        }
    }

    public func setSetting(_ key: String, to value: String) throws {
        try locked {
            try database.query("INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                               [.text(key), .text(value)])
        }
    }

    // MARK: Row mapping

    static let publicationColumns = "id, name, title, feed_url, last_refresh, last_error, is_subscribed, auto_download, keep_newest, feed_format, catalog_root_url, catalog_feed_title, account_id, account_stream, full_text"

    /// Every publication in the order they were added: read in that order from `publications_in_added_order`.
    static let publicationsSQL = "SELECT \(publicationColumns) FROM publications ORDER BY added_at, id"

    static func publication(from row: SQLiteRow) -> Publication {
        // The address is kept as text: parsed only when asked for (`Publication.feedURL`).
        var publication = Publication(id: row.int64(0) ?? 0, name: row.string(1) ?? "", title: row.string(2) ?? "", feedAddress: row.string(3) ?? "",
                    lastRefresh: row.double(4).map(Date.init(timeIntervalSince1970:)), lastError: row.string(5),
                    isSubscribed: row.int64(6) != 0, autoDownload: AutoDownloadPolicy(rawValue: row.string(7) ?? "") ?? .none,
                    keepNewest: row.int64(8).map(Int.init), feedFormat: row.string(9).flatMap(FeedFormat.init(rawValue:)))
        publication.catalogRoot = row.string(10).flatMap { URL(string: $0) }
        publication.catalogFeedTitle = row.string(11)
        publication.accountID = row.int64(12)
        publication.accountStream = row.string(13)
        publication.fullText = row.count > 14 ? row.string(14).flatMap(FullTextMode.init(rawValue:)) : nil
        return publication
    }

    static func issueColumns(prefix: String) -> String {
        ["id", "publication_id", "name", "title", "date", "summary", "cover_url", "content_urls", "expected_size",
         "expected_sha256", "state", "progress", "failure_reason", "added_at", "opened_at", "arrived_new", "handle", "is_starred"].map { prefix + $0 }.joined(separator: ", ")
    }

    static let issueColumns = issueColumns(prefix: "")

    static func issue(from row: SQLiteRow) -> Issue {
        var issue = Issue(id: row.int64(0) ?? 0, publicationID: row.int64(1) ?? 0, name: row.string(2) ?? "", handle: row.string(16), title: row.string(3) ?? "",
              date: Date(timeIntervalSince1970: row.double(4) ?? 0), summary: row.string(5) ?? "",
              coverURL: row.string(6).flatMap(URL.init(string:)),
              contentURLs: (row.string(7) ?? "").split(separator: "\n").compactMap { URL(string: String($0)) },
              expectedSize: row.int64(8), expectedSHA256: row.string(9),
              state: IssueState(storedName: row.string(10) ?? "none", reason: row.string(12)),
              progress: row.double(11) ?? 0, addedAt: Date(timeIntervalSince1970: row.double(13) ?? 0),
              openedAt: row.double(14).map(Date.init(timeIntervalSince1970:)), arrivedNew: row.int64(15) == 1)
        issue.isStarred = row.count > 17 && row.int64(17) == 1
        return issue
    }
}
