import NewsstandContent

/// An issue's table of contents: the publication's nested contents, indented by level, each entry
/// numbered with the article it opens, the one being read marked.
public enum ContentsScreen {
    /// Screen row of the first entry line.
    public static let listTop = 3

    /// The first row shown so that `selection` is visible.
    public static func firstVisible(selection: Int, visible: Int) -> Int {
        max(0, selection - visible + 1)
    }

    public static func render(_ state: AppState, theme: Theme, into buffer: inout CellBuffer) {
        guard let reader = state.reader else { return }
        let area = Rect(x: 0, y: 1, width: state.width, height: state.height - 2)
        let title = reader.book?.title ?? state.issue(id: reader.issueID)?.title ?? ""
        buffer.write(title, x: 2, y: area.y, style: theme[.heading], maxWidth: area.width - 4)
        if let failure = reader.failure {
            buffer.write("This issue cannot be opened: \(failure)", x: 2, y: listTop, style: theme[.error], maxWidth: area.width - 4)
            return
        }
        guard reader.book != nil else {
            buffer.write("Opening…", x: 2, y: listTop, style: theme[.summary])
            return
        }
        let rows = reader.contents
        let visible = max(1, area.maxY - listTop)
        let first = firstVisible(selection: reader.contentsSelection, visible: visible)
        let readingRow = reader.layout != nil ? rows.firstIndex { $0.articleIndex == reader.articleIndex } : nil
        for (offset, index) in (first..<min(rows.count, first + visible)).enumerated() {
            let y = listTop + offset
            let isSelected = index == reader.contentsSelection
            let style = isSelected ? theme[.selection] : theme[.text]
            if isSelected { buffer.fill(Rect(x: 0, y: y, width: state.width, height: 1), style: style) }
            let row = rows[index]
            let marker = index == readingRow ? "▸" : " "
            let number = (row.articleIndex.map { String($0 + 1) } ?? "").leftPadded(to: 3)
            let indent = String(repeating: "  ", count: min(row.depth, 8))
            buffer.write("\(marker) \(number)  \(indent)\(row.title)", x: 1, y: y, style: style, maxWidth: state.width - 2)
        }
    }
}

extension String {
    /// The string right-aligned in `width` columns.
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
