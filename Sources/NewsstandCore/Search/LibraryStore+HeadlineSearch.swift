import Foundation
import NewsstandContent

/// Search in headlines (feed items read as articles), by the same rules as in issues: every word, any
/// order, diacritics and case ignored; hits say which headline (`SearchHit.headline`).
extension LibraryStore {
    /// Text as the index keeps it: one clean line, without the markers snippets use.
    static func searchable(_ text: String) -> String {
        TextSanitizer.singleLine(text).replacingOccurrences(of: matchStart, with: "").replacingOccurrences(of: matchEnd, with: "")
    }

    /// Finds `text` in the headlines' titles and text, best matches first.
    public func searchHeadlineText(_ text: String, limit: Int = 200) throws -> [SearchHit] {
        guard let expression = Self.matchExpression(text), limit > 0 else { return [] }
        let rows = try locked {
            try database.query("""
                SELECT t.publication_id, t.position, p.name, t.title, snippet(headline_text, 1, ?, ?, '…', 12)
                FROM headline_text t JOIN publications p ON p.id = t.publication_id
                WHERE headline_text MATCH ? ORDER BY rank LIMIT ?
                """, [.text(Self.matchStart), .text(Self.matchEnd), .text(expression), .integer(Int64(limit))])
        }
        return rows.map { row in
            let title = TextSanitizer.singleLine(row[3].string ?? "")
            let location = HeadlineLocation(publicationID: row[0].int64 ?? 0, position: Int(row[1].int64 ?? 0))
            var snippet = Self.snippetParts(row[4].string ?? "")
            if snippet.isEmpty { snippet = [SnippetPart(title)] }
            return SearchHit(issueID: 0, issueName: "headline \(location.position + 1)", issueTitle: "Headlines",
                             publicationName: TextSanitizer.singleLine(row[2].string ?? ""), articleIndex: 0, articleTitle: title,
                             blockIndex: 0, snippet: snippet, headline: location)
        }
    }
}

/// Where a headline is: its publication and its place in the feed (0-based).
public struct HeadlineLocation: Equatable, Hashable, Sendable {
    public let publicationID: Int64
    public let position: Int

    public init(publicationID: Int64, position: Int) {
        self.publicationID = publicationID
        self.position = position
    }
}
