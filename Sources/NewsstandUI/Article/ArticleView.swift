import NewsstandContent
import NewsstandCore
import NewsstandImaging

/// One article on screen, as an issue's reader and a feed's article both show it: its blocks, their layout for the
/// window's width, the scroll (the line at the top) and the art of its pictures. The screens holding one add what is
/// theirs (an issue's search and marks, a headline's whole article); laying out, scrolling, reflowing and asking for
/// pictures happen here once.
public struct ArticleView: Equatable, Sendable {
    /// The issue its pictures are read from; 0 for a feed's article, whose pictures are web addresses.
    public let issueID: Int64
    /// What is shown; nil while it is read.
    public var blocks: [TextBlock]?
    /// The blocks laid out for the current width; rebuilt on resize.
    public var layout: ArticleLayout?
    /// The scroll: its offset is the first line shown.
    public private(set) var cursor = ListCursor()
    /// First line shown.
    public var topLine: Int {
        get { cursor.offset }
        set { cursor = ListCursor(selection: newValue, offset: newValue) }
    }
    /// The article's pictures drawn as text art, asked for as they come into view.
    public var pictures = ArtCache<PictureRequest>()

    public init(issueID: Int64) {
        self.issueID = issueID
    }

    /// Shows `blocks` laid out for the window of `state`, the top line left where it was (clamped to the new layout).
    @discardableResult
    public mutating func show(_ blocks: [TextBlock], _ state: SharedState) -> ArticleLayout {
        self.blocks = blocks
        let layout = AppUpdate.makeLayout(blocks, state)
        self.layout = layout
        scroll(to: topLine, state)
        return layout
    }

    /// Nothing shown (an article being read), from the top.
    public mutating func clear() {
        blocks = nil
        layout = nil
        topLine = 0
    }

    /// Puts `line` at the top, as far as the article goes (the last screen ends with its last line); 0 with no layout.
    public mutating func scroll(to line: Int, _ state: SharedState) {
        topLine = line
        cursor.keepScrolled(count: layout?.lines.count ?? 0, page: Self.page(state))
    }

    /// Scrolls by a command (a line, a page keeping the last line of the one before in view, either end); false for
    /// a command that does not scroll.
    public mutating func scroll(_ command: Command, _ state: SharedState) -> Bool {
        cursor.scroll(command, count: layout?.lines.count ?? 0, page: Self.page(state), overlap: 1)
    }

    /// Lines of article on screen, as a page of the scroll.
    private static func page(_ state: SharedState) -> ListPage { ListPage(rows: AppUpdate.articleVisibleLines(state)) }

    /// The width-independent place of the line at the top, in article `articleIndex`.
    public func position(articleIndex: Int) -> ReadingPosition {
        layout?.position(atLine: topLine, articleIndex: articleIndex) ?? ReadingPosition(articleIndex: articleIndex, blockIndex: 0)
    }

    /// Lays the blocks out again for the window of `state`, keeping the same text at the top.
    public mutating func reflow(_ state: SharedState, articleIndex: Int = 0) {
        guard let blocks, layout != nil else { return }
        let position = position(articleIndex: articleIndex)
        let layout = AppUpdate.makeLayout(blocks, state)
        self.layout = layout
        scroll(to: layout.line(for: position), state)
    }

    /// The pictures in view not asked for yet (those `allowed` only), each once; now noted as asked for.
    public mutating func picturesToAsk(_ state: SharedState, allowed: (PictureRequest) -> Bool = { _ in true }) -> [PictureRequest] {
        guard let layout, !layout.lines.isEmpty else { return [] }
        let first = min(max(0, topLine), layout.lines.count)
        let inView = layout.lines[first..<min(layout.lines.count, first + AppUpdate.articleVisibleLines(state))]
            .compactMap { AppUpdate.pictureRequest(for: $0, in: layout, issueID: issueID, state) }
            .filter(allowed)
        return pictures.ask(for: inView)
    }

    /// How far through the article the top line is, in percent of what scrolls (100 when nothing does), and the
    /// time left at the reader's pace (" · 2 min left", or "" while the pace is not known).
    public func progress(in area: Rect, pace: ReadingPace) -> (percent: Int, timeLeft: String)? {
        guard let layout else { return nil }
        let scrollable = max(0, layout.lines.count - ArticleScreen.visibleLines(in: area))
        let percent = scrollable == 0 ? 100 : min(100, topLine * 100 / scrollable)
        let left = pace.timeLeft(words: layout.wordsFromLine[min(max(0, topLine), layout.lines.count)]).map { " · \($0)" } ?? ""
        return (percent, left)
    }
}
