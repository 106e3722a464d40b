import NewsstandContent
import NewsstandCore

/// Streamed pages, one per screen as a comic book's: the page's picture fitted to the window, or why it
/// cannot be shown, and under it the title and "page 3 of 24".
extension PageStreamScreen {
    public static func render(_ viewer: PageStreamScreen, in area: Rect, theme: Theme, into buffer: inout CellBuffer) {
        guard area.height >= 1, area.width >= 1 else { return }
        let caption = "\(viewer.title) · \(pageText(viewer))"
        let captionWidth = DisplayWidth.of(caption)
        let x = area.x + max(0, (area.width - captionWidth) / 2)
        buffer.write(caption, x: x, y: area.maxY - 1, style: theme[.summary], maxWidth: area.maxX - x)
        let number = viewer.page + 1
        switch viewer.pages[viewer.page] {
        case .success(let art)?:
            let left = area.x + max(0, (area.width - art.columns) / 2)
            for row in 0..<min(area.height - 1, art.rows) {
                ArticleScreen.drawArtRow(art, row: row, x: left, y: area.y + row, width: area.maxX - left, theme: theme, into: &buffer)
            }
        case .failure(let failure)?:
            let text = failure.reason.prefix(1).uppercased() + failure.reason.dropFirst()
            let lines = TextWrapper.wrap(text, width: max(1, area.width - 4)) + ["", "The other pages still turn: → and ←."]
            for (row, line) in lines.prefix(max(0, area.height - 2)).enumerated() {
                buffer.write(line, x: area.x + 2, y: area.y + 1 + row, style: theme[row < lines.count - 2 ? .error : .summary], maxWidth: area.width - 4)
            }
        case nil:
            buffer.write("Fetching page \(number)…", x: area.x + 2, y: area.y + 1, style: theme[.summary], maxWidth: area.width - 4)
        }
    }

    /// "page 3 of 24".
    public static func pageText(_ viewer: PageStreamScreen) -> String {
        "page \(viewer.page + 1) of \(viewer.stream.pageCount)"
    }
}
