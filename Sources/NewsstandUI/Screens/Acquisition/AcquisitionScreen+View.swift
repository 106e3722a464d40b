import NewsstandCore

/// The ways a catalog offers one title: its pages to stream, when it has them, then format, size and kind per
/// line, what Newsstand will not follow said so.
extension AcquisitionScreen {
    /// The title and a note, a blank line, then one link per row.
    public static func layout(in area: Rect) -> ListLayout { ListLayout(area: area, headerLines: 3, rowHeight: 1) }

    public static func render(_ choice: AcquisitionScreen, in area: Rect, theme: Theme, into buffer: inout CellBuffer) {
        buffer.write("GET · \(choice.entry.title)", x: 2, y: area.y, style: theme[.heading], maxWidth: area.width - 4)
        let note = choice.pageStream == nil ? "Enter downloads the chosen file into the Library shelf, without subscribing."
            : "Enter reads the pages as the server streams them, or downloads the chosen file into the Library shelf."
        buffer.write(note, x: 2, y: area.y + 1, style: theme[.summary], maxWidth: area.width - 4)
        guard choice.rowCount > 0 else {
            buffer.write("This entry offers nothing to download.", x: 2, y: area.y + 3, style: theme[.summary], maxWidth: area.width - 4)
            return
        }
        let layout = layout(in: area)
        for (offset, index) in choice.cursor.visibleRange(count: choice.rowCount, page: layout.page).enumerated() {
            let rect = layout.rowRect(offset)
            let highlight = RowHighlight(theme: theme, isSelected: index == choice.cursor.selection)
            highlight.paint(rect, barColumn: rect.x, barRows: rect.y..<rect.maxY, into: &buffer)
            if let link = choice.link(atRow: index) {
                buffer.write(link.description, x: 2, y: rect.y, style: highlight.style(link.isDownloadable ? .title : .summary), maxWidth: area.width - 4)
            } else if let stream = choice.pageStream {
                buffer.write("Stream \(stream.pageCount) page\(stream.pageCount == 1 ? "" : "s") · read them one by one, nothing downloaded", x: 2, y: rect.y,
                             style: highlight.style(.title), maxWidth: area.width - 4)
            }
        }
    }
}
