import Foundation
import NewsstandContent
import NewsstandCore

/// The reader: opening an issue, its contents, an article's lines, and keeping the reader's place.
extension AppUpdate {
    static func issueOpened(_ issueID: Int64, _ result: Result<EPUBBook, ReaderFailure>, resumeAt: ReadingPosition?, _ state: inout AppState) -> [Effect] {
        guard var reader = state.reader, reader.issueID == issueID else { return [] }
        switch result {
        case .success(let book):
            reader.book = book
            if let resumeAt, book.articles.indices.contains(resumeAt.articleIndex) {
                reader.articleIndex = resumeAt.articleIndex
                reader.contentsSelection = resumeAt.articleIndex
                reader.pendingBlockIndex = resumeAt.blockIndex
                state.reader = reader
                state.screens = [.shelf, .contents, .article]
                return [.loadArticle(issueID: issueID, articleIndex: resumeAt.articleIndex)]
            }
        case .failure(let failure):
            reader.failure = failure.reason
            state.message = StatusMessage("Cannot open the issue: \(failure.reason)", isError: true)
        }
        state.reader = reader
        return []
    }

    static func articleLoaded(_ issueID: Int64, _ articleIndex: Int, _ result: Result<[TextBlock], ReaderFailure>, _ state: inout AppState) -> [Effect] {
        guard var reader = state.reader, reader.issueID == issueID, reader.articleIndex == articleIndex else { return [] }
        switch result {
        case .success(let blocks):
            let layout = ArticleLayout(blocks: blocks, width: state.width)
            reader.blocks = blocks
            reader.layout = layout
            reader.failure = nil
            reader.topLine = clampTop(reader.pendingBlockIndex.map { layout.line(forBlock: $0) } ?? 0, layout: layout, state: state)
            reader.pendingBlockIndex = nil
            state.reader = reader
            return [.saveReadingPosition(issueID: issueID, reader.position)]
        case .failure(let failure):
            reader.blocks = [.paragraph("This article cannot be shown: \(failure.reason)")]
            reader.layout = ArticleLayout(blocks: reader.blocks!, width: state.width)
            reader.topLine = 0
            state.reader = reader
            return []
        }
    }

    /// Lays the open article out again for a new width, keeping the same text at the top.
    static func reflowReader(_ state: inout AppState) {
        guard var reader = state.reader, let blocks = reader.blocks else { return }
        let block = reader.layout?.blockIndex(atLine: reader.topLine) ?? 0
        let layout = ArticleLayout(blocks: blocks, width: state.width)
        reader.layout = layout
        reader.topLine = clampTop(layout.line(forBlock: block), layout: layout, state: state)
        state.reader = reader
    }

    static func handleContents(_ command: Command, key: Key, _ state: inout AppState) -> [Effect] {
        guard var reader = state.reader else { state.screens = [.shelf]; return [] }
        let count = reader.book?.articles.count ?? 0
        let visible = max(1, state.height - 4)
        switch command {
        case .moveDown: reader.contentsSelection += 1
        case .moveUp: reader.contentsSelection -= 1
        case .pageDown: reader.contentsSelection += visible
        case .pageUp: reader.contentsSelection -= visible
        case .top: reader.contentsSelection = 0
        case .bottom: reader.contentsSelection = count - 1
        case .tap:
            if case .mouseClick(_, let y) = key {
                let first = ContentsScreen.firstVisible(selection: reader.contentsSelection, visible: visible)
                let index = first + (y - ContentsScreen.listTop)
                guard y >= ContentsScreen.listTop, index < count else { return [] }
                reader.contentsSelection = index
            }
            guard count > 0 else { return [] }
            reader.articleIndex = min(max(0, reader.contentsSelection), count - 1)
            reader.blocks = nil
            reader.layout = nil
            reader.topLine = 0
            state.reader = reader
            state.screens = [.shelf, .contents, .article]
            return [.loadArticle(issueID: reader.issueID, articleIndex: reader.articleIndex)]
        case .help:
            return openHelp(&state)
        case .back:
            state.screens = [.shelf]
            return []
        default:
            break
        }
        reader.contentsSelection = min(max(0, reader.contentsSelection), max(0, count - 1))
        state.reader = reader
        return []
    }

    static func handleArticle(_ command: Command, _ state: inout AppState) -> [Effect] {
        guard var reader = state.reader else { state.screens = [.shelf]; return [] }
        let page = max(1, state.height - 3)
        let count = reader.book?.articles.count ?? 0
        switch command {
        case .moveDown: reader.topLine += 1
        case .moveUp: reader.topLine -= 1
        case .pageDown: reader.topLine += page
        case .pageUp: reader.topLine -= page
        case .top: reader.topLine = 0
        case .bottom: reader.topLine = Int.max / 2
        case .nextArticle, .previousArticle:
            let next = reader.articleIndex + (command == .nextArticle ? 1 : -1)
            guard next >= 0 && next < count else {
                state.message = StatusMessage(command == .nextArticle ? "This is the last article." : "This is the first article.")
                return []
            }
            reader.articleIndex = next
            reader.contentsSelection = next
            reader.blocks = nil
            reader.layout = nil
            reader.topLine = 0
            state.reader = reader
            return [.loadArticle(issueID: reader.issueID, articleIndex: next)]
        case .tableOfContents, .back:
            reader.contentsSelection = reader.articleIndex
            state.reader = reader
            state.screens = [.shelf, .contents]
            return savePosition(state)
        case .help:
            return openHelp(&state)
        default:
            return []
        }
        if let layout = reader.layout { reader.topLine = clampTop(reader.topLine, layout: layout, state: state) } else { reader.topLine = 0 }
        let before = state.reader?.position
        state.reader = reader
        return before == reader.position ? [] : savePosition(state)
    }

    static func clampTop(_ line: Int, layout: ArticleLayout, state: AppState) -> Int {
        let visible = max(1, state.height - 2)
        return min(max(0, line), max(0, layout.lines.count - visible))
    }

    static func savePosition(_ state: AppState) -> [Effect] {
        guard let reader = state.reader, reader.layout != nil else { return [] }
        return [.saveReadingPosition(issueID: reader.issueID, reader.position)]
    }
}
