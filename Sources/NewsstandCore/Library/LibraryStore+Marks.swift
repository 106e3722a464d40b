import Foundation
import NewsstandContent

/// Bookmarks and highlights (with notes) of issues, kept by the issue's id: they stay when its file is removed
/// and fetched again, and go with the issue's entry.
extension LibraryStore {
    // MARK: Bookmarks

    /// Stores a new bookmark; returns its id.
    @discardableResult
    public func addBookmark(_ bookmark: Bookmark) throws -> Int64 {
        try locked {
            try database.query("""
                INSERT INTO bookmarks (issue_id, article_index, block_index, character_offset, name, created_at) VALUES (?, ?, ?, ?, ?, ?)
                """, [.integer(bookmark.issueID), .integer(Int64(bookmark.position.articleIndex)), .integer(Int64(bookmark.position.blockIndex)),
                      .integer(Int64(bookmark.position.characterOffset)), .text(TextSanitizer.singleLine(bookmark.name)),
                      .real(bookmark.created.timeIntervalSince1970)])
            return database.lastInsertedRowID
        }
    }

    public func bookmarks(issueID: Int64) throws -> [Bookmark] {
        try locked {
            try database.query("""
                SELECT id, issue_id, article_index, block_index, character_offset, name, created_at FROM bookmarks WHERE issue_id = ?
                ORDER BY article_index, block_index, character_offset, id
                """, [.integer(issueID)]).map { row in
                Bookmark(id: row[0].int64 ?? 0, issueID: row[1].int64 ?? 0,
                         position: ReadingPosition(articleIndex: Self.int(row[2]), blockIndex: Self.int(row[3]), characterOffset: Self.int(row[4])),
                         name: row[5].string ?? "", created: Date(timeIntervalSince1970: row[6].double ?? 0))
            }
        }
    }

    public func deleteBookmark(id: Int64) throws {
        try locked { try database.query("DELETE FROM bookmarks WHERE id = ?", [.integer(id)]) }
    }

    // MARK: Highlights and notes

    /// Stores a new highlight; returns its id.
    @discardableResult
    public func addHighlight(_ highlight: Highlight) throws -> Int64 {
        try locked {
            try database.query("""
                INSERT INTO highlights (issue_id, article_index, start_block, start_offset, end_block, end_offset, article_title,
                    passage, before_text, after_text, note, is_lost, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, [.integer(highlight.issueID)] + Self.anchorValues(highlight)
                     + [.text(TextSanitizer.singleLine(highlight.note)), .integer(highlight.isLost ? 1 : 0), .real(highlight.created.timeIntervalSince1970)])
            return database.lastInsertedRowID
        }
    }

    /// Stores where a highlight was found again (or that it was not): its anchor, article title, text and `isLost`.
    public func updateHighlightAnchor(_ highlight: Highlight) throws {
        try locked {
            try database.query("""
                UPDATE highlights SET article_index = ?, start_block = ?, start_offset = ?, end_block = ?, end_offset = ?, article_title = ?,
                    passage = ?, before_text = ?, after_text = ?, is_lost = ? WHERE id = ?
                """, Self.anchorValues(highlight) + [.integer(highlight.isLost ? 1 : 0), .integer(highlight.id)])
        }
    }

    public func setNote(_ note: String, highlightID: Int64) throws {
        try locked { try database.query("UPDATE highlights SET note = ? WHERE id = ?", [.text(TextSanitizer.singleLine(note)), .integer(highlightID)]) }
    }

    public func deleteHighlight(id: Int64) throws {
        try locked { try database.query("DELETE FROM highlights WHERE id = ?", [.integer(id)]) }
    }

    /// An issue's highlights in reading order (those no longer found last).
    public func highlights(issueID: Int64) throws -> [Highlight] {
        try locked {
            try database.query("SELECT \(Self.highlightColumns) FROM highlights WHERE issue_id = ? ORDER BY is_lost, article_index, start_block, start_offset, id",
                               [.integer(issueID)]).map(Self.highlight(from:))
        }
    }

    /// The ids of the issues that have highlights, oldest issue entry first (for exporting the whole library).
    public func issuesWithHighlights() throws -> [Int64] {
        try locked { try database.query("SELECT DISTINCT issue_id FROM highlights ORDER BY issue_id").compactMap { $0.first?.int64 } }
    }

    /// An issue's bookmarks and highlights.
    public func marks(issueID: Int64) throws -> IssueMarks {
        IssueMarks(bookmarks: try bookmarks(issueID: issueID), highlights: try highlights(issueID: issueID))
    }

    // MARK: Rows

    private static let highlightColumns = """
        id, issue_id, article_index, start_block, start_offset, end_block, end_offset, article_title, passage, before_text, after_text, note, is_lost, created_at
        """

    private static func int(_ value: SQLiteValue) -> Int { Int(value.int64 ?? 0) }

    private static func anchorValues(_ highlight: Highlight) -> [SQLiteValue] {
        [.integer(Int64(highlight.start.articleIndex)), .integer(Int64(highlight.start.blockIndex)), .integer(Int64(highlight.start.characterOffset)),
         .integer(Int64(highlight.end.blockIndex)), .integer(Int64(highlight.end.characterOffset)),
         .text(TextSanitizer.singleLine(highlight.articleTitle)), .text(TextSanitizer.singleLine(highlight.text)),
         .text(TextSanitizer.singleLine(highlight.before)), .text(TextSanitizer.singleLine(highlight.after))]
    }

    private static func highlight(from row: [SQLiteValue]) -> Highlight {
        let article = int(row[2])
        return Highlight(id: row[0].int64 ?? 0, issueID: row[1].int64 ?? 0,
                         start: ReadingPosition(articleIndex: article, blockIndex: int(row[3]), characterOffset: int(row[4])),
                         end: ReadingPosition(articleIndex: article, blockIndex: int(row[5]), characterOffset: int(row[6])),
                         articleTitle: row[7].string ?? "", text: row[8].string ?? "", before: row[9].string ?? "", after: row[10].string ?? "",
                         note: row[11].string ?? "", isLost: row[12].int64 == 1, created: Date(timeIntervalSince1970: row[13].double ?? 0))
    }
}
