/// How the shelf shows issues: a list of rows with small covers, or a grid of larger covers.
public enum ShelfViewMode: String, Sendable, CaseIterable {
    case list
    case grid
}

/// Where things go on the shelf for a terminal size and view mode: the item area, the size of
/// each item and its cover, and how many items fit in a row.
///
/// Drawing, scrolling and mouse hit-testing all use it, so a click lands on the item drawn there.
/// A grid that would not fit two covers across and one row down falls back to the list.
public struct ShelfLayout: Equatable, Sendable {
    /// The view actually used (a grid on a small terminal becomes a list).
    public let mode: ShelfViewMode
    /// The area between the header (and any notice) and the status line.
    public let listArea: Rect
    public let itemWidth: Int
    public let itemHeight: Int
    /// Items side by side: 1 for the list.
    public let columns: Int
    /// Cover size in cells; zero in the compact list for small terminals.
    public let coverColumns: Int
    public let coverRows: Int

    /// Columns of the selection gutter at the left.
    public static let gutter = 2

    /// The line offering to continue reading, when there is one.
    public let continueLine: Rect?

    /// The layout for a state (`AppState.shelfLayout`): lines are kept under the header for the publication's
    /// last problem and for the continue-reading entry, when there are such.
    public init(state: AppState) {
        self = state.shelfLayout
    }

    /// The layout in a screen body `area` (the rows between the header bar and the status line).
    /// `compact` asks for the list without covers (for screen readers), whatever the size.
    public init(area: Rect, mode: ShelfViewMode = .list, hasNotice: Bool = false, hasContinueLine: Bool = false, compact: Bool = false) {
        let width = area.width
        let height = area.height + 2
        var top = area.y + (hasNotice ? 1 : 0)
        // The continue line is dropped on tiny windows, where every row counts.
        continueLine = hasContinueLine && height >= 12 ? Rect(x: area.x, y: top, width: width, height: 1) : nil
        if continueLine != nil { top += 2 }
        listArea = Rect(x: area.x, y: top, width: width, height: area.maxY - top)
        // A magazine page is about 3:4 and a cell about twice as tall as wide, so a cover of
        // c columns is about c × 4/3 ÷ 2 = 2c/3 rows.
        let gridCover = (columns: 18, rows: 12)
        let gridWidth = gridCover.columns + 3
        let gridHeight = gridCover.rows + 4 // title, date, state, gap
        if !compact && mode == .grid && listArea.height >= gridHeight && width - Self.gutter >= 2 * gridWidth {
            self.mode = .grid
            coverColumns = gridCover.columns
            coverRows = gridCover.rows
            itemWidth = gridWidth
            itemHeight = gridHeight
            columns = (width - Self.gutter) / gridWidth
        } else if !compact && height >= 16 && width >= 48 {
            self.mode = .list
            coverColumns = 12
            coverRows = 8
            itemWidth = width
            itemHeight = coverRows + 1
            columns = 1
        } else {
            self.mode = .list
            coverColumns = 0
            coverRows = 0
            itemWidth = width
            itemHeight = 4
            columns = 1
        }
    }

    /// Whole rows of items that fit.
    public var visibleRows: Int { max(1, listArea.height / itemHeight) }

    /// Items that fit on the screen at once.
    public var visibleItemCount: Int { visibleRows * columns }

    /// How the shelf's cursor pages: whole rows of `columns` items.
    public var page: ListPage { ListPage(rows: visibleRows, columns: columns) }

    /// The rectangle of the item `offset` places after the first one shown.
    public func itemRect(offset: Int) -> Rect {
        let row = offset / columns
        let column = offset % columns
        let y = listArea.y + row * itemHeight
        let height = min(itemHeight, listArea.maxY - y)
        if mode == .list { return Rect(x: listArea.x, y: y, width: listArea.width, height: height) }
        return Rect(x: listArea.x + Self.gutter + column * itemWidth, y: y, width: itemWidth - 1, height: height)
    }

    /// The issue index drawn at a screen cell, given the first index shown.
    public func index(atX x: Int, y: Int, scroll: Int, count: Int) -> Int? {
        guard y >= listArea.y && y < listArea.maxY else { return nil }
        let row = (y - listArea.y) / itemHeight
        var column = 0
        if mode == .grid {
            guard x >= listArea.x + Self.gutter else { return nil }
            column = (x - listArea.x - Self.gutter) / itemWidth
            guard column < columns else { return nil }
        }
        let index = scroll + row * columns + column
        return index < count ? index : nil
    }
}
