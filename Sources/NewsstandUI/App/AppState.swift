import NewsstandCore
import NewsstandImaging

/// The whole interface as one value: what the screens share, and the screen stack (the shelf at the bottom, the one
/// shown on top, each screen with its own state). `AppUpdate` changes it; `AppView` draws it.
/// The shared part's properties read as the state's own (`state.library` is `state.shared.library`).
@dynamicMemberLookup
public struct AppState: Equatable, Sendable {
    public var shared: SharedState
    /// The screens, the shelf at the bottom and the one shown on top; going back pops one.
    public var screens: [Screen] = [.shelf]

    public init(width: Int, height: Int) {
        shared = SharedState(width: width, height: height)
    }

    /// The library setting that remembers the shelf's view.
    public static let shelfViewSetting = "shelf_view"
    /// Where the shelves' order and filter (`o`, `f`) are remembered between runs.
    public static let shelfOrderSetting = "shelf_order"
    public static let shelfFilterSetting = "shelf_filter"

    public subscript<Value>(dynamicMember path: WritableKeyPath<SharedState, Value>) -> Value {
        get { shared[keyPath: path] }
        _modify { yield &shared[keyPath: path] }
    }

    public subscript<Value>(dynamicMember path: KeyPath<SharedState, Value>) -> Value { shared[keyPath: path] }

    /// The kind of screen on top (for the key table and hints).
    public var screen: ScreenKind { screens.last?.kind ?? .shelf }

    /// The cover request for an issue at a size, in this state's mode and background.
    public func coverRequest(issueID: Int64, columns: Int, rows: Int) -> CoverArtRequest {
        shared.coverRequest(issueID: issueID, columns: columns, rows: rows)
    }

    /// An issue the interface has in a window (or the one being read), by id; nil when it is not loaded.
    public func loadedIssue(id: Int64) -> Issue? { shared.loadedIssue(id: id) }

    // MARK: For tests and benchmarks

    /// The topmost reader on the stack, read-only, for tests and benchmarks to look at; the interface itself asks
    /// the screens (a prompt goes to the screen that opened it, quitting asks each for its place to save).
    public var reader: ReaderScreen? { screens.lazy.reversed().compactMap(\.readerScreen).first }
}

/// A line of news for the status bar: what just happened, or what went wrong.
public struct StatusMessage: Equatable, Sendable {
    public var text: String
    public var isError: Bool

    public init(_ text: String, isError: Bool = false) {
        self.text = text
        self.isError = isError
    }
}
