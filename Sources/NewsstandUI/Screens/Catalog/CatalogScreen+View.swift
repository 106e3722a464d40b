import NewsstandContent
import NewsstandCore

/// A feed's catalog page: its navigation entries (▸, followed with Enter) and then its issues.
extension CatalogScreen {
    /// The trail and the page's URL and a blank line, then two lines per entry.
    public static func layout(in area: Rect) -> ListLayout { ListLayout(area: area, headerLines: 3, rowHeight: 2) }

    /// The status line's keys: `/ search` only once the page shown is known to offer a search.
    public static func hints(_ browser: CatalogScreen, keys: KeyTable = .standard) -> [KeyBinding] {
        let hasSearch = browser.current?.feed?.search != nil
        return keys.hints(for: .catalog).filter { hasSearch || $0.command != .searchCatalog }
    }

    public static func render(_ browser: CatalogScreen, in area: Rect, theme: Theme, into buffer: inout CellBuffer) {
        guard let page = browser.current else { return }
        let trail = browser.pages.compactMap { $0.feed?.title }.joined(separator: " › ")
        buffer.write("CATALOG" + (trail.isEmpty ? "" : " · " + trail), x: 2, y: area.y, style: theme[.heading], maxWidth: area.width - 4)
        buffer.write(CatalogPageStatus.subtitle(page), x: 2, y: area.y + 1, style: theme[.date], maxWidth: area.width - 4)
        if let failure = page.failure {
            buffer.write("This feed cannot be read: \(failure)", x: 2, y: area.y + 3, style: theme[.error], maxWidth: area.width - 4)
            return
        }
        guard let feed = page.feed else {
            buffer.write("Loading…", x: 2, y: area.y + 3, style: theme[.summary])
            return
        }
        guard page.rowCount > 0 else {
            buffer.write("This feed lists nothing to follow or download.", x: 2, y: area.y + 3, style: theme[.summary], maxWidth: area.width - 4)
            return
        }
        let layout = layout(in: area)
        for (offset, index) in page.cursor.visibleRange(count: page.rowCount, page: layout.page).enumerated() {
            let rect = layout.rowRect(offset)
            let y = rect.y
            let highlight = RowHighlight(theme: theme, isSelected: index == page.cursor.selection)
            highlight.paint(rect, barColumn: rect.x, barRows: rect.y..<rect.maxY, into: &buffer)
            let style = highlight.style
            if index < feed.navigation.count {
                let link = feed.navigation[index]
                buffer.write("▸ " + link.title, x: 2, y: y, style: style(.title), maxWidth: area.width - 4)
                if rect.height > 1 { buffer.write(link.summary.isEmpty ? link.url.absoluteString : link.summary, x: 4, y: y + 1, style: style(.summary), maxWidth: area.width - 6) }
            } else {
                let entry = feed.entries[index - feed.navigation.count]
                buffer.write("  " + entry.title, x: 2, y: y, style: style(.text), maxWidth: area.width - 4)
                if rect.height > 1 {
                    buffer.write(DateText.long(entry.date) + CatalogPageStatus.formats(entry) + (entry.summary.isEmpty ? "" : " · " + entry.summary), x: 4, y: y + 1,
                                 style: style(.date), maxWidth: area.width - 6)
                }
            }
        }
    }
}
