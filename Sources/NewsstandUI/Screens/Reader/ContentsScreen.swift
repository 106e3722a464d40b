import NewsstandContent

/// An issue's table of contents: the publication's nested contents, indented by level, each entry
/// numbered with the article it opens, the one being read marked.
public enum ContentsScreen {
    /// The title line and a blank line, then one entry per row.
    public static func layout(in area: Rect) -> ListLayout { ListLayout(area: area, headerLines: 2, rowHeight: 1) }

    public static func render(_ reader: ReaderScreen, _ state: SharedState, in area: Rect, theme: Theme, into buffer: inout CellBuffer) {
        let layout = layout(in: area)
        let title = reader.book?.title ?? state.loadedIssue(id: reader.issueID)?.title ?? ""
        buffer.write(title, x: area.x + 2, y: area.y, style: theme[.heading], maxWidth: area.width - 4)
        let top = layout.listArea.y
        if let failure = reader.failure {
            buffer.write("This issue cannot be opened: \(failure)", x: 2, y: top, style: theme[.error], maxWidth: area.width - 4)
            return
        }
        guard reader.book != nil else {
            buffer.write("Opening…", x: 2, y: top, style: theme[.summary])
            return
        }
        let rows = reader.contents
        let cursor = reader.contentsCursor
        let readingRow = reader.view.layout != nil ? rows.firstIndex { $0.articleIndex == reader.articleIndex } : nil
        for (offset, index) in cursor.visibleRange(count: rows.count, page: layout.page).enumerated() {
            let rect = layout.rowRect(offset)
            let isSelected = index == cursor.selection
            let style = isSelected ? theme[.selection] : theme[.text]
            if isSelected { buffer.fill(rect, style: style) }
            let row = rows[index]
            let marker = index == readingRow ? "▸" : " "
            let number = (row.articleIndex.map { String($0 + 1) } ?? "").leftPadded(to: 3)
            let indent = String(repeating: "  ", count: min(row.depth, 8))
            buffer.write("\(marker) \(number)  \(indent)\(row.title)", x: rect.x + 1, y: rect.y, style: style, maxWidth: rect.width - 2)
        }
    }
}

extension String {
    /// The string right-aligned in `width` columns.
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
