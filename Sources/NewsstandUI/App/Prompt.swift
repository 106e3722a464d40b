/// A question on the bottom line: text to type (a feed URL, a title, a search, a link number) or a
/// choice to confirm. While it is open, keys go to it.
public struct Prompt: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        /// Type or paste a feed URL to subscribe to.
        case addSubscription
        /// Type a new title for a publication.
        case rename(publicationID: Int64)
        /// y: keep the downloaded issues, n: remove them too, Esc: do nothing.
        case confirmUnsubscribe(publicationID: Int64, title: String)
        /// `/` in the reader: search the open issue.
        case searchIssue
        /// `/` on the shelf: search every downloaded issue.
        case searchLibrary
        /// `o`: the number of a link of the article.
        case link
        /// A path to an OPML file to import subscriptions from.
        case importOPML
        /// A path to write the subscriptions to as OPML.
        case exportOPML
    }

    public var kind: Kind
    public var field: TextField

    public init(_ kind: Kind, text: String = "") {
        self.kind = kind
        field = TextField(text)
    }

    /// What has been typed.
    public var text: String { field.text }

    /// What the bottom line says before the typed text.
    public var label: String {
        switch kind {
        case .addSubscription: "Feed URL: "
        case .rename: "New title: "
        case .confirmUnsubscribe(_, let title): "Unsubscribe from \(title) — keep its downloaded issues? y keep · n remove them · Esc cancel"
        case .searchIssue: "Search this issue: "
        case .searchLibrary: "Search all issues: "
        case .link: "Open link: "
        case .importOPML: "Import OPML from: "
        case .exportOPML: "Export OPML to: "
        }
    }

    /// Whether the prompt takes typed text (otherwise it waits for one key).
    public var takesText: Bool {
        if case .confirmUnsubscribe = kind { return false }
        return true
    }

    /// Whether `character` may be typed here: a link number takes up to six digits.
    func accepts(_ character: Character) -> Bool {
        if kind == .link { return character.isASCII && character.isNumber && text.count < 6 }
        return text.count < 500
    }
}
