import Foundation
import NewsstandCore

/// `newsstand list [--json]`: every issue with its publication, date and state.
enum ListCommand {
    /// One issue as printed, and as an object of `--json`: `name` is the handle people type, `id` the catalog's own id.
    struct Row: Encodable {
        let publication: String
        let name: String
        let id: String
        let title: String
        let date: String
        let state: String
        let progress: Double
        let summary: String
        let failure: String?
        let new: Bool
        /// Opened or marked read (here, or on an account's server).
        var read = false
        /// Starred (here or on an account's server): kept whatever the storage budget.
        var starred = false
    }

    static func run(_ arguments: inout ArgumentList) throws {
        let json = arguments.flag("--json")
        try arguments.finish()
        let context = try LibraryContext.open()
        let publications = Dictionary(uniqueKeysWithValues: try context.store.publications().map { ($0.id, $0) })
        let formatter = ISO8601DateFormatter()
        let starred = try context.store.starredIssueIDs()
        let rows = try context.store.allIssues().map { issue -> Row in
            var failure: String? = nil
            if case .failed(let reason) = issue.state { failure = reason }
            var row = Row(publication: publications[issue.publicationID]?.name ?? "", name: issue.handle, id: issue.name, title: issue.title,
                          date: formatter.string(from: issue.date), state: issue.state.storedName,
                          progress: issue.state == .available ? 1 : issue.progress, summary: issue.summary, failure: failure, new: issue.isNew)
            row.read = issue.openedAt != nil
            row.starred = starred.contains(issue.id)
            return row
        }
        if json {
            try JSONOutput.print(rows)
            return
        }
        if rows.isEmpty {
            print("No issues. Subscribe to a publication with: newsstand subscribe URL")
            return
        }
        for row in rows {
            let state = row.state == "downloading" || row.state == "paused" ? "\(row.state) \(Int(row.progress * 100))%" : row.state
            print("\(row.publication)/\(row.name)\t\(row.date.prefix(10))\t\(state)\t\(row.new ? "NEW " : "")\(row.starred ? "★ " : "")\(row.title)")
        }
    }
}
