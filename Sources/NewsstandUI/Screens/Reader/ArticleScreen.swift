import Foundation
import NewsstandContent
import NewsstandCore
import NewsstandImaging

/// An article, set to the window and scrolled to the reader's place: pictures drawn on their
/// lines, search matches highlighted; or a page drawn as a picture (a PDF page, a comic book's page).
public enum ArticleScreen {
    /// Lines of article shown in a body `area`: all of it.
    public static func visibleLines(in area: Rect) -> Int { max(1, area.height) }

    /// The size a page is drawn at (a PDF page after `P`, a comic book's page) in a body `area`: a column
    /// of margin each side, a line below (a comic book page's title).
    public static func pagePictureSize(in area: Rect) -> (columns: Int, rows: Int) {
        (max(1, area.width - 2), max(1, area.height - 1))
    }

    public static func render(_ reader: ReaderScreen, _ state: SharedState, in area: Rect, theme: Theme, into buffer: inout CellBuffer) {
        if reader.showsPagePicture {
            if let book = reader.book, book.isComicBook, book.articles.indices.contains(reader.articleIndex), area.height >= 2 {
                let title = book.articles[reader.articleIndex].title
                let x = area.x + max(0, (area.width - DisplayWidth.of(title)) / 2)
                buffer.write(title, x: x, y: area.maxY - 1, style: theme[.summary], maxWidth: area.maxX - x)
            }
            if let failure = reader.pageFailure {
                let lines = TextWrapper.wrap("This page cannot be shown: \(failure)", width: max(1, area.width - 4))
                for (row, line) in lines.prefix(max(0, area.height - 2)).enumerated() {
                    buffer.write(line, x: area.x + 2, y: area.y + 1 + row, style: theme[.error], maxWidth: area.width - 4)
                }
                return
            }
            guard let picture = reader.pagePicture, picture.articleIndex == reader.articleIndex else {
                buffer.write("Drawing the page…", x: 2, y: area.y + 1, style: theme[.summary])
                return
            }
            let x = area.x + max(0, (area.width - picture.art.columns) / 2)
            for row in 0..<min(area.height, picture.art.rows) {
                drawArtRow(picture.art, row: row, x: x, y: area.y + row, width: area.width - x, theme: theme, into: &buffer)
            }
            return
        }
        render(reader.view, state, in: area, theme: theme, into: &buffer, search: reader.search?.query ?? "",
               highlights: (reader.marks?.highlights ?? []).filter { !$0.isLost && $0.articleIndex == reader.articleIndex },
               selection: reader.selection)
    }

    /// An article view (an issue's article, a feed's) from its top line: its text, its pictures drawn as they came,
    /// and on it the matches of `search`, the `highlights` kept and the passage being chosen.
    public static func render(_ view: ArticleView, _ state: SharedState, in area: Rect, theme: Theme, into buffer: inout CellBuffer,
                              search: String = "", highlights: [Highlight] = [], selection: PassageSelection? = nil) {
        guard let layout = view.layout else {
            buffer.write("Loading the article…", x: 2, y: area.y + 1, style: theme[.summary])
            return
        }
        let matches = ArticleMatches(search, in: layout, lines: max(0, view.topLine - 4)..<(view.topLine + area.height))
        for row in 0..<area.height {
            let index = view.topLine + row
            guard index < layout.lines.count else { break }
            let line = layout.lines[index]
            let start = area.x + layout.margin + line.indent
            let limit = area.width - layout.margin - line.indent
            if line.imageSource != nil, let request = AppUpdate.pictureRequest(for: line, in: layout, issueID: view.issueID, state),
               let art = view.pictures[request] {
                // Which row of the picture this line is: lines of one picture follow each other.
                var artRow = 0
                while index - artRow - 1 >= 0, layout.lines[index - artRow - 1].imageSource == line.imageSource,
                      layout.lines[index - artRow - 1].blockIndex == line.blockIndex { artRow += 1 }
                if artRow < art.rows {
                    drawArtRow(art, row: artRow, x: start, y: area.y + row, width: limit, theme: theme, into: &buffer)
                }
                continue
            }
            var used = 0
            for span in line.spans where used < limit {
                used += buffer.write(span.text, x: start + used, y: area.y + row, style: style(of: span, on: line.element, theme: theme),
                                     maxWidth: max(0, limit - used))
            }
            let text = line.text
            func paint(_ range: Range<String.Index>, _ style: TextStyle) {
                let column = DisplayWidth.of(String(text[..<range.lowerBound]))
                guard column < limit else { return }
                buffer.write(String(text[range]), x: start + column, y: area.y + row, style: style, maxWidth: limit - column)
            }
            for highlight in highlights {
                if let range = ArticlePassages.range(on: line, from: highlight.start, to: highlight.end) { paint(range, theme[.highlight]) }
            }
            for piece in matches.pieces(onLine: index) { paint(piece.range, theme[.selection]) }
            if let selection, let range = ArticlePassages.range(on: line, from: selection.start, to: selection.end) {
                paint(range, theme[.selection].adding([.underline]))
            }
        }
    }

    /// One row of text art: plain art in the theme's cover style, coloured art with each cell's colours,
    /// a terminal picture as its placeholder cells.
    static func drawArtRow(_ art: TextArt, row: Int, x: Int, y: Int, width: Int, theme: Theme, into buffer: inout CellBuffer) {
        guard row < art.lines.count, width > 0 else { return }
        if let picture = art.picture {
            buffer.placePictureRow(picture, row: row, x: x, y: y, maxWidth: width)
            return
        }
        let base = theme[.cover]
        guard art.hasColors else {
            buffer.write(art.lines[row], x: x, y: y, style: base, maxWidth: width)
            return
        }
        for (column, character) in art.lines[row].prefix(min(width, art.columns)).enumerated() {
            var style = base
            if let color = art.foreground(column: column, row: row) { style.foreground = .rgb(color.red, color.green, color.blue) }
            if let color = art.background(column: column, row: row) { style.background = .rgb(color.red, color.green, color.blue) }
            buffer.write(String(character), x: x + column, y: y, style: style, maxWidth: 1)
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

    /// "article 2/5 · 40% · issue 31%": where the reader is in the article and in the issue (by
    /// articles: the articles before this one, and this one's share read so far); "page 3/24" in a comic book.
    public static func positionText(_ reader: ReaderScreen, in area: Rect, pace: ReadingPace = ReadingPace()) -> String {
        if let book = reader.book, book.isComicBook { return "page \(reader.articleIndex + 1)/\(book.articles.count)" }
        guard let progress = reader.view.progress(in: area, pace: pace) else { return "" }
        let count = reader.book?.articles.count ?? 0
        let issuePercent = count == 0 ? progress.percent : min(100, (reader.articleIndex * 100 + progress.percent) / count)
        return "article \(reader.articleIndex + 1)/\(count) · \(progress.percent)% · issue \(issuePercent)%\(progress.timeLeft)"
    }
}
