/// A parsed publisher catalog: its issues, plus the entries it had to skip and why.
public struct Catalog: Sendable, Equatable {
    /// The publication's title when the catalog names it.
    public var title: String?
    public var entries: [CatalogEntry]
    /// Plain-words reasons for entries that were skipped (missing keys, bad URLs).
    public var problems: [String]

    public init(title: String? = nil, entries: [CatalogEntry], problems: [String] = []) {
        self.title = title
        self.entries = entries
        self.problems = problems
    }
}
