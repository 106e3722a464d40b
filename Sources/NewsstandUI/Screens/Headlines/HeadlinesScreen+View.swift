import NewsstandContent
import NewsstandCore

/// A publication's headlines: feed items with nothing to download (news, announcements), newest first as the feed gives
/// them; NEW and ★ (starred) at the right of a title as on the shelf, a read headline's title dimmed, and those whose
/// whole article is kept say so.
extension HeadlinesScreen {
    /// The heading and a blank line, then four lines per headline (title, date and link, summary, a gap).
    public static func layout(in area: Rect) -> ListLayout { ListLayout(area: area, headerLines: 2, rowHeight: 4) }

    public static func render(_ headlines: HeadlinesScreen, in area: Rect, theme: Theme, into buffer: inout CellBuffer) {
        buffer.write("HEADLINES · \(headlines.title)", x: area.x + 2, y: area.y, style: theme[.heading], maxWidth: area.width - 4)
        let layout = layout(in: area)
        guard let items = headlines.headlines else {
            buffer.write("Loading…", x: 2, y: layout.listArea.y, style: theme[.summary])
            return
        }
        guard !items.isEmpty else {
            buffer.write("This feed has no headlines: every item in it is an issue.", x: 2, y: layout.listArea.y, style: theme[.summary], maxWidth: area.width - 4)
            return
        }
        for (offset, index) in headlines.cursor.visibleRange(count: items.count, page: layout.page).enumerated() {
            let headline = items[index]
            var rect = layout.rowRect(offset)
            rect.height = min(rect.height, layout.rowHeight - 1)
            let highlight = RowHighlight(theme: theme, isSelected: index == headlines.cursor.selection)
            highlight.paint(rect, barColumn: rect.x, barRows: rect.y..<rect.maxY, into: &buffer)
            let style = highlight.style
            var markers: [(String, ThemeElement)] = []
            if headline.isNew { markers.append((" NEW ", .newMarker)) }
            if headline.isStarred { markers.append((" ★ ", .newMarker)) }
            let markerWidth = markers.reduce(0) { $0 + $1.0.count + 1 }
            buffer.write(headline.title, x: 2, y: rect.y, style: style(headline.isRead ? .summary : .title), maxWidth: area.width - 4 - markerWidth)
            var markerX = area.maxX - 2 - markerWidth
            for (label, element) in markers {
                markerX += buffer.write(label, x: markerX + 1, y: rect.y, style: theme[element]) + 1
            }
            let media = headline.mediaKind.map { "▶ " + $0 + " (p plays)" }
            let kept = headline.link.map(headlines.wholeArticles.contains) == true ? "whole article kept" : nil
            let detail = [headline.date.map(DateText.long), media, kept, headline.link?.absoluteString].compactMap { $0 }.joined(separator: " · ")
            if rect.height > 1 { buffer.write(detail, x: 4, y: rect.y + 1, style: style(.date), maxWidth: area.width - 6) }
            if rect.height > 2, let line = TextWrapper.wrap(headline.summary, width: max(1, area.width - 6)).first, !line.isEmpty {
                buffer.write(line, x: 4, y: rect.y + 2, style: style(.summary), maxWidth: area.width - 6)
            }
        }
    }
}
