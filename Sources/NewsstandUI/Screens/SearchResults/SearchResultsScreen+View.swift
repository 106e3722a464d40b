import NewsstandCore

/// Results of a search across every downloaded issue: one line per match, issue — article — snippet.
extension SearchResultsScreen {
    /// The heading and a blank line, then one result per row.
    public static func layout(in area: Rect) -> ListLayout { ListLayout(area: area, headerLines: 2, rowHeight: 1) }

    public static func render(_ search: SearchResultsScreen, in area: Rect, theme: Theme, into buffer: inout CellBuffer) {
        let width = area.width
        guard let hits = search.hits else {
            buffer.write("Searching every downloaded issue for “\(search.query)”…", x: 2, y: area.y, style: theme[.heading], maxWidth: width - 4)
            return
        }
        let heading = hits.isEmpty ? "No matches for “\(search.query)”." : "“\(search.query)”: \(hits.count) \(hits.count == 1 ? "match" : "matches")"
        buffer.write(heading, x: 2, y: area.y, style: theme[.heading], maxWidth: width - 4)
        let layout = layout(in: area)
        if let failure = search.failure {
            buffer.write(failure, x: 2, y: layout.listArea.y, style: theme[.error], maxWidth: width - 4)
            return
        }
        for (offset, index) in search.cursor.visibleRange(count: hits.count, page: layout.page).enumerated() {
            let rect = layout.rowRect(offset)
            let y = rect.y
            let hit = hits[index]
            let isSelected = index == search.cursor.selection
            let style = isSelected ? theme[.selection] : theme[.text]
            if isSelected { buffer.fill(rect, style: style) }
            var x = 2
            let limit = width - 1
            x += buffer.write("\(hit.issueTitle) — \(hit.articleTitle) — ", x: x, y: y, style: isSelected ? style : theme[.title], maxWidth: max(0, limit - x))
            for part in hit.snippet where x < limit {
                let partStyle = part.isMatch ? (isSelected ? style.adding([.bold, .underline]) : theme[.selection]) : style
                x += buffer.write(part.text, x: x, y: y, style: partStyle, maxWidth: max(0, limit - x))
            }
        }
    }
}
