import Foundation

/// What the library keeps for progress sync: each issue's downloaded-file identity, and the positions waiting to be
/// sent (one per issue, the latest; see `ProgressSyncOutbox`).
extension LibraryStore {
    /// Records the identity of an issue's file as downloaded (at install).
    public func setDownloadedFileIdentity(_ identity: DownloadedFileIdentity, issueID: Int64) throws {
        try locked {
            try database.query("UPDATE issues SET download_partial_md5 = ?, download_file_name = ? WHERE id = ?",
                               [.text(identity.partialMD5), .text(identity.fileName), .integer(issueID)])
        }
    }

    /// The identity recorded when the issue was downloaded; nil for one downloaded by an older Newsstand.
    public func downloadedFileIdentity(issueID: Int64) throws -> DownloadedFileIdentity? {
        try locked {
            guard let row = try database.query("SELECT download_partial_md5, download_file_name FROM issues WHERE id = ?",
                                               [.integer(issueID)]).first,
                  let digest = row[0].string else { return nil }
            return DownloadedFileIdentity(partialMD5: digest, fileName: row[1].string ?? "")
        }
    }

    /// When the issue's reading position was last saved (Unix seconds); nil when it has none.
    public func readingPositionUpdate(issueID: Int64) throws -> Double? {
        try locked {
            try database.query("SELECT updated_at FROM reading_positions WHERE issue_id = ?", [.integer(issueID)]).first?.first?.double
        }
    }

    /// Keeps `position` as the issue's position waiting to be sent, replacing an older one.
    public func queueProgressPush(_ position: ProgressSyncPosition, issueID: Int64, at place: ReadingPosition? = nil, date: Date = Date()) throws {
        try locked {
            try database.query("""
                INSERT INTO progress_sync_outbox (issue_id, document, progress, percentage, article_title, queued_at, article_index, block_index,
                    character_offset) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (issue_id) DO UPDATE SET document = excluded.document, progress = excluded.progress,
                    percentage = excluded.percentage, article_title = excluded.article_title, queued_at = excluded.queued_at,
                    article_index = excluded.article_index, block_index = excluded.block_index, character_offset = excluded.character_offset
                """, [.integer(issueID), .text(position.document), .text(position.progress), .real(position.percentage),
                      .text(position.articleTitle), .real(date.timeIntervalSince1970),
                      place.map { .integer(Int64($0.articleIndex)) } ?? .null, place.map { .integer(Int64($0.blockIndex)) } ?? .null,
                      place.map { .integer(Int64($0.characterOffset)) } ?? .null])
        }
    }

    /// Records `position` (made from `place`) as what the server holds from us for the issue.
    public func rememberSentProgress(_ position: ProgressSyncPosition, issueID: Int64, at place: ReadingPosition) throws {
        try locked {
            try database.query("""
                INSERT INTO progress_sync_sent (issue_id, document, progress, article_index, block_index, character_offset) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (issue_id) DO UPDATE SET document = excluded.document, progress = excluded.progress,
                    article_index = excluded.article_index, block_index = excluded.block_index, character_offset = excluded.character_offset
                """, [.integer(issueID), .text(position.document), .text(position.progress), .integer(Int64(place.articleIndex)),
                      .integer(Int64(place.blockIndex)), .integer(Int64(place.characterOffset))])
        }
    }

    /// The place the server last took from us for an issue: its document, `progress`, and our position it was made
    /// from; nil when none (or it was queued without its position).
    public func lastSentProgress(issueID: Int64) throws -> (document: String, progress: String, position: ReadingPosition)? {
        try locked {
            try database.query("SELECT document, progress, article_index, block_index, character_offset FROM progress_sync_sent WHERE issue_id = ?",
                               [.integer(issueID)]).first.map { row in
                (row[0].string ?? "", row[1].string ?? "",
                 ReadingPosition(articleIndex: Int(row[2].int64 ?? 0), blockIndex: Int(row[3].int64 ?? 0), characterOffset: Int(row[4].int64 ?? 0)))
            }
        }
    }

    /// The positions waiting to be sent, by issue id, oldest first.
    public func queuedProgressPushes() throws -> [(issueID: Int64, position: ProgressSyncPosition)] {
        try locked {
            try database.query("SELECT issue_id, document, progress, percentage, article_title FROM progress_sync_outbox ORDER BY queued_at, issue_id")
                .map { row in
                    (row[0].int64 ?? 0, ProgressSyncPosition(document: row[1].string ?? "", progress: row[2].string ?? "",
                                                              percentage: row[3].double ?? 0, articleTitle: row[4].string ?? ""))
                }
        }
    }

    /// The issue's position waiting to be sent, if any.
    public func queuedProgressPush(issueID: Int64) throws -> ProgressSyncPosition? {
        try queuedProgressPushes().first { $0.issueID == issueID }?.position
    }

    /// Forgets the queued position once the server has it — only if it is still `position` (a newer one stays).
    public func clearQueuedProgressPush(issueID: Int64, ifStill position: ProgressSyncPosition) throws {
        try locked {
            try database.transaction {
                let values: [SQLiteValue] = [.integer(issueID), .text(position.progress), .text(position.document), .real(position.percentage)]
                // Remembered as what the server has from us, with the position it was made from (when known).
                try database.query("""
                    INSERT INTO progress_sync_sent (issue_id, document, progress, article_index, block_index, character_offset)
                    SELECT issue_id, document, progress, article_index, block_index, character_offset FROM progress_sync_outbox
                    WHERE issue_id = ? AND progress = ? AND document = ? AND percentage = ? AND article_index IS NOT NULL
                    ON CONFLICT (issue_id) DO UPDATE SET document = excluded.document, progress = excluded.progress,
                        article_index = excluded.article_index, block_index = excluded.block_index, character_offset = excluded.character_offset
                    """, values)
                try database.query("DELETE FROM progress_sync_outbox WHERE issue_id = ? AND progress = ? AND document = ? AND percentage = ?", values)
            }
        }
    }
}
