/// One screen of the interface: its own state, what it does with keys and messages, its layout and its drawing.
/// Every case of `Screen` carries a value conforming to this; the stack (`AppUpdate+Stack`) hands it keys and
/// messages and applies what it answers, so a screen never touches the stack or the screens under it.
public protocol ScreenModel: Equatable, Sendable {
    /// What kind of screen this is, for the key table, hints and help.
    var kind: ScreenKind { get }
    /// This screen as a case of the stack.
    var screen: Screen { get }
    /// A command the key table found for a key on this screen, with the key (a click's place). Global commands
    /// (quit, help, downloads, library search) and keys while a prompt is open never reach a screen.
    mutating func handle(_ command: Command, key: Key, body: Rect, shared: inout SharedState) -> ScreenAnswer
    /// A message from the runtime. Every screen on the stack is offered each one, the top first; a screen ignores
    /// what is not its own (by the id or address it asked for). What it answers is applied at its place in the stack.
    mutating func receive(_ message: Message, body: Rect, shared: inout SharedState) -> ScreenAnswer
    /// What was typed in a prompt this screen opened (a catalog search, a bookmark's name), once submitted.
    mutating func submit(_ prompt: Prompt, body: Rect, shared: inout SharedState) -> ScreenAnswer
    /// Shown again after `closed`, the screen over it, went (what was read there may move this one's selection).
    mutating func returned(from closed: Screen, body: Rect, shared: inout SharedState) -> [Effect]
    /// What keeps this screen's place when the program quits (the reader's position); every screen on the stack is
    /// asked, the bottom one first (so the place on top is saved last).
    func savePosition() -> [Effect]
    /// The terminal's size changed: keeps cursors in range and in view; returns the work the new size needs.
    mutating func fit(body: Rect, shared: inout SharedState) -> [Effect]
    /// Draws the screen into its body; returns what the status line shows at its right (a position such as "3/12").
    func render(_ shared: SharedState, in body: Rect, theme: Theme, into buffer: inout CellBuffer) -> String
    /// The keys hinted on the status line while it is shown.
    func hints(_ keys: KeyTable) -> [KeyBinding]
    /// Where the terminal cursor stands in screen-reader mode: the selected row, or the line being read.
    func readingCursor(_ shared: SharedState, in body: Rect) -> (x: Int, y: Int)
}

extension ScreenModel {
    public mutating func receive(_ message: Message, body: Rect, shared: inout SharedState) -> ScreenAnswer { .stay() }
    public mutating func submit(_ prompt: Prompt, body: Rect, shared: inout SharedState) -> ScreenAnswer { .stay() }
    public mutating func returned(from closed: Screen, body: Rect, shared: inout SharedState) -> [Effect] { [] }
    public func savePosition() -> [Effect] { [] }
    public mutating func fit(body: Rect, shared: inout SharedState) -> [Effect] { [] }
    public func hints(_ keys: KeyTable) -> [KeyBinding] { keys.hints(for: kind) }
    public func readingCursor(_ shared: SharedState, in body: Rect) -> (x: Int, y: Int) { (body.x, body.y) }

    /// The terminal cursor on a list's selected row (for `readingCursor`).
    static func row(_ layout: ListLayout, _ cursor: ListCursor, in body: Rect) -> (x: Int, y: Int) {
        let rect = layout.rowRect(max(0, cursor.selection - cursor.offset))
        return (rect.x, min(rect.y, body.maxY - 1))
    }

    /// "3/12": the selected item of a list, or nothing for an empty one (the status line's position).
    static func listPosition(_ cursor: ListCursor, count: Int) -> String { AppView.listPosition(cursor, count: count) }
}

/// What a screen answers to a key: whether it stays, opens another screen over itself, or goes, and the work to do.
public struct ScreenAnswer: Equatable, Sendable {
    public enum Move: Equatable, Sendable {
        /// The screen stays on top (changed or not).
        case stay
        /// Opens a screen over this one; going back returns here as it is.
        case push(Screen)
        /// Closes this screen, showing the one under it.
        case pop
        /// Puts another screen in this one's place (going back from it returns to the one under this).
        case replace(Screen)
        /// Replaces the whole stack (the shelf stays at the bottom): going somewhere else entirely.
        case reset([Screen])
    }

    public var move: Move
    public var effects: [Effect]

    public init(_ move: Move, _ effects: [Effect] = []) {
        self.move = move
        self.effects = effects
    }

    public static func stay(_ effects: [Effect] = []) -> ScreenAnswer { ScreenAnswer(.stay, effects) }
    public static func push(_ screen: Screen, _ effects: [Effect] = []) -> ScreenAnswer { ScreenAnswer(.push(screen), effects) }
    public static func pop(_ effects: [Effect] = []) -> ScreenAnswer { ScreenAnswer(.pop, effects) }
    public static func replace(_ screen: Screen, _ effects: [Effect] = []) -> ScreenAnswer { ScreenAnswer(.replace(screen), effects) }
    public static func reset(_ screens: [Screen], _ effects: [Effect] = []) -> ScreenAnswer { ScreenAnswer(.reset(screens), effects) }
}
