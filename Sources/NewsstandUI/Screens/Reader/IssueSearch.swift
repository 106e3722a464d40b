/// A search within the open issue: the text, and (once found) where it occurs.
public struct IssueSearch: Equatable, Sendable {
    public var query: String
    /// Blocks containing the text, in reading order; nil while the search runs.
    public var matches: [IssueMatch]?
    /// Go to the first match when the results arrive (a search typed in the reader; not one opened from the results screen).
    public var jumpsToFirstMatch: Bool

    public init(query: String, matches: [IssueMatch]? = nil, jumpsToFirstMatch: Bool = true) {
        self.query = query
        self.matches = matches
        self.jumpsToFirstMatch = jumpsToFirstMatch
    }
}
