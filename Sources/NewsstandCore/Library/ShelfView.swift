/// How a shelf is shown: its order and which of its issues. Every combination is read a window at a time by keyset
/// paging over an index (`LibraryStore+Window`, migration 15), never by loading the shelf.
public struct ShelfView: Hashable, Sendable {
    public enum Sort: String, CaseIterable, Sendable {
        /// Date descending, then id descending: the shelf's own order.
        case newest
        /// Date ascending, then id ascending.
        case oldest
        /// Title ascending ignoring case, then id ascending.
        case title
    }

    public enum Filter: String, CaseIterable, Sendable {
        case all
        /// On disk (state available).
        case downloaded
        /// NEW: arrived after subscribing and not opened.
        case new
        /// Never opened (or marked unread).
        case unread

        /// The condition in SQL, spelled exactly as in its partial index's WHERE (SQLite uses a partial index only then).
        var condition: String? {
            switch self {
            case .all: nil
            case .downloaded: "state = 'available'"
            case .new: "arrived_new = 1 AND opened_at IS NULL"
            case .unread: "opened_at IS NULL"
            }
        }

        /// Whether an issue is shown under this filter (as the condition says).
        public func includes(_ issue: Issue) -> Bool {
            switch self {
            case .all: true
            case .downloaded: issue.state == .available
            case .new: issue.isNew
            case .unread: issue.openedAt == nil
            }
        }
    }

    public var sort: Sort
    public var filter: Filter

    public init(sort: Sort = .newest, filter: Filter = .all) {
        self.sort = sort
        self.filter = filter
    }

    /// Newest first, every issue: the shelf as it opens.
    public static let standard = ShelfView()
}

extension CaseIterable where Self: Equatable, AllCases.Index == Int {
    /// The case after this one, round to the first.
    public var next: Self {
        let all = Self.allCases
        let index = all.firstIndex(of: self) ?? 0
        return all[(index + 1) % all.count]
    }
}
