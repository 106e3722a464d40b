import NewsstandCore

/// Draws the whole interface for a state: header, the screen on top in its body area, status line.
/// Pure: same state, same cells.
public enum AppView {
    /// The area a screen draws in for a terminal size: between the header bar and the status line.
    public static func body(width: Int, height: Int) -> Rect {
        Rect(x: 0, y: 1, width: width, height: height - 2)
    }

    public static func render(_ state: AppState, theme: Theme) -> CellBuffer {
        var buffer = CellBuffer(width: state.width, height: state.height, style: theme[.background])
        guard state.width > 0 && state.height > 0 else { return buffer }
        let (header, rest) = buffer.area.splitTop(1)
        let (_, status) = rest.splitBottom(1)
        let body = state.body
        HeaderBar(publications: state.library.publications, selected: state.shelf.selectedPublication,
                  counts: state.library.counts)
            .render(in: header, theme: theme, into: &buffer)
        let screen = state.screens.last?.model ?? ShelfScreen()
        let position = screen.render(state.shared, in: body, theme: theme, into: &buffer)
        let hints = screen.hints(state.keys)
        if let prompt = state.prompt {
            if prompt.takesText {
                prompt.field.render(label: " " + prompt.label, in: status, style: theme[.message], into: &buffer, shown: prompt.shownText)
            } else {
                buffer.writeLine(" " + prompt.label, in: status, style: theme[.statusKey])
            }
        } else {
            StatusLine(hints: hints, message: state.message, position: position)
                .render(in: status, theme: theme, into: &buffer)
        }
        if state.screenReader { buffer.blankDecoration() }
        return buffer
    }

    /// "3/12": the selected item of a list, or nothing for an empty one.
    static func listPosition(_ cursor: ListCursor, count: Int) -> String {
        count == 0 ? "" : "\(min(cursor.selection, count - 1) + 1)/\(count)"
    }

    /// "3/12", after the view when it is not the shelf's own: "by title · downloaded  3/12".
    static func shelfPosition(_ state: SharedState) -> String {
        let position = listPosition(state.shelfCursor, count: state.currentIssueCount)
        let view = state.library.view
        guard view != .standard else { return position }
        let order: String? = switch view.sort {
        case .newest: nil
        case .oldest: "oldest first"
        case .title: "by title"
        }
        let filter: String? = view.filter == .all ? nil : view.filter.rawValue
        return ([order, filter].compactMap { $0 }.joined(separator: " · ") + "  " + position).trimmingCharacters(in: .whitespaces)
    }
}
