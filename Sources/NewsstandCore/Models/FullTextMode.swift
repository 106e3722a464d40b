/// When a feed's headlines get their whole article (the linked page's, extracted) instead of the feed's summary.
public enum FullTextMode: String, Sendable, CaseIterable {
    /// Only on request (`F` in the reader).
    case never
    /// On request, and by itself when a headline opened carries little text (the default).
    case ask
    /// Fetched during sync for every new headline, and as `ask` does.
    case always

    /// A headline carrying fewer words than this is a summary: opening it fetches its article (`ask`, `always`).
    public static let shortItemWords = 150

    /// "never, ask or always", for messages that say what the setting takes.
    public static let spelledOut = "never, ask or always"
}
