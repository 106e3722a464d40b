import Foundation
import NewsstandContent

/// A piece of a search snippet: the words around a match, or the matching words themselves.
public struct SnippetPart: Equatable, Sendable {
    public let text: String
    public let isMatch: Bool

    public init(_ text: String, isMatch: Bool = false) {
        self.text = text
        self.isMatch = isMatch
    }
}

/// One place in a downloaded issue where searched words occur.
public struct SearchHit: Equatable, Sendable {
    public let issueID: Int64
    /// The issue's handle (`Issue.handle`): what `newsstand read` takes after `publicationName/`.
    public let issueName: String
    public let issueTitle: String
    public let publicationName: String
    /// 0-based, as `read --article` counts from 1.
    public let articleIndex: Int
    public let articleTitle: String
    /// The block (paragraph) the words are in, as `ReadingPosition.blockIndex` counts.
    public let blockIndex: Int
    /// The words around the match, sanitised, matches marked.
    public let snippet: [SnippetPart]
    /// Set when the match is in a headline (then `issueID` is 0 and `articleTitle` is the headline's title).
    public let headline: HeadlineLocation?

    public init(issueID: Int64, issueName: String, issueTitle: String, publicationName: String, articleIndex: Int,
                articleTitle: String, blockIndex: Int, snippet: [SnippetPart], headline: HeadlineLocation? = nil) {
        self.headline = headline
        self.issueID = issueID
        self.issueName = issueName
        self.issueTitle = issueTitle
        self.publicationName = publicationName
        self.articleIndex = articleIndex
        self.articleTitle = articleTitle
        self.blockIndex = blockIndex
        self.snippet = snippet
    }

    /// The snippet as plain text.
    public var snippetText: String { snippet.map(\.text).joined() }
}

/// The full-text index of every downloaded issue (SQLite FTS5, one row per block of text).
///
/// Issues are indexed when they are installed (`DownloadQueue` calls `index(_:folder:)`), and any
/// available issue missing from the index is indexed on the first search that needs it. Rows go
/// when an issue is deleted or stops being available (triggers in the schema).
public struct IssueSearchIndex: Sendable {
    public let store: LibraryStore
    public let paths: LibraryPaths

    public init(store: LibraryStore, paths: LibraryPaths) {
        self.store = store
        self.paths = paths
    }

    /// Indexes an installed issue's text (replacing what was indexed for it). An issue whose text
    /// cannot be read is recorded as indexed with no text, so it is not tried on every search.
    /// Blocking; never throws.
    public func index(_ issue: Issue, folder: URL) {
        var articles: [(title: String, blocks: [String])] = []
        if let book = try? IssueContent.openBook(folder: folder), let blocks = try? IssueContent.allBlocks(of: book) {
            articles = zip(book.articles, blocks).map { article, blocks in (article.title, blocks.map(\.plainText)) }
        }
        try? store.replaceIssueText(issueID: issue.id, articles: articles)
    }

    /// Indexes every available issue not in the index yet; returns how many were indexed.
    @discardableResult
    public func indexMissing() -> Int {
        guard let missing = try? store.issuesMissingFromTextIndex() else { return 0 }
        var count = 0
        for issue in missing {
            guard let publication = try? store.publication(id: issue.publicationID) else { continue }
            index(issue, folder: paths.folder(for: issue, of: publication))
            count += 1
        }
        return count
    }

    /// Indexes what is missing, then finds `text` (every word, in any order; diacritics and case ignored):
    /// in issues, then in headlines, `limit` hits in all.
    public func search(_ text: String, limit: Int = 200) throws -> [SearchHit] {
        indexMissing()
        let issues = try store.searchIssueText(text, limit: limit)
        return issues + (try store.searchHeadlineText(text, limit: limit - issues.count))
    }
}

extension LibraryStore {
    /// Private-use markers SQLite puts around matches in snippets (removed from indexed text).
    static let matchStart = "\u{E000}", matchEnd = "\u{E001}"

    /// Replaces an issue's indexed text: one row per non-empty block, titled with its article's title.
    public func replaceIssueText(issueID: Int64, articles: [(title: String, blocks: [String])]) throws {
        func clean(_ text: String) -> String {
            TextSanitizer.singleLine(text).replacingOccurrences(of: Self.matchStart, with: "").replacingOccurrences(of: Self.matchEnd, with: "")
        }
        try locked {
            try database.transaction {
                guard try !database.query("SELECT 1 FROM issues WHERE id = ?", [.integer(issueID)]).isEmpty else { return }
                try database.query("DELETE FROM issue_text WHERE issue_id = ?", [.integer(issueID)])
                for (articleIndex, article) in articles.enumerated() {
                    let title = clean(article.title)
                    for (blockIndex, block) in article.blocks.enumerated() {
                        let body = clean(block)
                        guard !body.trimmingCharacters(in: .whitespaces).isEmpty else { continue }
                        try database.query("INSERT INTO issue_text (article_title, body, issue_id, article_index, block_index) VALUES (?, ?, ?, ?, ?)",
                                           [.text(title), .text(body), .integer(issueID), .integer(Int64(articleIndex)), .integer(Int64(blockIndex))])
                    }
                }
                try database.query("INSERT OR REPLACE INTO issue_text_indexed (issue_id, indexed_at) VALUES (?, ?)",
                                   [.integer(issueID), .real(Date().timeIntervalSince1970)])
            }
        }
    }

    /// Removes an issue's indexed text.
    public func removeIssueText(issueID: Int64) throws {
        try locked {
            try database.transaction {
                try database.query("DELETE FROM issue_text WHERE issue_id = ?", [.integer(issueID)])
                try database.query("DELETE FROM issue_text_indexed WHERE issue_id = ?", [.integer(issueID)])
            }
        }
    }

    /// Indexed rows of an issue (for tests and `storage`).
    public func indexedBlockCount(issueID: Int64) throws -> Int {
        try locked {
            Int(try database.query("SELECT count(*) FROM issue_text WHERE issue_id = ?", [.integer(issueID)]).first?.first?.int64 ?? 0)
        }
    }

    /// Available issues whose text is not in the index.
    public func issuesMissingFromTextIndex() throws -> [Issue] {
        try locked {
            try database.rows("""
                SELECT \(Self.issueColumns) FROM issues WHERE state = 'available'
                AND NOT EXISTS (SELECT 1 FROM issue_text_indexed x WHERE x.issue_id = issues.id) ORDER BY id
                """, as: Self.issue(from:))
        }
    }

    /// The FTS5 query for what a person typed: every word quoted (so nothing is taken as syntax), all required.
    static func matchExpression(_ text: String) -> String? {
        let words = text.split(whereSeparator: { $0.isWhitespace }).filter { $0.contains(where: { $0.isLetter || $0.isNumber }) }
        guard !words.isEmpty else { return nil }
        return words.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }.joined(separator: " ")
    }

    /// Finds `text` in the indexed text of available issues, best matches first.
    public func searchIssueText(_ text: String, limit: Int = 200) throws -> [SearchHit] {
        guard let expression = Self.matchExpression(text) else { return [] }
        let rows = try locked {
            try database.query("""
                SELECT t.issue_id, coalesce(i.handle, i.name), i.title, p.name, t.article_index, t.article_title, t.block_index,
                       snippet(issue_text, 1, ?, ?, '…', 12)
                FROM issue_text t JOIN issues i ON i.id = t.issue_id JOIN publications p ON p.id = i.publication_id
                WHERE issue_text MATCH ? AND i.state = 'available'
                ORDER BY rank LIMIT ?
                """, [.text(Self.matchStart), .text(Self.matchEnd), .text(expression), .integer(Int64(limit))])
        }
        return rows.map { row in
            SearchHit(issueID: row[0].int64 ?? 0, issueName: TextSanitizer.singleLine(row[1].string ?? ""),
                      issueTitle: TextSanitizer.singleLine(row[2].string ?? ""), publicationName: TextSanitizer.singleLine(row[3].string ?? ""),
                      articleIndex: Int(row[4].int64 ?? 0), articleTitle: TextSanitizer.singleLine(row[5].string ?? ""),
                      blockIndex: Int(row[6].int64 ?? 0), snippet: Self.snippetParts(row[7].string ?? ""))
        }
    }

    /// Splits SQLite's marked snippet into sanitised parts.
    static func snippetParts(_ snippet: String) -> [SnippetPart] {
        var parts: [SnippetPart] = []
        for (index, piece) in snippet.components(separatedBy: matchStart).enumerated() {
            let halves = piece.components(separatedBy: matchEnd)
            if index > 0, halves.count > 1 {
                parts.append(SnippetPart(TextSanitizer.singleLine(halves[0]), isMatch: true))
                parts.append(SnippetPart(TextSanitizer.singleLine(halves.dropFirst().joined())))
            } else {
                parts.append(SnippetPart(TextSanitizer.singleLine(halves.joined())))
            }
        }
        return parts.filter { !$0.text.isEmpty }
    }
}
