/// The help screen (`?` anywhere): every key of the table in effect, grouped by screen; the cursor scrolls the text.
public struct HelpScreen: ScreenModel {
    public var cursor = ListCursor()

    public init(cursor: ListCursor = ListCursor()) {
        self.cursor = cursor
    }

    /// The help opened from a screen of `kind`: scrolled to that screen's keys, the blank row above their heading first,
    /// as the shelf's are at the top (`g` goes there).
    public init(openedFrom kind: ScreenKind, keys: KeyTable, width: Int) {
        let heading = Self.sections.first { $0.1 == kind }?.0.uppercased()
        let row = heading.flatMap { heading in Self.rows(keys, width: width).firstIndex { $0.key == heading && $0.help.isEmpty } }
        self.init(cursor: ListCursor(offset: max(0, (row ?? 0) - 1)))
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
