/// Where a one-column list goes in a screen's area: a heading of `headerLines` lines, then rows of
/// `rowHeight` lines each, of which the last `gap` are spacing the last row shown may do without.
///
/// The screen draws with it, the update scrolls with its `page`, and mouse clicks are hit-tested
/// with it, so all three agree on where each item is.
public struct ListLayout: Equatable, Sendable {
    /// The screen's whole area (its body, between the header bar and the status line).
    public let area: Rect
    /// The rows' area, below the heading.
    public let listArea: Rect
    public let rowHeight: Int
    public let gap: Int

    public init(area: Rect, headerLines: Int, rowHeight: Int, gap: Int = 0) {
        self.area = area
        self.rowHeight = max(1, rowHeight)
        self.gap = min(max(0, gap), self.rowHeight - 1)
        listArea = area.splitTop(headerLines).1
    }

    /// Whole rows that fit (at least one, so a tiny window still shows the selection).
    public var page: ListPage { ListPage(rows: (listArea.height + gap) / rowHeight) }

    /// The rectangle of the item `position` places after the first one shown.
    public func rowRect(_ position: Int) -> Rect {
        let y = listArea.y + position * rowHeight
        return Rect(x: listArea.x, y: y, width: listArea.width, height: min(rowHeight, listArea.maxY - y))
    }

    /// The item index drawn at screen row `y`, for a cursor over `count` items.
    public func index(atY y: Int, cursor: ListCursor, count: Int) -> Int? {
        guard y >= listArea.y && y < listArea.maxY else { return nil }
        let index = cursor.offset + (y - listArea.y) / rowHeight
        return index < count ? index : nil
    }
}
