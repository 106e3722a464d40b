/// Where things go on the shelf for a terminal size: the list area, row height and cover size.
///
/// Both drawing and mouse hit-testing use it, so a click lands on the row that was drawn there.
public struct ShelfLayout: Equatable, Sendable {
    /// The rows between the header and the status line.
    public let listArea: Rect
    public let rowHeight: Int
    /// Cover thumbnail size in cells; zero in the compact layout for small terminals.
    public let coverColumns: Int
    public let coverRows: Int

    /// The layout for a state: a line is kept under the header for the publication's last problem, if any.
    public init(state: AppState) {
        self.init(width: state.width, height: state.height, hasNotice: state.currentPublication?.lastError != nil)
    }

    public init(width: Int, height: Int, hasNotice: Bool = false) {
        let top = hasNotice ? 2 : 1
        listArea = Rect(x: 0, y: top, width: width, height: height - top - 1)
        if height >= 16 && width >= 48 {
            // A magazine page is about 3:4; cells are about twice as tall as wide.
            coverColumns = 12
            coverRows = 8
            rowHeight = coverRows + 1
        } else {
            coverColumns = 0
            coverRows = 0
            rowHeight = 4
        }
    }

    /// How many whole rows fit.
    public var visibleRowCount: Int { max(1, listArea.height / rowHeight) }

    /// The rectangle of the row `offset` places below the first one shown.
    public func rowRect(offset: Int) -> Rect {
        Rect(x: listArea.x, y: listArea.y + offset * rowHeight, width: listArea.width, height: min(rowHeight, listArea.maxY - (listArea.y + offset * rowHeight)))
    }

    /// The issue index drawn at screen row `y`, given the first index shown.
    public func issueIndex(atY y: Int, scroll: Int, count: Int) -> Int? {
        guard y >= listArea.y && y < listArea.maxY else { return nil }
        let index = scroll + (y - listArea.y) / rowHeight
        return index < count ? index : nil
    }

    /// The first index to show so that `selected` is visible, moving as little as possible from `scroll`.
    public func scroll(keeping selected: Int, from scroll: Int, count: Int) -> Int {
        let visible = visibleRowCount
        var first = min(scroll, selected)
        if selected >= first + visible { first = selected - visible + 1 }
        return max(0, min(first, max(0, count - visible)))
    }
}
