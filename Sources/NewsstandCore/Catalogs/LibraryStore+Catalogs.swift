import Foundation

/// Where a subscription to a catalog root came from: the root it was given and the feed of it chosen as the shelf.
extension LibraryStore {
    /// Records that `publicationID` reads `feedTitle` (`feedURL`) of the catalog at `root`, and points its refreshes there.
    /// The feed's validators are dropped, so the next refresh reads it in full.
    public func setCatalogFeed(publicationID: Int64, root: URL, feedURL: URL, feedTitle: String?) throws {
        try locked {
            try database.query("UPDATE publications SET catalog_root_url = ?, catalog_feed_title = ?, feed_url = ?, etag = NULL, last_modified = NULL WHERE id = ?",
                               [.text(URLCredentials.removingUserInformation(from: root).absoluteString), feedTitle.map { .text($0) } ?? .null,
                                .text(URLCredentials.removingUserInformation(from: feedURL).absoluteString), .integer(publicationID)])
        }
    }

    /// The catalog root and the chosen feed's title, when the publication was subscribed through a root.
    public func catalogFeed(publicationID: Int64) throws -> (root: URL, feedTitle: String?)? {
        try locked {
            guard let row = try database.query("SELECT catalog_root_url, catalog_feed_title FROM publications WHERE id = ?", [.integer(publicationID)]).first,
                  let text = row[0].string, let root = URL(string: text) else { return nil }
            return (root, row[1].string)
        }
    }

    /// Removes the publication's issues that were never downloaded, but for those named in `names`.
    public func removeUndownloadedIssues(publicationID: Int64, except names: Set<String>) throws {
        try locked {
            try database.transaction {
                let rows = try database.query("SELECT name FROM issues WHERE publication_id = ? AND state = 'none'", [.integer(publicationID)])
                for row in rows {
                    guard let name = row[0].string, !names.contains(name) else { continue }
                    try database.query("DELETE FROM issues WHERE publication_id = ? AND name = ?", [.integer(publicationID), .text(name)])
                }
            }
        }
    }
}

extension Publication {
    /// The title with the catalog feed it reads, when it came from a catalog root: "calibre Library (By Newest)".
    public var subscribedTitle: String {
        guard let feed = catalogFeedTitle, !feed.isEmpty else { return title }
        return "\(title) (\(feed))"
    }
}
