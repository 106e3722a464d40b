import Foundation
import NewsstandContent

/// Whole articles kept with their headlines (`headline_articles`, migration 18): saved when fetched, read back offline,
/// found by search (a headline's indexed text takes its article's in), counted for storage, and gone with the headline.
extension LibraryStore {
    /// Keeps `stored` with the publication's headline(s) linking to its page, and indexes its text with theirs (a page
    /// found without an article never replaces an article kept). Returns false, keeping nothing, when no headline of
    /// the publication links there any more (a refresh took it away).
    @discardableResult
    public func saveHeadlineArticle(_ stored: StoredHeadlineArticle, publicationID: Int64) throws -> Bool {
        let link = stored.link.absoluteString
        let article = stored.article
        let text = article.readerable ? article.text : ""
        return try locked {
            try database.transaction {
                let headlines = try database.query("SELECT position, title, summary, body FROM headlines WHERE publication_id = ? AND link = ?",
                                                   [.integer(publicationID), .text(link)])
                guard !headlines.isEmpty else { return false }
                // A page that has lost its article (an error page, a paywall) does not replace the article kept.
                if !article.readerable, try database.query("SELECT readerable FROM headline_articles WHERE publication_id = ? AND link = ?",
                                                           [.integer(publicationID), .text(link)]).first?.first?.int64 == 1 {
                    return true
                }
                func optional(_ value: String?) -> SQLiteValue { value.map { .text($0) } ?? .null }
                try database.query("""
                    INSERT OR REPLACE INTO headline_articles (publication_id, link, readerable, title, byline, excerpt, published, site_name,
                        lang, dir, lead_image, blocks, text, fetched_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, [.integer(publicationID), .text(link), .integer(article.readerable ? 1 : 0), optional(article.title),
                          optional(article.byline), optional(article.excerpt), optional(article.published), optional(article.siteName),
                          optional(article.lang), optional(article.dir), optional(article.leadImage?.absoluteString),
                          .text(article.readerable ? TextBlockJSON.encode(article.blocks) : "[]"), .text(text),
                          .real(stored.fetchedAt.timeIntervalSince1970)])
                for row in headlines {
                    let position = row[0].int64 ?? 0
                    let item = Headline(title: row[1].string ?? "", summary: row[2].string ?? "", body: row[3].string ?? "")
                    try database.query("DELETE FROM headline_text WHERE publication_id = ? AND position = ?", [.integer(publicationID), .integer(position)])
                    try database.query("INSERT INTO headline_text (title, body, publication_id, position) VALUES (?, ?, ?, ?)",
                                       [.text(Self.searchable(item.title)), .text(Self.indexedText(of: item, articleText: text)),
                                        .integer(publicationID), .integer(position)])
                }
                return true
            }
        }
    }

    /// The article kept for the publication's headline linking to `link`, if one was fetched.
    public func headlineArticle(publicationID: Int64, link: URL) throws -> StoredHeadlineArticle? {
        try locked {
            try database.query("""
                SELECT readerable, title, byline, excerpt, published, site_name, lang, dir, lead_image, blocks, fetched_at
                FROM headline_articles WHERE publication_id = ? AND link = ?
                """, [.integer(publicationID), .text(link.absoluteString)]).first.map { row in
                let readerable = row[0].int64 == 1
                let article = ExtractedArticle(title: row[1].string, byline: row[2].string, excerpt: row[3].string, published: row[4].string,
                                               siteName: row[5].string, lang: row[6].string, dir: row[7].string, readerable: readerable,
                                               leadImage: row[8].string.flatMap(URL.init(string:)),
                                               blocks: readerable ? TextBlockJSON.decode(row[9].string ?? "[]") ?? [] : [])
                return StoredHeadlineArticle(link: link, article: article, fetchedAt: Date(timeIntervalSince1970: row[10].double ?? 0))
            }
        }
    }

    /// The links of the publication's headlines whose whole article is kept (pages with an article).
    public func wholeArticleLinks(publicationID: Int64) throws -> Set<URL> {
        try locked {
            Set(try database.query("SELECT link FROM headline_articles WHERE publication_id = ? AND readerable = 1", [.integer(publicationID)])
                .compactMap { $0[0].string.flatMap(URL.init(string:)) })
        }
    }

    /// The links of the publication's headlines that have no article kept (fetched or found to have none), in feed
    /// order (the newest first, as feeds list them), at most `limit`.
    public func headlineLinksWithoutArticle(publicationID: Int64, limit: Int) throws -> [URL] {
        try locked {
            try database.query("""
                SELECT h.link FROM headlines h
                WHERE h.publication_id = ?1 AND h.link IS NOT NULL
                  AND NOT EXISTS (SELECT 1 FROM headline_articles a WHERE a.publication_id = ?1 AND a.link = h.link)
                GROUP BY h.link ORDER BY min(h.position) LIMIT ?2
                """, [.integer(publicationID), .integer(Int64(limit))]).compactMap { $0[0].string.flatMap(URL.init(string:)) }
        }
    }

    /// Whole articles kept per publication: how many (with an article; pages found to have none are not counted) and
    /// the bytes they take in the library.
    public func headlineArticleUsage() throws -> [Int64: (count: Int, bytes: Int64)] {
        try locked {
            var usage: [Int64: (count: Int, bytes: Int64)] = [:]
            for row in try database.query("""
                SELECT publication_id, sum(readerable), sum(length(CAST(blocks AS BLOB)) + length(CAST(text AS BLOB)) + length(CAST(link AS BLOB))
                    + coalesce(length(CAST(title AS BLOB)), 0) + coalesce(length(CAST(byline AS BLOB)), 0) + coalesce(length(CAST(excerpt AS BLOB)), 0))
                FROM headline_articles GROUP BY publication_id
                """) {
                usage[row[0].int64 ?? 0] = (Int(row[1].int64 ?? 0), row[2].int64 ?? 0)
            }
            return usage
        }
    }

    /// Sets a publication's own `full-text` setting (nil: the config's).
    public func setFullText(_ mode: FullTextMode?, publicationID: Int64) throws {
        try locked {
            try database.query("UPDATE publications SET full_text = ? WHERE id = ?", [mode.map { .text($0.rawValue) } ?? .null, .integer(publicationID)])
        }
    }

    // MARK: Kept with the headlines (called by `replaceHeadlines`, inside its lock and transaction)

    /// The text of the publication's kept articles by link (pages with an article only).
    static func articleTexts(in database: SQLiteDatabase, publicationID: Int64) throws -> [String: String] {
        var texts: [String: String] = [:]
        for row in try database.query("SELECT link, text FROM headline_articles WHERE publication_id = ? AND readerable = 1", [.integer(publicationID)]) {
            if let link = row[0].string { texts[link] = row[1].string ?? "" }
        }
        return texts
    }

    /// Removes the articles of the publication whose link no headline has any more.
    static func removeDepartedArticles(in database: SQLiteDatabase, publicationID: Int64) throws {
        try database.query("""
            DELETE FROM headline_articles WHERE publication_id = ?1
              AND link NOT IN (SELECT link FROM headlines WHERE publication_id = ?1 AND link IS NOT NULL)
            """, [.integer(publicationID)])
    }

    /// What the search index holds for a headline: its own text (its body's, else its summary) and its article's.
    static func indexedText(of headline: Headline, articleText: String?) -> String {
        let own = headline.body.isEmpty ? headline.summary : FeedText.html(headline.body)
        guard let articleText, !articleText.isEmpty else { return searchable(own) }
        return searchable(own + " " + articleText)
    }
}
