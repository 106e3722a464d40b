import Foundation

/// Subscribes to every feed of an OPML document that is not subscribed yet.
public enum OPMLImport {
    /// What an import did.
    public struct Result: Sendable, Equatable {
        public var added: Int
        public var alreadySubscribed: Int
        /// "Title (URL): reason" for each feed that could not be added.
        public var failures: [String]

        /// One line for people: "Imported 2 subscriptions; 1 already subscribed."
        public var summary: String {
            "Imported \(added) subscription\(added == 1 ? "" : "s")" + (alreadySubscribed > 0 ? "; \(alreadySubscribed) already subscribed" : "") + "."
        }
    }

    /// Fetches and checks each new feed before subscribing (blocking; run it off the UI thread).
    ///
    /// A feed URL with a login in it (`https://user:password@host/feed`) is subscribed without it; the login moves
    /// to `credentials` (without one, it is dropped), and a login that cannot be saved fails that feed.
    public static func run(_ document: OPMLDocument, store: LibraryStore, credentials: CredentialStore? = nil,
                           client: HTTPClient = .shared) throws -> Result {
        let known = Set(try store.publications().map(\.feedURL))
        let refresher = PublicationRefresher(store: store, client: client)
        var result = Result(added: 0, alreadySubscribed: 0, failures: [])
        for outline in document.outlines {
            let feedURL = URLCredentials.removingUserInformation(from: outline.feedURL)
            if known.contains(feedURL) {
                result.alreadySubscribed += 1
                continue
            }
            do {
                if let credentials {
                    do {
                        _ = try credentials.takeLogin(from: outline.feedURL.absoluteString)
                    } catch {
                        throw CatalogError("its login could not be saved: \(error)")
                    }
                }
                _ = try refresher.subscribe(to: feedURL, title: outline.title)
                result.added += 1
            } catch {
                result.failures.append("\(outline.title) (\(feedURL.absoluteString)): \(error)")
            }
        }
        return result
    }

    /// The library's subscriptions as an OPML document (never with a login in a URL).
    public static func export(store: LibraryStore) throws -> OPMLDocument {
        OPMLDocument(outlines: try store.publications().filter(\.isSubscribed).map {
            OPMLDocument.Outline(title: $0.title, feedURL: URLCredentials.removingUserInformation(from: $0.feedURL))
        })
    }
}
