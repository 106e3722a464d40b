import Foundation
import NewsstandCore

/// How a headline is named on the command line: `PUBLICATION/headline-N` (N counting from 1 in the order
/// `newsstand headlines` and the headlines screen list them; `search` prints the same), or, for one from an account,
/// the server's item id in either spelling.
struct HeadlineReference {
    let publication: Publication
    /// What the library knows the headline by across refreshes (a later refresh may move it from place N).
    let key: String
    let position: Int
    let headline: Headline

    /// The name as typed: `PUBLICATION/headline-N`.
    static func name(publication: Publication, position: Int) -> String {
        "\(publication.name)/headline-\(position + 1)"
    }

    var name: String { Self.name(publication: publication, position: position) }

    /// The headline `text` names; nil when it is not a headline's name; throws when it names one that is not there.
    static func find(_ text: String, in store: LibraryStore) throws -> HeadlineReference? {
        if let item = ServerItemID(text), text.hasPrefix("tag:") || Int64(text) != nil,
           let found = try store.headline(serverItem: item), let publication = try store.publication(id: found.publicationID),
           let headline = try store.headline(publicationID: found.publicationID, key: found.key) {
            return HeadlineReference(publication: publication, key: found.key, position: headline.position, headline: headline.headline)
        }
        guard let slash = text.lastIndex(of: "/") else { return nil }
        let word = text[text.index(after: slash)...].lowercased()
        var number = ""
        for prefix in ["headline-", "headline "] where word.hasPrefix(prefix) { number = String(word.dropFirst(prefix.count)) }
        guard let position = Int(number) else { return nil }
        let publicationName = String(text[..<slash])
        guard let publication = try store.findPublication(publicationName) else {
            throw CommandFailure("no publication named '\(publicationName)'")
        }
        guard position >= 1, let headline = try store.headline(publicationID: publication.id, at: position - 1), let key = headline.key else {
            throw CommandFailure("\(publication.name) has no headline \(position) (see `newsstand headlines \(publication.name)`)")
        }
        return HeadlineReference(publication: publication, key: key, position: position - 1, headline: headline)
    }
}
