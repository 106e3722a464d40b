import NewsstandContent
import NewsstandCore

/// The list drawn: its heading (the issue's title), each bookmark's name and article, each highlight's passage, where
/// it is and its note.
extension MarksScreen {
    /// A heading and a blank line, then a line per bookmark, or per highlight its passage, where it is and its note, and a blank line.
    public static func layout(in area: Rect, _ list: MarksScreen) -> ListLayout {
        list.showsHighlights ? ListLayout(area: area, headerLines: 2, rowHeight: 3, gap: 1) : ListLayout(area: area, headerLines: 2, rowHeight: 1)
    }

    /// What a list shows when it is empty.
    static func emptyText(_ list: MarksScreen) -> String {
        list.showsHighlights
            ? "No highlights yet: in an article, v chooses a passage from the top line, Enter highlights it, a adds a note."
            : "No bookmarks yet: in an article, m bookmarks the line at the top."
    }

    public static func render(_ list: MarksScreen, _ state: SharedState, in area: Rect, theme: Theme, into buffer: inout CellBuffer) {
        let width = area.width
        let issueTitle = state.loadedIssue(id: list.issueID)?.title
        let name = list.showsHighlights ? "Highlights and notes" : "Bookmarks"
        buffer.write(issueTitle.map { "\(name) — \($0)" } ?? name, x: 2, y: area.y, style: theme[.heading], maxWidth: width - 4)
        guard list.marks != nil else {
            buffer.write("Reading them…", x: 2, y: area.y + 2, style: theme[.summary], maxWidth: width - 4)
            return
        }
        let marks = list.listed
        let layout = layout(in: area, list)
        if marks.isEmpty {
            for (row, line) in TextWrapper.wrap(emptyText(list), width: max(1, width - 4)).prefix(max(0, area.height - 2)).enumerated() {
                buffer.write(line, x: 2, y: layout.listArea.y + row, style: theme[.summary], maxWidth: width - 4)
            }
            return
        }
        for (offset, index) in list.cursor.visibleRange(count: marks.count, page: layout.page).enumerated() {
            let rect = layout.rowRect(offset)
            let isSelected = index == list.cursor.selection
            if isSelected { buffer.fill(Rect(x: rect.x, y: rect.y, width: rect.width, height: min(rect.height, layout.rowHeight - layout.gap)), style: theme[.selection]) }
            let plain = isSelected ? theme[.selection] : theme[.text]
            let quiet = isSelected ? theme[.selection] : theme[.summary]
            switch marks[index] {
            case .bookmark(let bookmark):
                var x = 2
                x += buffer.write(bookmark.name, x: x, y: rect.y, style: isSelected ? plain : theme[.title], maxWidth: max(0, width - 1 - x))
                buffer.write("  article \(bookmark.position.articleIndex + 1)", x: x, y: rect.y, style: quiet, maxWidth: max(0, width - 1 - x))
            case .highlight(let highlight):
                buffer.write("“\(highlight.text)”", x: 2, y: rect.y, style: isSelected ? plain : theme[.highlight], maxWidth: width - 4)
                guard rect.height > 1 else { continue }
                var where_ = "\(highlight.articleTitle) (article \(highlight.articleIndex + 1))"
                if highlight.isLost { where_ = "passage no longer found · " + where_ }
                var x = 4
                x += buffer.write(where_, x: x, y: rect.y + 1, style: highlight.isLost && !isSelected ? theme[.error] : quiet, maxWidth: max(0, width - 1 - x))
                if !highlight.note.isEmpty {
                    buffer.write(" · note: \(highlight.note)", x: x, y: rect.y + 1, style: plain, maxWidth: max(0, width - 1 - x))
                }
            }
        }
    }
}
