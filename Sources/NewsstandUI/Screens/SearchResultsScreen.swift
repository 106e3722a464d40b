import NewsstandCore

/// Results of a search across every downloaded issue: one line per match, issue — article — snippet.
public enum SearchResultsScreen {
    /// Screen row of the first result.
    public static let listTop = 3

    public static func visibleRows(_ state: AppState) -> Int { max(1, state.height - 1 - listTop) }

    public static func firstVisible(selection: Int, visible: Int) -> Int { max(0, selection - visible + 1) }

    public static func render(_ state: AppState, theme: Theme, into buffer: inout CellBuffer) {
        guard let search = state.librarySearch else { return }
        let width = state.width
        guard let hits = search.hits else {
            buffer.write("Searching every downloaded issue for “\(search.query)”…", x: 2, y: 1, style: theme[.heading], maxWidth: width - 4)
            return
        }
        let heading = hits.isEmpty ? "No matches for “\(search.query)”." : "“\(search.query)”: \(hits.count) \(hits.count == 1 ? "match" : "matches")"
        buffer.write(heading, x: 2, y: 1, style: theme[.heading], maxWidth: width - 4)
        if let failure = search.failure {
            buffer.write(failure, x: 2, y: listTop, style: theme[.error], maxWidth: width - 4)
            return
        }
        let visible = visibleRows(state)
        let first = firstVisible(selection: search.selection, visible: visible)
        for (offset, index) in (first..<min(hits.count, first + visible)).enumerated() {
            let y = listTop + offset
            let hit = hits[index]
            let isSelected = index == search.selection
            let style = isSelected ? theme[.selection] : theme[.text]
            if isSelected { buffer.fill(Rect(x: 0, y: y, width: width, height: 1), style: style) }
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
