/// The shelf's own state: which publication is shown, each shelf's cursor and selected issue, and the view.
public struct ShelfState: Equatable, Sendable {
    /// Index of the shown publication in `LibraryWindow.publications`.
    public var selectedPublication = 0
    /// Each shelf's cursor, by publication id.
    public var cursors: [Int64: ListCursor] = [:]
    /// Each shelf's selected issue, by publication id: the selection follows its issue when others arrive,
    /// and a shelf whose window was dropped opens again at it.
    public var selectedIssueIDs: [Int64: Int64] = [:]
    /// List or grid; remembered between runs.
    public var viewMode: ShelfViewMode = .list

    public init() {}
}
