import Foundation
import NewsstandCore

/// `newsstand headlines PUBLICATION [--json]`: a publication's headlines (feed items with nothing to download) as the
/// headlines screen lists them, each with the name `mark` takes (`PUBLICATION/headline-N`), NEW, read and starred.
enum HeadlinesCommand {
    /// One headline as an object of `--json`: `id` is its account's item id (long form), when it comes from one.
    struct Row: Encodable {
        let name: String
        let title: String
        let date: String?
        let link: String?
        let id: String?
        let new: Bool
        let read: Bool
        let starred: Bool
    }

    static func run(_ arguments: inout ArgumentList) throws {
        let json = arguments.flag("--json")
        let reference = try arguments.positional("publication name")
        try arguments.finish()
        let context = try LibraryContext.open()
        guard let publication = try context.store.findPublication(reference) else {
            throw CommandFailure("no publication named '\(reference)' (see `newsstand subscriptions`)")
        }
        let formatter = ISO8601DateFormatter()
        let rows = try context.store.headlines(publicationID: publication.id).enumerated().map { position, headline in
            Row(name: HeadlineReference.name(publication: publication, position: position), title: headline.title,
                date: headline.date.map { formatter.string(from: $0) }, link: headline.link?.absoluteString,
                id: headline.serverItem?.longForm, new: headline.isNew, read: headline.isRead, starred: headline.isStarred)
        }
        if json {
            try JSONOutput.print(rows)
            return
        }
        if rows.isEmpty {
            print("\(publication.title) has no headlines: every item in its feed is an issue.")
            return
        }
        for row in rows {
            let state = row.new ? "NEW" : row.read ? "read" : "unread"
            print("\(row.name)\t\(row.date.map { String($0.prefix(10)) } ?? "-")\t\(state)\t\(row.starred ? "★ " : "")\(row.title)")
        }
    }
}
