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
        return (state.screens.last?.model ?? ShelfScreen()).readingCursor(state.shared, in: body)
    }
}
