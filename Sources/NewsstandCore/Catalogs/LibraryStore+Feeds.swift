import Foundation

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

    /// Replaces the publication's headlines with `headlines`, in feed order, in one transaction. Their states stay with
    /// them (``HeadlineKey``); one new to the library starts read or starred as given (an account's server says so), and
    /// NEW when `markingNewArrivals` and unread. Starred headlines the new list leaves out stay, after it; the states of
    /// the others that went go too.
    public func replaceHeadlines(_ headlines: [Headline], publicationID: Int64, markingNewArrivals: Bool = false, at date: Date = Date()) throws {
        try locked {
            try database.transaction {
                let kept = try database.query("""
                    SELECT \(Self.headlineColumns) FROM headlines h \(Self.stateJoin)
                    WHERE h.publication_id = ? AND s.is_starred = 1 ORDER BY h.position
                    """, [.integer(publicationID)]).map(Self.headline(from:))
                let known = markingNewArrivals ? Set(try database.query("SELECT \(HeadlineKey.sql("h")) FROM headlines h WHERE h.publication_id = ?",
                                                                        [.integer(publicationID)]).compactMap { $0.first?.string }) : []
                try database.query("DELETE FROM headlines WHERE publication_id = ?", [.integer(publicationID)])
                try database.query("DELETE FROM headline_text WHERE publication_id = ?", [.integer(publicationID)])
                let articleTexts = try Self.articleTexts(in: database, publicationID: publicationID)
                var keys = Set<String>()
                var position = 0
                for headline in headlines {
                    let key = try insertHeadline(headline, publicationID: publicationID, position: position,
                                                 articleText: headline.link.flatMap { articleTexts[$0.absoluteString] })
                    position += 1
                    guard let key else { continue }
                    keys.insert(key)
                    // A state to record, or one already there whose item id may be new to it.
                    let isNew = markingNewArrivals && !headline.isRead && !known.contains(key)
                    guard headline.serverItem != nil || headline.isRead || headline.isStarred || isNew else { continue }
                    try database.query("""
                        INSERT INTO headline_states (publication_id, key, item_id, read_at, is_starred, arrived_new) VALUES (?, ?, ?, ?, ?, ?)
                        ON CONFLICT (publication_id, key) DO UPDATE SET item_id = coalesce(excluded.item_id, item_id)
                        """, [.integer(publicationID), .text(key), headline.serverItem.map { .integer($0.value) } ?? .null,
                              headline.isRead ? .real(date.timeIntervalSince1970) : .null, .integer(headline.isStarred ? 1 : 0),
                              .integer(isNew ? 1 : 0)])
                }
                for headline in kept where !keys.contains(headline.key ?? "") {
                    let key = try insertHeadline(headline, publicationID: publicationID, position: position,
                                                 articleText: headline.link.flatMap { articleTexts[$0.absoluteString] })
                    position += 1
                    if let key { keys.insert(key) }
                }
                try database.query("""
                    DELETE FROM headline_states WHERE publication_id = ?1
                    AND key NOT IN (SELECT \(HeadlineKey.sql("h")) FROM headlines h WHERE h.publication_id = ?1)
                    """, [.integer(publicationID)])
                try Self.removeDepartedArticles(in: database, publicationID: publicationID)
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
    /// of them, not waited for on the disk (a power cut may forget when they were checked, nothing else). The title,
    /// last problem and validators stay as the last fetch that brought content left them.
    public func recordUnchangedRefreshes(_ refreshes: [(publicationID: Int64, date: Date)]) throws {
        guard !refreshes.isEmpty else { return }
        try locked {
            try database.transaction(waitingForDisk: false) {
                for refresh in refreshes {
                    try database.query("UPDATE publications SET last_refresh = ? WHERE id = ?",
                                       [.real(refresh.date.timeIntervalSince1970), .integer(refresh.publicationID)])
                }
            }
        }
    }

    /// The publication's headlines with their states, in the order its feed gave them (starred ones it no longer gives
    /// after), without their bodies (`headline(publicationID:at:)` has them).
    public func headlines(publicationID: Int64) throws -> [Headline] {
        try locked {
            try database.query("SELECT \(Self.headlineColumnsWithoutBody) FROM headlines h \(Self.stateJoin) WHERE h.publication_id = ? ORDER BY h.position",
                               [.integer(publicationID)]).map(Self.headline(from:))
        }
    }

    /// The headline at `position` (0-based, feed order) with its body and state, or nil when there is none there.
    public func headline(publicationID: Int64, at position: Int) throws -> Headline? {
        try locked {
            try database.query("SELECT \(Self.headlineColumns) FROM headlines h \(Self.stateJoin) WHERE h.publication_id = ? AND h.position = ?",
                               [.integer(publicationID), .integer(Int64(position))]).first.map(Self.headline(from:))
        }
    }
}
