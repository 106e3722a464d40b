/// The help screen (`?` anywhere): every key of the table in effect, grouped by screen; the cursor scrolls the text.
public struct HelpScreen: ScreenModel {
    public var cursor = ListCursor()

    public init(cursor: ListCursor = ListCursor()) {
        self.cursor = cursor
    }

    public var kind: ScreenKind { .help }
    public var screen: Screen { .help(self) }

    public mutating func handle(_ command: Command, key: Key, body: Rect, shared: inout SharedState) -> ScreenAnswer {
        guard command != .back else { return .pop() }
        cursor.scroll(command, count: Self.rows(shared.keys, width: body.width).count, page: Self.layout(in: body).page)
        return .stay()
    }

    public mutating func fit(body: Rect, shared: inout SharedState) -> [Effect] {
        cursor.keepScrolled(count: Self.rows(shared.keys, width: body.width).count, page: Self.layout(in: body).page)
        return []
    }

    public func render(_ shared: SharedState, in body: Rect, theme: Theme, into buffer: inout CellBuffer) -> String {
        Self.render(cursor, keys: shared.keys, in: body, theme: theme, into: &buffer)
        return ""
    }
}
