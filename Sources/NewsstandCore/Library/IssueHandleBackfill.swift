import Foundation

/// Migration 9's work in Swift: gives each issue of an older library its handle (see `IssueHandle`), in the order
/// the issues arrived, so of two issues with one title the older keeps the plain handle. Runs in the migration's
/// transaction: one read of the issues, then one update per issue.
enum IssueHandleBackfill {
    static func run(_ database: SQLiteDatabase) throws {
        var taken: [Int64: Set<String>] = [:]
        for row in try database.query("SELECT publication_id, handle FROM issues WHERE handle IS NOT NULL") {
            if let publication = row[0].int64, let handle = row[1].string { taken[publication, default: []].insert(handle) }
        }
        var allocators: [Int64: IssueHandleAllocator] = [:]
        for row in try database.query("SELECT id, publication_id, name, title, date FROM issues WHERE handle IS NULL ORDER BY id") {
            guard let id = row[0].int64, let publication = row[1].int64 else { continue }
            let candidates = IssueHandle.candidates(catalogID: row[2].string ?? "", title: row[3].string ?? "",
                                                    date: Date(timeIntervalSince1970: row[4].double ?? 0))
            let handle = try allocators[publication, default: IssueHandleAllocator()].assign(
                candidates: candidates, isTaken: { taken[publication, default: []].contains($0) },
                claim: { taken[publication, default: []].insert($0).inserted })
            try database.query("UPDATE issues SET handle = ? WHERE id = ?", [.text(handle), .integer(id)])
        }
    }
}
