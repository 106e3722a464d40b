import Foundation
import NewsstandCore

/// `newsstand subscriptions [--json]`: each subscription with its feed, policy, last refresh and issue counts.
enum SubscriptionsCommand {
    /// One subscription as printed, and as an object of `--json` (keys in snake case).
    struct Row: Encodable {
        let name: String
        let title: String
        let url: String
        let subscribed: Bool
        let autoDownload: String
        let keep: Int?
        let lastRefresh: String?
        let lastError: String?
        let issues: Int
        let downloaded: Int
        let new: Int
        /// For a subscription to a catalog root: the root, and the feed of it chosen as the shelf.
        var catalogRoot: String? = nil
        var catalogFeed: String? = nil
        /// For a subscription that comes from an account on a feed server: the account's API address.
        var account: String? = nil
        /// When its headlines get their whole article (its own `full-text`, else the config's).
        var fullText: String = FullTextMode.ask.rawValue
    }

    static func run(_ arguments: inout ArgumentList) throws {
        let json = arguments.flag("--json")
        try arguments.finish()
        let context = try LibraryContext.open()
        let formatter = ISO8601DateFormatter()
        let counts = try context.store.issueCounts()
        let accounts = Dictionary(uniqueKeysWithValues: try context.store.accounts().map { ($0.id, $0.url.absoluteString) })
        let rows = try context.store.publications().map { publication -> Row in
            let count = counts[publication.id] ?? IssueCounts()
            var row = Row(name: publication.name, title: publication.title, url: publication.feedURL.absoluteString,
                          subscribed: publication.isSubscribed, autoDownload: publication.autoDownload.rawValue, keep: publication.keepNewest,
                       lastRefresh: publication.lastRefresh.map(formatter.string(from:)), lastError: publication.lastError,
                       issues: count.total, downloaded: count.downloaded, new: count.new)
            row.catalogRoot = publication.catalogRoot?.absoluteString
            row.catalogFeed = publication.catalogFeedTitle
            row.account = publication.accountID.flatMap { accounts[$0] }
            row.fullText = (publication.fullText ?? context.configuration.fullText).rawValue
            return row
        }
        if json {
            try JSONOutput.print(rows, snakeCase: true)
            return
        }
        if rows.isEmpty { print("No subscriptions. Add one with: newsstand subscribe URL") }
        for row in rows {
            let policy = "auto-download \(row.autoDownload)" + (row.keep.map { ", keep \($0)" } ?? "") + ", full text \(row.fullText)"
            let status = row.subscribed ? (row.lastError.map { "problem: \($0)" } ?? row.lastRefresh.map { "refreshed \($0)" } ?? "never refreshed") : "unsubscribed (downloads kept)"
            let source = row.account.map { "\tfrom the account \($0)" } ?? ""
            print("\(row.name)\t\(row.title)\t\(row.new) new, \(row.downloaded) downloaded, \(row.issues) issues\t\(policy)\t\(status)\t\(row.url)\(source)")
        }
    }
}
