/// Where the terminal cursor stands in screen-reader mode: the selected row of a list, the line being read, or the
/// end of what is typed in a prompt, so a screen reader reads what matters and follows it.
extension AppView {
    /// nil outside screen-reader mode (the cursor stays hidden).
    public static func cursor(_ state: AppState) -> (x: Int, y: Int)? {
        guard state.screenReader, state.width > 0, state.height > 2 else { return nil }
        if let prompt = state.prompt {
            let typed = prompt.takesText ? prompt.shownText.count : 0
            return (min(state.width - 1, 1 + prompt.label.count + typed), state.height - 1)
        }
        let body = state.body
        func row(_ layout: ListLayout, _ cursor: ListCursor) -> (x: Int, y: Int) {
            let rect = layout.rowRect(max(0, cursor.selection - cursor.offset))
            return (rect.x, min(rect.y, body.maxY - 1))
        }
        if let screen = state.screens.last?.model { return screen.readingCursor(state.shared, in: body) }
        switch state.screens.last ?? .shelf {
        case .reader(let reader) where reader.isShowingArticle:
            // The line being read: the top line of the article's text.
            return (body.x + (reader.view.layout?.margin ?? 0), body.y)
        case .reader(let reader): return row(ContentsScreen.layout(in: body), reader.contentsCursor)
        case .marks(let list): return row(MarksScreen.layout(in: body, list), list.cursor)
        default: return (body.x, body.y)
        }
    }
}
