import Foundation
import NewsstandContent

/// Feed state kept per publication: the HTTP validators of its last good fetch, and its headlines.
extension LibraryStore {
    /// The validators (ETag, Last-Modified) of the publication's last successful fetch, if any.
    public func feedValidators(publicationID: Int64) throws -> FetchValidators? {
        try locked {
            guard let row = try database.query("SELECT etag, last_modified FROM publications WHERE id = ?", [.integer(publicationID)]).first else { return nil }
            let validators = FetchValidators(etag: row[0].string, lastModified: row[1].string)
            return validators.isEmpty ? nil : validators
        }
    }

    /// Stores (or, with nil, forgets) the validators to send with the publication's next refresh.
    /// Remembers the format a publication's feed was read as.
    public func setFeedFormat(_ format: FeedFormat, publicationID: Int64) throws {
        try locked {
            try database.query("UPDATE publications SET feed_format = ? WHERE id = ?", [.text(format.rawValue), .integer(publicationID)])
        }
    }

    public func setFeedValidators(_ validators: FetchValidators?, publicationID: Int64) throws {
        try locked {
            try database.query("UPDATE publications SET etag = ?, last_modified = ? WHERE id = ?",
                               [validators?.etag.map { .text($0) } ?? .null, validators?.lastModified.map { .text($0) } ?? .null,
                                .integer(publicationID)])
        }
    }

    /// Replaces the publication's headlines with `headlines`, in feed order, in one transaction.
    public func replaceHeadlines(_ headlines: [Headline], publicationID: Int64) throws {
        try locked {
            try database.transaction {
                try database.query("DELETE FROM headlines WHERE publication_id = ?", [.integer(publicationID)])
                try database.query("DELETE FROM headline_text WHERE publication_id = ?", [.integer(publicationID)])
                for (position, headline) in headlines.enumerated() {
                    try database.query("""
                        INSERT INTO headlines (publication_id, position, title, link, date, summary, media_url, media_kind, body)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """,
                                       [.integer(publicationID), .integer(Int64(position)), .text(TextSanitizer.singleLine(headline.title)),
                                        headline.link.map { .text($0.absoluteString) } ?? .null,
                                        headline.date.map { .real($0.timeIntervalSince1970) } ?? .null,
                                        .text(TextSanitizer.singleLine(headline.summary)),
                                        headline.mediaURL.map { .text($0.absoluteString) } ?? .null,
                                        headline.mediaKind.map { .text(TextSanitizer.singleLine($0)) } ?? .null,
                                        .text(headline.body)])
                    try database.query("INSERT INTO headline_text (title, body, publication_id, position) VALUES (?, ?, ?, ?)",
                                       [.text(Self.searchable(headline.title)),
                                        .text(Self.searchable(headline.body.isEmpty ? headline.summary : FeedText.html(headline.body))),
                                        .integer(publicationID), .integer(Int64(position))])
                }
            }
        }
    }

    /// How many headlines a publication has.
    public func headlineCount(publicationID: Int64) throws -> Int {
        try locked {
            Int(try database.query("SELECT count(*) FROM headlines WHERE publication_id = ?", [.integer(publicationID)]).first?.first?.int64 ?? 0)
        }
    }

    /// How many headlines each publication has (those with none are absent), in one query.
    public func headlineCounts() throws -> [Int64: Int] {
        try locked {
            var counts: [Int64: Int] = [:]
            for row in try database.query("SELECT publication_id, count(*) FROM headlines GROUP BY publication_id") {
                if let id = row[0].int64 { counts[id] = Int(row[1].int64 ?? 0) }
            }
            return counts
        }
    }

    /// How many issues and headlines a publication has, read together (what an unchanged feed's refresh reports).
    public func issueAndHeadlineCounts(publicationID: Int64) throws -> (issues: Int, headlines: Int) {
        try locked {
            let row = try database.query("""
                SELECT (SELECT total FROM issue_counts WHERE publication_id = ?1), (SELECT count(*) FROM headlines WHERE publication_id = ?1)
                """, [.integer(publicationID)]).first
            return (Int(row?[0].int64 ?? 0), Int(row?[1].int64 ?? 0))
        }
    }

    /// Records refreshes that found their feeds unchanged (HTTP 304): only the time, in one transaction for all
    /// of them. The title, last problem and validators stay as the last fetch that brought content left them.
    public func recordUnchangedRefreshes(_ refreshes: [(publicationID: Int64, date: Date)]) throws {
        guard !refreshes.isEmpty else { return }
        try locked {
            try database.transaction {
                for refresh in refreshes {
                    try database.query("UPDATE publications SET last_refresh = ? WHERE id = ?",
                                       [.real(refresh.date.timeIntervalSince1970), .integer(refresh.publicationID)])
                }
            }
        }
    }

    /// The publication's headlines, in the order its feed gave them, without their bodies (`headline(publicationID:at:)` has them).
    public func headlines(publicationID: Int64) throws -> [Headline] {
        try locked {
            try database.query("SELECT title, link, date, summary, media_url, media_kind FROM headlines WHERE publication_id = ? ORDER BY position",
                               [.integer(publicationID)]).map { row in
                Headline(title: row[0].string ?? "", link: row[1].string.flatMap(URL.init(string:)),
                         date: row[2].double.map(Date.init(timeIntervalSince1970:)), summary: row[3].string ?? "",
                         mediaURL: row[4].string.flatMap(URL.init(string:)), mediaKind: row[5].string)
            }
        }
    }

    /// The headline at `position` (0-based, feed order) with its body, or nil when there is none there.
    public func headline(publicationID: Int64, at position: Int) throws -> Headline? {
        try locked {
            try database.query("""
                SELECT title, link, date, summary, media_url, media_kind, body FROM headlines WHERE publication_id = ? AND position = ?
                """, [.integer(publicationID), .integer(Int64(position))]).first.map { row in
                Headline(title: row[0].string ?? "", link: row[1].string.flatMap(URL.init(string:)),
                         date: row[2].double.map(Date.init(timeIntervalSince1970:)), summary: row[3].string ?? "",
                         mediaURL: row[4].string.flatMap(URL.init(string:)), mediaKind: row[5].string, body: row[6].string ?? "")
            }
        }
    }
}
