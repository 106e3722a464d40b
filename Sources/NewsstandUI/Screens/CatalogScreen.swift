import NewsstandContent
import NewsstandCore

/// A feed's catalog page: its navigation entries (▸, followed with Enter) and then its issues.
public enum CatalogScreen {
    public static func render(_ state: AppState, theme: Theme, into buffer: inout CellBuffer) {
        guard let browser = state.catalog, let page = browser.current else { return }
        let area = Rect(x: 0, y: 1, width: state.width, height: state.height - 2)
        let trail = browser.pages.compactMap { $0.feed?.title }.joined(separator: " › ")
        buffer.write("CATALOG" + (trail.isEmpty ? "" : " · " + trail), x: 2, y: area.y, style: theme[.heading], maxWidth: area.width - 4)
        buffer.write(page.url.absoluteString, x: 2, y: area.y + 1, style: theme[.date], maxWidth: area.width - 4)
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
        let rowHeight = 2
        let visible = max(1, (area.height - 3) / rowHeight)
        let first = max(0, page.selection - visible + 1)
        for (offset, index) in (first..<min(page.rowCount, first + visible)).enumerated() {
            let y = area.y + 3 + offset * rowHeight
            let isSelected = index == page.selection
            let highlight = RowHighlight(theme: theme, isSelected: isSelected)
            highlight.paint(Rect(x: 0, y: y, width: area.width, height: rowHeight), barColumn: 0, barRows: y..<(y + rowHeight), into: &buffer)
            let style = highlight.style
            if index < feed.navigation.count {
                let link = feed.navigation[index]
                buffer.write("▸ " + link.title, x: 2, y: y, style: style(.title), maxWidth: area.width - 4)
                buffer.write(link.summary.isEmpty ? link.url.absoluteString : link.summary, x: 4, y: y + 1, style: style(.summary), maxWidth: area.width - 6)
            } else {
                let entry = feed.entries[index - feed.navigation.count]
                buffer.write("  " + entry.title, x: 2, y: y, style: style(.text), maxWidth: area.width - 4)
                buffer.write(DateText.long(entry.date) + (entry.summary.isEmpty ? "" : " · " + entry.summary), x: 4, y: y + 1,
                             style: style(.date), maxWidth: area.width - 6)
            }
        }
    }
}
