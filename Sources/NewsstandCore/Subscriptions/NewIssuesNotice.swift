import Foundation

/// What `notify-program` is told after a sync that brought new issues: a short summary as two arguments
/// ("3 new issues", then "Kettle & Compass: Maps & Margins, …; Other: …") and the issues as JSON on its input.
public struct NewIssuesNotice: Equatable, Sendable {
    public struct Item: Equatable, Sendable, Encodable {
        public let publication: String
        public let publicationTitle: String
        /// The issue's name as `newsstand list` prints it (what `read` and `download` take after `PUBLICATION/`).
        public let name: String
        public let title: String
        public let date: Date

        enum CodingKeys: String, CodingKey {
            case publication, publicationTitle = "publication_title", name, title, date
        }
    }

    public let items: [Item]

    /// The issues that `outcomes` brought, looked up in the library; nil when there are none.
    public init?(outcomes: [PublicationRefresher.Outcome], store: LibraryStore) {
        var items: [Item] = []
        for outcome in outcomes where !outcome.newIssueNames.isEmpty {
            guard let publication = try? store.publication(id: outcome.publicationID) else { continue }
            let issues = (try? store.issues(publicationID: publication.id)) ?? []
            let byName = Dictionary(issues.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
            for name in outcome.newIssueNames {
                let issue = byName[name]
                items.append(Item(publication: publication.name, publicationTitle: publication.title, name: issue?.handle ?? name,
                                  title: issue?.title ?? name, date: issue?.date ?? Date(timeIntervalSince1970: 0)))
            }
        }
        guard !items.isEmpty else { return nil }
        self.items = items
    }

    /// "3 new issues" and "Kettle & Compass: Maps & Margins, The Long Table; Other: …".
    public var summary: [String] {
        var order: [String] = []
        var titles: [String: [String]] = [:]
        for item in items {
            if titles[item.publicationTitle] == nil { order.append(item.publicationTitle) }
            titles[item.publicationTitle, default: []].append(item.title)
        }
        return ["\(items.count) new issue\(items.count == 1 ? "" : "s")",
                order.map { "\($0): " + (titles[$0] ?? []).joined(separator: ", ") }.joined(separator: "; ")]
    }

    /// `{"new_issues": [{"publication", "publication_title", "name", "title", "date"}]}`, dates in ISO 8601.
    public var json: Data {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(["new_issues": items])) ?? Data("{}".utf8)
    }
}
