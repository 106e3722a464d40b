import NewsstandCore

/// What the interface holds of the library: every publication with counts from SQL, the issue being
/// read, and a window of issues for each shelf in view (the shown one and its neighbours) — never
/// the whole library, so memory and start-up stay the same at 50 issues or 50,000.
public struct LibraryWindow: Equatable, Sendable {
    public var publications: [Publication] = []
    /// Issues, downloaded and NEW issues per publication.
    public var counts: [Int64: IssueCounts] = [:]
    /// The issue being read (by key, wherever it is in the library) and where in it.
    public var readingIssue: Issue?
    public var readingPosition: ReadingPosition?
    /// Windows of issues, by publication id.
    public var windows: [Int64: IssueWindow] = [:]
    /// The window asked for per publication and not answered yet (so it is asked for once).
    public var requestedWindows: [Int64: IssueWindowRequest] = [:]
    /// The first overview has arrived.
    public var hasLoaded = false
    /// The order and filter the shelves are shown in (the windows are read in it).
    public var view = ShelfView.standard
    /// Issues per publication that the view shows, as its windows last said (the kept counts give only some filters).
    public var viewCounts: [Int64: Int] = [:]

    public init() {}

    /// Issues in a publication's shelf as the view shows it (0 while unknown).
    public func issueCount(_ publicationID: Int64) -> Int {
        if let counted = viewCounts[publicationID] { return counted }
        let counts = counts[publicationID] ?? IssueCounts()
        switch view.filter {
        case .all: return counts.total
        case .downloaded: return counts.downloaded
        case .new: return counts.new
        case .unread: return 0
        }
    }

    /// Whether `issueCount` knows the view's count (an unread view learns it from its first window).
    public func knowsIssueCount(_ publicationID: Int64) -> Bool {
        view.filter != .unread || viewCounts[publicationID] != nil
    }

    /// An issue of a window, by id (windows are small: this never looks through the library).
    public func loadedIssue(id: Int64) -> Issue? {
        for window in windows.values {
            if let issue = window.issues.first(where: { $0.id == id }) { return issue }
        }
        return nil
    }

    /// Changes an issue wherever a window (or the reading issue) holds it.
    public mutating func updateIssue(_ id: Int64, _ change: (inout Issue) -> Void) {
        for (publicationID, window) in windows {
            if let index = window.issues.firstIndex(where: { $0.id == id }) {
                change(&windows[publicationID]!.issues[index])
            }
        }
        if readingIssue?.id == id { change(&readingIssue!) }
    }
}

/// A contiguous run of one shelf's issues in shelf order (newest first): those at `start ..< start + issues.count`
/// of `total`.
public struct IssueWindow: Equatable, Sendable {
    public let publicationID: Int64
    /// Index in the shelf of the first issue held.
    public var start: Int
    public var issues: [Issue]
    /// Issues in the shelf when the window was read.
    public var total: Int
    /// The shelf's order and filter it was read in (indices and `total` are of that view).
    public var view: ShelfView

    public init(publicationID: Int64, start: Int, issues: [Issue], total: Int, view: ShelfView = .standard) {
        self.publicationID = publicationID
        self.start = start
        self.issues = issues
        self.total = total
        self.view = view
    }

    /// The shelf indices held.
    public var range: Range<Int> { start..<(start + issues.count) }

    public func issue(at index: Int) -> Issue? {
        range.contains(index) ? issues[index - start] : nil
    }

    /// The shelf index of an issue the window holds.
    public func index(ofIssue id: Int64) -> Int? {
        issues.firstIndex { $0.id == id }.map { start + $0 }
    }

    /// Whether every index of `wanted` (cut to the shelf) is held.
    public func covers(_ wanted: Range<Int>) -> Bool {
        let needed = wanted.clamped(to: 0..<total)
        return needed.isEmpty || (range.lowerBound <= needed.lowerBound && needed.upperBound <= range.upperBound)
    }
}

/// Which issues of a shelf to read: `count` of them, placed by an anchor that keyset paging can start from.
public struct IssueWindowRequest: Equatable, Sendable {
    public enum Anchor: Equatable, Sendable {
        /// The newest issues.
        case first
        /// The oldest issues (jumping to the end).
        case last
        /// `before` issues before the one with this key, then it and those after it.
        case key(IssueKey, before: Int)
        /// The same around an issue known only by id (continue reading, a search result, a shelf opened again).
        case issue(Int64, before: Int)
    }

    public let publicationID: Int64
    public let anchor: Anchor
    public let count: Int
    /// Select this issue once the window arrives (the selection follows its issue).
    public let selecting: Int64?
    /// The shelf's order and filter to read in.
    public let view: ShelfView

    public init(publicationID: Int64, anchor: Anchor, count: Int, selecting: Int64? = nil, view: ShelfView = .standard) {
        self.publicationID = publicationID
        self.anchor = anchor
        self.count = count
        self.selecting = selecting
        self.view = view
    }

    /// The request that reads the `wanted` indices of a shelf of `total` issues, starting from what `window`
    /// already holds: a key in (or next to) it, the ends of the shelf, or else the selected issue.
    public static func reading(_ wanted: Range<Int>, publicationID: Int64, total: Int, window: IssueWindow?,
                               selectedIssueID: Int64?, view: ShelfView = .standard) -> IssueWindowRequest {
        let count = max(1, wanted.count)
        if wanted.lowerBound <= 0 { return IssueWindowRequest(publicationID: publicationID, anchor: .first, count: count, view: view) }
        if wanted.upperBound >= total { return IssueWindowRequest(publicationID: publicationID, anchor: .last, count: count, view: view) }
        if let window, let first = window.issues.first, let last = window.issues.last {
            if let issue = window.issue(at: wanted.lowerBound) {
                return IssueWindowRequest(publicationID: publicationID, anchor: .key(issue.key, before: 0), count: count, view: view)
            }
            if wanted.lowerBound < window.start, wanted.upperBound >= window.start {
                return IssueWindowRequest(publicationID: publicationID, anchor: .key(first.key, before: window.start - wanted.lowerBound), count: count, view: view)
            }
            if wanted.lowerBound >= window.range.upperBound, wanted.lowerBound - window.range.upperBound <= count {
                // Read on from the window's last issue: a little more than wanted, but by key.
                return IssueWindowRequest(publicationID: publicationID, anchor: .key(last.key, before: 0),
                                          count: wanted.upperBound - window.range.upperBound + 1, view: view)
            }
        }
        if let selectedIssueID {
            return IssueWindowRequest(publicationID: publicationID, anchor: .issue(selectedIssueID, before: count / 2), count: count, view: view)
        }
        return IssueWindowRequest(publicationID: publicationID, anchor: .first, count: count, view: view)
    }
}

/// The library at a glance, read from SQL for the interface: publications, counts and the issue being read.
public struct LibraryOverview: Equatable, Sendable {
    public var publications: [Publication]
    public var counts: [Int64: IssueCounts]
    public var readingIssue: Issue?
    public var readingPosition: ReadingPosition?

    public init(publications: [Publication], counts: [Int64: IssueCounts] = [:], readingIssue: Issue? = nil,
                readingPosition: ReadingPosition? = nil) {
        self.publications = publications
        self.counts = counts
        self.readingIssue = readingIssue
        self.readingPosition = readingPosition
    }
}
