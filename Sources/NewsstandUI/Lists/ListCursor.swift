/// The selection and scroll offset of a list, moved the same way on every list of the interface.
///
/// `selection` is the selected item's index and `offset` the first item shown. Both stay in range
/// for the item count, the selection stays in view, and the offset moves as little as possible and
/// always starts a row (lists of several columns, like the shelf's grid, scroll by whole rows).
public struct ListCursor: Equatable, Sendable {
    public var selection: Int
    public var offset: Int

    public init(selection: Int = 0, offset: Int = 0) {
        self.selection = selection
        self.offset = offset
    }

    /// Moves for a movement command (up, down, left, right, page up and down, top, bottom) over `count`
    /// items shown `page` at a time. Returns false, changing nothing, for any other command.
    @discardableResult
    public mutating func apply(_ command: Command, count: Int, page: ListPage) -> Bool {
        let step: Int
        switch command {
        case .moveDown: step = page.columns
        case .moveUp: step = -page.columns
        case .moveRight where page.columns > 1: step = 1
        case .moveLeft where page.columns > 1: step = -1
        case .pageDown: step = page.itemCount
        case .pageUp: step = -page.itemCount
        case .top:
            select(0, count: count, page: page)
            return true
        case .bottom:
            select(count - 1, count: count, page: page)
            return true
        default:
            return false
        }
        select(selection + step, count: count, page: page)
        return true
    }

    /// A tap: Enter keeps the selection; a mouse click selects the item `hit` finds at the click (given the cursor,
    /// for its scroll) and scrolls it into view. False, changing nothing, for a click on no item.
    public mutating func tap(_ key: Key, count: Int, page: ListPage, hit: (_ x: Int, _ y: Int, ListCursor) -> Int?) -> Bool {
        guard case .mouseClick(let x, let y) = key else { return true }
        guard let index = hit(x, y, self) else { return false }
        select(index, count: count, page: page)
        return true
    }

    /// A tap on a one-column list placed by `layout` (see `tap(_:count:page:hit:)`).
    public mutating func tap(_ key: Key, count: Int, in layout: ListLayout) -> Bool {
        tap(key, count: count, page: layout.page) { _, y, cursor in layout.index(atY: y, cursor: cursor, count: count) }
    }

    /// Selects `index` (clamped to the list) and scrolls it into view.
    public mutating func select(_ index: Int, count: Int, page: ListPage) {
        selection = index
        keepVisible(count: count, page: page)
    }

    /// Brings the cursor back in range after the list or the page changed (a resize, items arriving or going).
    public mutating func keepVisible(count: Int, page: ListPage) {
        selection = min(max(0, selection), max(0, count - 1))
        let columns = max(1, page.columns)
        let rows = max(1, page.rows)
        let selectedRow = selection / columns
        var firstRow = min(max(0, offset) / columns, selectedRow)
        if selectedRow >= firstRow + rows { firstRow = selectedRow - rows + 1 }
        let lastFirstRow = max(0, (count + columns - 1) / columns - rows)
        offset = max(0, min(firstRow, lastFirstRow)) * columns
    }

    /// For views that only scroll (help, an article): moves the offset over `count` lines shown
    /// `page.rows` at a time, a page keeping `overlap` lines of the last one in view; the selection follows it.
    /// Returns false for a command that is not a movement.
    @discardableResult
    public mutating func scroll(_ command: Command, count: Int, page: ListPage, overlap: Int = 0) -> Bool {
        let rows = max(1, page.rows - overlap)
        switch command {
        case .moveDown: offset += 1
        case .moveUp: offset -= 1
        case .pageDown: offset += rows
        case .pageUp: offset -= rows
        case .top: offset = 0
        case .bottom: offset = count
        default: return false
        }
        keepScrolled(count: count, page: page)
        return true
    }

    /// For views that only scroll: brings the offset back in range (no blank page past the end).
    public mutating func keepScrolled(count: Int, page: ListPage) {
        offset = min(max(0, offset), max(0, count - max(1, page.rows)))
        selection = offset
    }

    /// The indices shown, for `count` items.
    public func visibleRange(count: Int, page: ListPage) -> Range<Int> {
        let first = min(max(0, offset), count)
        return first..<min(count, first + page.itemCount)
    }
}

/// How much of a list is seen at once: rows of items, `columns` items to a row.
public struct ListPage: Equatable, Sendable {
    public var rows: Int
    public var columns: Int

    public init(rows: Int, columns: Int = 1) {
        self.rows = max(1, rows)
        self.columns = max(1, columns)
    }

    /// Items shown at once.
    public var itemCount: Int { rows * columns }
}
