/// An article, set to the window and scrolled to the reader's place.
public enum ArticleScreen {
    public static func render(_ state: AppState, theme: Theme, into buffer: inout CellBuffer) {
        guard let reader = state.reader else { return }
        let area = Rect(x: 0, y: 1, width: state.width, height: state.height - 2)
        guard let layout = reader.layout else {
            buffer.write("Loading the article…", x: 2, y: area.y + 1, style: theme[.summary])
            return
        }
        for row in 0..<area.height {
            let index = reader.topLine + row
            guard index < layout.lines.count else { break }
            let line = layout.lines[index]
            buffer.write(line.text, x: area.x + layout.margin + line.indent, y: area.y + row, style: theme[line.element],
                         maxWidth: max(0, area.width - layout.margin - line.indent))
        }
    }

    /// "article 2/5 · 40%": where the reader is, for the status line.
    public static func positionText(_ state: AppState) -> String {
        guard let reader = state.reader, let layout = reader.layout else { return "" }
        let visible = max(1, state.height - 2)
        let scrollable = max(0, layout.lines.count - visible)
        let percent = scrollable == 0 ? 100 : min(100, reader.topLine * 100 / scrollable)
        let count = reader.book?.articles.count ?? 0
        return "article \(reader.articleIndex + 1)/\(count) · \(percent)%"
    }
}
