/// How a row of a list (an issue, a subscription, a download, a catalog entry) looks when it may be the selected one:
/// its elements keep their colours but sit on the selection's background, and a bar in the gutter marks it.
struct RowHighlight {
    let theme: Theme
    let isSelected: Bool

    private var base: TextStyle { isSelected ? theme[.selection] : theme[.background] }

    /// An element's style on this row.
    func style(_ element: ThemeElement) -> TextStyle {
        var style = theme[element]
        if isSelected {
            style.background = base.background
            style.attributes.formUnion(base.attributes)
        }
        return style
    }

    /// The accent bar's colour: the active tab's, or its ink where that colour is the page's own (paper).
    static func accent(_ theme: Theme) -> TerminalColor {
        let tab = theme[.headerActiveTab]
        return tab.background == theme[.background].background ? tab.foreground : tab.background
    }

    /// For the selected row: fills `area` with the selection's background and draws the bar down `barColumn`
    /// for `barRows` (the bar may stand outside `area`, as beside a grid tile's cover).
    func paint(_ area: Rect, barColumn: Int, barRows: Range<Int>, into buffer: inout CellBuffer) {
        guard isSelected else { return }
        buffer.fill(area, style: base)
        let accent = Self.accent(theme)
        for y in barRows {
            let inside = area.contains(x: barColumn, y: y)
            buffer.write("▌", x: barColumn, y: y, style: (inside ? base : theme[.background]).withForeground(accent))
        }
    }
}
