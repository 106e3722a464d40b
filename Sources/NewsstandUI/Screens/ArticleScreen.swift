import NewsstandContent

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
            let start = area.x + layout.margin + line.indent
            let limit = area.width - layout.margin - line.indent
            var used = 0
            for span in line.spans where used < limit {
                used += buffer.write(span.text, x: start + used, y: area.y + row, style: style(of: span, on: line.element, theme: theme),
                                     maxWidth: max(0, limit - used))
            }
        }
    }

    /// The style a span is drawn in: its line's element (or the theme's `link` for links), with the
    /// span's bold, italic and underline added; inline code takes the `code` element's colours.
    public static func style(of span: StyledRun, on element: ThemeElement, theme: Theme) -> TextStyle {
        var style = theme[span.link != nil ? .link : element]
        if span.style.contains(.code) && element != .code {
            style.foreground = theme[.code].foreground
        }
        var attributes: TextAttributes = []
        if span.style.contains(.bold) { attributes.insert(.bold) }
        if span.style.contains(.italic) { attributes.insert(.italic) }
        if span.style.contains(.underline) { attributes.insert(.underline) }
        return style.adding(attributes)
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
