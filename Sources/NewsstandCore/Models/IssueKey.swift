import Foundation

/// Where an issue stands in its shelf's order (newest first: date descending, then id descending); the key of keyset paging.
///
/// `date` is the issue's date as the library stores it (seconds since 1970, a REAL column). `Issue.key` takes it from
/// `Issue.date`, which gives back exactly the stored value: the library writes every issue date from a `Date`'s
/// `timeIntervalSince1970`, and such a value survives `Date(timeIntervalSince1970:)` and back unchanged.
///
/// Keys compare in shelf order: `a < b` when `a` comes before `b` on the shelf (newer, or as new with a larger id).
///
/// `title` places the issue in a shelf sorted by title (`ShelfView.Sort.title`); the shelf's own order ignores it.
public struct IssueKey: Hashable, Sendable, Comparable {
    public let date: Double
    public let id: Int64
    public let title: String

    public init(date: Double, id: Int64, title: String = "") {
        self.date = date
        self.id = id
        self.title = title
    }

    public static func < (lhs: IssueKey, rhs: IssueKey) -> Bool {
        lhs.date != rhs.date ? lhs.date > rhs.date : lhs.id > rhs.id
    }
}

extension Issue {
    /// This issue's place in its shelf's order.
    public var key: IssueKey { IssueKey(date: date.timeIntervalSince1970, id: id, title: title) }
}
