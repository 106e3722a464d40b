import NewsstandContent
import NewsstandCore

/// One issue's page: its cover as large as the window allows, with title, publication, date, size, the name the
/// command line takes (`PUBLICATION/HANDLE`), state and summary.
extension DetailScreen {
    /// The cover size for a window: as tall as fits, a 3:4 page in cells about twice as tall as wide, at most half the width.
    public static func coverSize(width: Int, height: Int) -> (columns: Int, rows: Int) {
        var rows = max(4, height - 4)
        var columns = rows * 3 / 2
        if columns > width / 2 {
            columns = max(4, width / 2)
            rows = max(3, columns * 2 / 3)
        }
        return (columns, rows)
    }

    public static func render(_ state: SharedState, in area: Rect, theme: Theme, into buffer: inout CellBuffer) {
        guard let issue = state.selectedIssueValue else { return }
        let size = coverSize(width: state.width, height: state.height)
        let coverArea = Rect(x: area.x + 2, y: area.y + 1, width: size.columns, height: size.rows)
        ShelfScreen.cover(for: issue, columns: size.columns, rows: size.rows, state: state).render(in: coverArea, theme: theme, into: &buffer)
        let text = Rect(x: coverArea.maxX + 3, y: area.y + 1, width: area.maxX - coverArea.maxX - 5, height: area.height - 2)
        guard text.width > 4 else { return }
        var y = text.y
        for line in TextWrapper.wrap(issue.title, width: text.width) where y < text.maxY {
            buffer.write(line, x: text.x, y: y, style: theme[.title])
            y += 1
        }
        let details = [state.currentPublication?.title, DateText.long(issue.date), issue.expectedSize.map { ByteCountText.megabytes($0) + " MB" },
                       state.currentPublication.map { "\($0.name)/\(issue.handle)" }]
        for detail in details.compactMap({ $0 }) where y < text.maxY {
            buffer.write(detail, x: text.x, y: y, style: theme[.date], maxWidth: text.width)
            y += 1
        }
        y += 1
        if y < text.maxY {
            ShelfScreen.renderState(issue, in: text.row(y - text.y), downloads: state.downloads, showsBytes: true,
                                    style: { theme[$0] }, theme: theme, into: &buffer)
            y += 2
        }
        for line in TextWrapper.wrap(issue.summary, width: text.width) where y < text.maxY {
            buffer.write(line, x: text.x, y: y, style: theme[.summary])
            y += 1
        }
    }
}
