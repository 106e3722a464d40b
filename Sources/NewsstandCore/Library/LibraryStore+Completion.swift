import Foundation

/// The names a shell completes on the command line (`newsstand __names`): issue handles and publication names
/// starting with what was typed. Each is a keyset walk on an index in name order, stopped at `limit`, so it costs
/// about the same in a library of 50 issues as in one of 50,000.
extension LibraryStore {
    /// What can be typed for an issue starting with `prefix`, in name order, at most `limit`: with a `/`, the
    /// `PUBLICATION/HANDLE` names of that publication's issues; without, the issue handles (each once) and then
    /// the publication names with a `/` after them, for typing `PUBLICATION/` first.
    public func issueNameCandidates(startingWith prefix: String, limit: Int) throws -> [String] {
        try locked {
            if let slash = prefix.firstIndex(of: "/") {
                let publication = String(prefix[..<slash])
                let handle = String(prefix[prefix.index(after: slash)...])
                return try database.query("""
                    SELECT handle FROM issues WHERE publication_id = (SELECT id FROM publications WHERE name = ?)
                    AND handle >= ? AND handle < ? ORDER BY handle LIMIT ?
                    """, [.text(publication), .text(handle), .text(Self.pastEveryName(startingWith: handle)), .integer(Int64(limit))])
                    .compactMap { $0[0].string.map { "\(publication)/\($0)" } }
            }
            // One seek on the index per name: the first handle in the range, then the first after the last one found.
            // (A DISTINCT over the range would read every issue of every handle: 50,000 rows when 1,000
            // publications share 50 handles.)
            let end = Self.pastEveryName(startingWith: prefix)
            var handles: [String] = []
            while handles.count < limit {
                let next = try handles.last.map { try database.query(Self.nextHandleQuery, [.text($0), .text(end)]) }
                    ?? database.query(Self.firstHandleQuery, [.text(prefix), .text(end)])
                guard let handle = next.first?[0].string else { break }
                handles.append(handle)
            }
            let publications = try publicationNames(startingWith: prefix, limit: limit - handles.count).map { $0 + "/" }
            return handles + publications
        }
    }

    /// The first issue handle in a range: one seek on `issues_by_handle`.
    static let firstHandleQuery = "SELECT handle FROM issues WHERE handle >= ? AND handle < ? ORDER BY handle LIMIT 1"
    /// The first issue handle after one (the keyset), up to the range's end: one seek on `issues_by_handle`.
    static let nextHandleQuery = "SELECT handle FROM issues WHERE handle > ? AND handle < ? ORDER BY handle LIMIT 1"

    /// The names of publications starting with `prefix`, in order, at most `limit`.
    public func publicationNameCandidates(startingWith prefix: String, limit: Int) throws -> [String] {
        try locked { try publicationNames(startingWith: prefix, limit: limit) }
    }

    private func publicationNames(startingWith prefix: String, limit: Int) throws -> [String] {
        guard limit > 0 else { return [] }
        return try database.query("SELECT name FROM publications WHERE name >= ? AND name < ? ORDER BY name LIMIT ?",
                                  [.text(prefix), .text(Self.pastEveryName(startingWith: prefix)), .integer(Int64(limit))])
            .compactMap { $0[0].string }
    }

    /// A text that sorts after every text starting with `prefix` and before the next one that does not (SQLite
    /// compares text bytewise, and no UTF-8 text goes past U+10FFFF), so `name >= prefix AND name < this` is the
    /// range of names starting with `prefix` on an index.
    static func pastEveryName(startingWith prefix: String) -> String {
        prefix + "\u{10FFFF}"
    }

    /// How SQLite answers a candidates query (EXPLAIN QUERY PLAN), for tests that check it reads an index.
    public func completionQueryPlan() throws -> [String] {
        try locked {
            try [Self.firstHandleQuery, Self.nextHandleQuery].flatMap { query in
                try database.query("EXPLAIN QUERY PLAN " + query, [.text("a"), .text("a\u{10FFFF}")]).compactMap { $0.last?.string }
            }
        }
    }
}
