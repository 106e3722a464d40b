/// A question asked on the bottom line: text to type, or a choice to confirm. While it is open, keys go to it.
public struct Prompt: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        /// Type or paste a feed URL to subscribe to.
        case addSubscription
        /// Type a new title for a publication.
        case rename(publicationID: Int64)
        /// y: keep the downloaded issues, n: remove them too, Esc: do nothing.
        case confirmUnsubscribe(publicationID: Int64)
    }

    public var kind: Kind
    public var label: String
    public var field: TextField

    public init(kind: Kind, label: String, text: String = "") {
        self.kind = kind
        self.label = label
        field = TextField(text)
    }

    /// Whether the prompt takes typed text (otherwise it waits for one key).
    public var takesText: Bool {
        if case .confirmUnsubscribe = kind { return false }
        return true
    }
}
