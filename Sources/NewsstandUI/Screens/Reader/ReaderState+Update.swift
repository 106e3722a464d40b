import Foundation
import NewsstandContent
import NewsstandCore
import NewsstandImaging

/// The reader's keys and messages: opening an issue, its contents, an article's lines, pictures, search, links, and
/// keeping the reader's place. Each works on the reader and the shared state (`ReaderContext`).
extension AppUpdate {
    // MARK: Opening and loading

    static func issueOpened(_ result: Result<EPUBBook, ReaderFailure>, resumeAt: ReadingPosition?, _ state: inout ReaderContext) -> [Effect] {
        guard var reader = state.reader else { return [] }
        switch result {
        case .success(let book):
            reader.book = book
            let target = reader.openAt ?? resumeAt
            reader.openAt = nil
            if let target, book.articles.indices.contains(target.articleIndex) {
                reader.pendingPosition = target
                return openArticle(target.articleIndex, &reader, &state)
            }
        case .failure(let failure):
            reader.failure = failure.reason
            state.message = StatusMessage("Cannot open the issue: \(failure.reason)", isError: true)
        }
        state.reader = reader
        return []
    }

    static func articleLoaded(_ articleIndex: Int, _ result: Result<[TextBlock], ReaderFailure>, _ state: inout ReaderContext) -> [Effect] {
        guard var reader = state.reader, reader.articleIndex == articleIndex else { return [] }
        let issueID = reader.issueID
        switch result {
        case .success(let blocks):
            let layout = reader.view.show(blocks, state.shared)
            reader.failure = nil
            var top = reader.pendingPosition.map { layout.line(for: $0) } ?? 0
            reader.matchLine = nil
            if let first = reader.pendingMatchIsFirst, let search = reader.search {
                let lines = matchLines(layout, search.query)
                if let line = first ? lines.first : lines.last {
                    reader.matchLine = line
                    top = line - matchContext
                } else {
                    let blocks = (search.matches ?? []).filter { $0.articleIndex == articleIndex }.map(\.blockIndex)
                    if let block = first ? blocks.min() : blocks.max() { top = layout.line(forBlock: block) }
                }
            }
            reader.pendingMatchIsFirst = nil
            reader.view.scroll(to: top, state.shared)
            reader.pendingPosition = nil
            state.reader = reader
            return [.saveReadingPosition(issueID: issueID, reader.position)] + pictureEffects(&state)
        case .failure(let failure):
            reader.view.topLine = 0
            reader.view.show([.paragraph("This article cannot be shown: \(failure.reason)")], state.shared)
            reader.pendingMatchIsFirst = nil
            state.reader = reader
            return []
        }
    }

    /// Shows article `index` (loading it), leaving article-specific state behind.
    static func openArticle(_ index: Int, _ reader: inout ReaderState, _ state: inout ReaderContext) -> [Effect] {
        reader.articleIndex = index
        reader.isShowingArticle = true
        reader.contentsCursor.select(reader.contentsRow(forArticle: index), count: reader.contents.count, page: ContentsScreen.layout(in: state.body).page)
        reader.view.clear()
        reader.matchLine = nil
        reader.selection = nil
        reader.showsPagePicture = reader.book?.isComicBook == true
        reader.pagePicture = nil
        reader.pageFailure = nil
        state.reader = reader
        if state.screenReader, let book = reader.book, book.articles.indices.contains(index) {
            state.message = StatusMessage("Article \(index + 1) of \(book.articles.count): \(book.articles[index].title)")
        }
        return [.loadArticle(issueID: reader.issueID, articleIndex: index)] + (reader.showsPagePicture ? [renderPage(reader, state)] : [])
    }

    /// Lines of picture an article's image gets at a width: a quarter of the measure, 4 to 16 lines.
    public static func pictureHeight(forWidth width: Int, measure: Int = ArticleLayout.defaultMeasure) -> Int {
        let measure = max(1, min(width - 2, measure))
        return max(4, min(16, measure / 4))
    }

    static func makeLayout(_ blocks: [TextBlock], _ state: SharedState) -> ArticleLayout {
        ArticleLayout(blocks: blocks, width: state.width, maximumMeasure: state.articleMeasure,
                      pictureHeight: pictureHeight(forWidth: state.width, measure: state.articleMeasure))
    }

    /// Lays the open article out again for a new width, keeping the same text at the top.
    static func reflowReader(_ state: inout ReaderContext) {
        guard var reader = state.reader, reader.view.blocks != nil else { return }
        reader.view.reflow(state.shared, articleIndex: reader.articleIndex)
        guard let layout = reader.view.layout else { return }
        reader.matchLine = nil
        reader.selection = reader.selection.flatMap { PassageSelection($0, in: ArticlePassages(layout, articleIndex: reader.articleIndex)) }
        state.reader = reader
    }

    // MARK: Contents

    static func handleContents(_ command: Command, key: Key, _ state: inout ReaderContext) -> [Effect] {
        guard var reader = state.reader else { return [] }
        let count = reader.contents.count
        let layout = ContentsScreen.layout(in: state.body)
        if reader.contentsCursor.apply(command, count: count, page: layout.page) {
            state.reader = reader
            return []
        }
        switch command {
        case .tap:
            guard reader.contentsCursor.tap(key, count: count, in: layout) else { return [] }
            guard count > 0 else { return [] }
            let row = reader.contentsCursor.selection
            // A heading that points nowhere opens the first article under it.
            guard let article = reader.contents[row...].first(where: { $0.articleIndex != nil })?.articleIndex else {
                state.reader = reader
                state.message = StatusMessage("This entry does not point at an article of the issue.")
                return []
            }
            return openArticle(article, &reader, &state)
        case .searchIssue:
            guard reader.book != nil else { return [] }
            state.prompt = Prompt(.searchIssue)
            return []
        case .showBookmarks, .showHighlights:
            return handleMarkCommand(command, &state)
        case .back:
            return state.close()
        default:
            return []
        }
    }

    // MARK: Article

    static func handleArticle(_ command: Command, _ state: inout ReaderContext) -> [Effect] {
        guard var reader = state.reader else { return [] }
        let count = reader.book?.articles.count ?? 0
        if reader.book?.isComicBook == true, let turn = pageTurn(command, from: reader.articleIndex, count: count) {
            guard let next = turn else {
                state.message = pastTheEndMessage(command)
                return []
            }
            return next == reader.articleIndex ? [] : openArticle(next, &reader, &state)
        }
        if reader.view.scroll(command, state.shared) {
            let before = state.reader?.position
            state.reader = reader
            return (before == reader.position ? [] : savePosition(state)) + learnPace(reader, &state) + pictureEffects(&state)
        }
        switch command {
        case .nextArticle, .previousArticle:
            let next = reader.articleIndex + (command == .nextArticle ? 1 : -1)
            guard next >= 0 && next < count else {
                state.message = StatusMessage(command == .nextArticle ? "This is the last article." : "This is the first article.")
                return []
            }
            return openArticle(next, &reader, &state)
        case .tableOfContents, .back:
            reader.contentsCursor.select(reader.contentsRow(forArticle: reader.articleIndex), count: reader.contents.count,
                                         page: ContentsScreen.layout(in: state.body).page)
            reader.isShowingArticle = false
            state.reader = reader
            return savePosition(state)
        case .searchIssue:
            state.prompt = Prompt(.searchIssue)
            return []
        case .nextMatch, .previousMatch:
            return goToMatch(forward: command == .nextMatch, &state)
        case .openLink:
            return askForLink(among: reader.view.layout?.links, &state.shared)
        case .pagePicture:
            return togglePagePicture(&state)
        case .addBookmark, .showBookmarks, .selectPassage, .showHighlights:
            return handleMarkCommand(command, &state)
        default:
            return []
        }
    }

    /// Notes where the reader is now, for the pace; remembers a speed it learned.
    static func learnPace(_ reader: ReaderState, _ state: inout ReaderContext) -> [Effect] {
        guard let layout = reader.view.layout, reader.book?.isComicBook != true else { return [] }
        let left = layout.wordsFromLine[min(max(0, reader.view.topLine), layout.lines.count)]
        guard state.readingPace.observe(issueID: reader.issueID, articleIndex: reader.articleIndex, wordsLeft: left, at: state.clock) else { return [] }
        return [.saveSetting(key: ReadingPace.setting, value: String(format: "%.0f", state.readingPace.wordsPerMinute))]
    }

    /// Asks for a link's number (`o N`), or says the article has none.
    static func askForLink(among links: [URL]?, _ state: inout SharedState) -> [Effect] {
        guard let links, !links.isEmpty else {
            state.message = StatusMessage("This article has no links.")
            return []
        }
        state.prompt = Prompt(.link)
        return []
    }

    /// The page a key turns a book of `count` pages shown one per screen (a comic book, streamed pages) to, from
    /// `current`: nil for keys that do not turn pages, `.some(nil)` past either end. Every key that moves forward
    /// (→, ↓, Space, PgDn) shows the next page, back the previous; Home and End the first and last.
    static func pageTurn(_ command: Command, from current: Int, count: Int) -> Int?? {
        let target: Int
        switch command {
        case .nextArticle, .pageDown, .moveDown: target = current + 1
        case .previousArticle, .pageUp, .moveUp: target = current - 1
        case .top: target = 0
        case .bottom: target = count - 1
        default: return nil
        }
        return .some((0..<count).contains(target) ? target : nil)
    }

    /// What a page turn past either end says.
    static func pastTheEndMessage(_ command: Command) -> StatusMessage {
        StatusMessage([.nextArticle, .pageDown, .moveDown].contains(command) ? "This is the last page." : "This is the first page.")
    }

    /// Lines of article on screen (between the header and the status line).
    static func articleVisibleLines(_ state: SharedState) -> Int { ArticleScreen.visibleLines(in: state.body) }

    static func savePosition(_ state: ReaderContext) -> [Effect] {
        guard let reader = state.reader, reader.view.layout != nil else { return [] }
        return [.saveReadingPosition(issueID: reader.issueID, reader.position)]
    }

    // MARK: Typing on the bottom line

    /// The search typed after `/`: asks for the issue's matches.
    static func submitIssueSearch(_ prompt: Prompt, _ state: inout ReaderContext) -> [Effect] {
        let text = TextSanitizer.singleLine(prompt.text).trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty, var reader = state.reader else { return [] }
        reader.search = IssueSearch(query: text)
        reader.matchLine = nil
        state.reader = reader
        state.message = StatusMessage("Searching this issue for “\(text)”…")
        return [.searchIssue(issueID: reader.issueID, query: text)]
    }

    // MARK: Search in the issue

    /// Lines kept above a match brought into view.
    static let matchContext = 2

    /// The lines of an article on which a match of `query` (ignoring case) starts.
    public static func matchLines(_ layout: ArticleLayout, _ query: String) -> [Int] {
        ArticleMatches(query, in: layout).startLines
    }

    static func issueSearched(_ query: String, _ result: Result<[IssueMatch], ReaderFailure>, _ state: inout ReaderContext) -> [Effect] {
        guard var reader = state.reader, var search = reader.search, search.query == query else { return [] }
        switch result {
        case .failure(let failure):
            reader.search = nil
            state.reader = reader
            state.message = StatusMessage("The search failed: \(failure.reason)", isError: true)
            return []
        case .success(let matches):
            guard !matches.isEmpty else {
                reader.search = nil
                state.reader = reader
                if search.jumpsToFirstMatch { state.message = StatusMessage("no matches for “\(query)”") }
                return []
            }
            search.matches = matches.sorted()
            reader.search = search
            state.reader = reader
            let articles = Set(matches.map(\.articleIndex)).count
            state.message = StatusMessage("“\(query)”: \(matches.count) \(matches.count == 1 ? "place" : "places") in \(articles) \(articles == 1 ? "article" : "articles") (n next, N previous)")
            return search.jumpsToFirstMatch ? goToMatch(forward: true, &state, quiet: true) : []
        }
    }

    /// `n` / `N`: the next or previous match, in this article's lines first, then in the next
    /// (previous) article that has one, wrapping around the issue.
    static func goToMatch(forward: Bool, _ state: inout ReaderContext, quiet: Bool = false) -> [Effect] {
        guard var reader = state.reader, let search = reader.search else {
            state.message = StatusMessage("Nothing searched yet: / searches this issue.")
            return []
        }
        guard let matches = search.matches, let firstMatch = matches.first, let lastMatch = matches.last else {
            state.message = StatusMessage("Still searching for “\(search.query)”…")
            return []
        }
        let onArticle = state.screen == .article
        if onArticle, let layout = reader.view.layout {
            let lines = matchLines(layout, search.query)
            let visible = articleVisibleLines(state.shared)
            let cursor: Int
            if let line = reader.matchLine, line >= reader.view.topLine, line < reader.view.topLine + visible {
                cursor = line
            } else {
                cursor = forward ? reader.view.topLine - 1 : reader.view.topLine
            }
            if let target = forward ? lines.first(where: { $0 > cursor }) : lines.last(where: { $0 < cursor }) {
                reader.matchLine = target
                reader.view.scroll(to: target - matchContext, state.shared)
                state.reader = reader
                return savePosition(state) + pictureEffects(&state)
            }
        }
        let articles = Array(Set(matches.map(\.articleIndex))).sorted()
        let current = reader.articleIndex
        let next: Int
        if onArticle {
            next = forward ? (articles.first { $0 > current } ?? firstMatch.articleIndex) : (articles.last { $0 < current } ?? lastMatch.articleIndex)
            if !quiet, forward ? next <= current : next >= current { state.message = StatusMessage("The search wrapped around the issue.") }
        } else {
            next = firstMatch.articleIndex
        }
        if onArticle, next == current, let layout = reader.view.layout {
            // Only this article has matches (and none on a single line): go to its first or last matching block.
            let lines = matchLines(layout, search.query)
            let blocks = matches.filter { $0.articleIndex == current }.map(\.blockIndex)
            let line = (forward ? lines.first : lines.last) ?? (forward ? blocks.min() : blocks.max()).map { layout.line(forBlock: $0) } ?? 0
            reader.matchLine = line
            reader.view.scroll(to: line - matchContext, state.shared)
            state.reader = reader
            return savePosition(state) + pictureEffects(&state)
        }
        reader.pendingMatchIsFirst = onArticle ? forward : true
        return savePosition(state) + openArticle(next, &reader, &state)
    }

    // MARK: Pictures

    /// The picture request for a picture line of the article shown.
    public static func pictureRequest(for line: ArticleLayout.Line, in layout: ArticleLayout, issueID: Int64, _ state: SharedState) -> PictureRequest? {
        guard let source = line.imageSource else { return nil }
        return PictureRequest(issueID: issueID, source: source, columns: max(1, layout.measure - line.indent),
                              rows: pictureHeight(forWidth: layout.width, measure: layout.measure), mode: state.coverMode,
                              background: state.isLightBackground ? .light : .dark, cellPixels: state.pictureCellPixels)
    }

    /// Asks once for the art of each picture in view.
    static func pictureEffects(_ state: inout ReaderContext) -> [Effect] {
        guard state.screen == .article || state.screen == .selection, var reader = state.reader, !reader.showsPagePicture else { return [] }
        let wanted = reader.view.picturesToAsk(state.shared)
        guard !wanted.isEmpty else { return [] }
        state.reader = reader
        return [.requestPictures(wanted)]
    }

    /// A picture of the open issue drawn (or not); a feed article's is its own (`FeedArticleScreen.receive`).
    static func pictureRendered(_ request: PictureRequest, _ result: Result<TextArt, ReaderFailure>, _ state: inout ReaderContext) -> [Effect] {
        guard var reader = state.reader, reader.issueID == request.issueID else { return [] }
        reader.view.pictures.receive(request, result)
        state.reader = reader
        return []
    }

    // MARK: Pages as pictures (PDF pages, comic books)

    /// Draws the page shown as a picture, fitted to the body of the window.
    static func renderPage(_ reader: ReaderState, _ state: ReaderContext) -> Effect {
        let (columns, rows) = ArticleScreen.pagePictureSize(in: state.body)
        return .renderPage(issueID: reader.issueID, articleIndex: reader.articleIndex, columns: columns, rows: rows,
                           mode: state.coverMode, background: state.isLightBackground ? .light : .dark, cellPixels: state.pictureCellPixels)
    }

    /// After a resize: draws the page shown as a picture again when it no longer fits the window.
    static func pagePictureEffects(_ state: inout ReaderContext) -> [Effect] {
        guard state.screen == .article, var reader = state.reader, reader.showsPagePicture, reader.pageFailure == nil else { return [] }
        let (columns, rows) = ArticleScreen.pagePictureSize(in: state.body)
        if let art = reader.pagePicture?.art, art.columns == columns, art.rows == rows { return [] }
        reader.pagePicture = nil
        state.reader = reader
        return [renderPage(reader, state)]
    }

    static func togglePagePicture(_ state: inout ReaderContext) -> [Effect] {
        guard var reader = state.reader else { return [] }
        if reader.book?.isComicBook == true {
            state.message = StatusMessage("The pages of a comic book are pictures already.")
            return []
        }
        guard reader.book?.isPDF == true else {
            state.message = StatusMessage("P draws a PDF page as a picture; this issue is not a PDF.")
            return []
        }
        if reader.showsPagePicture {
            reader.showsPagePicture = false
            state.reader = reader
            return []
        }
        reader.showsPagePicture = true
        let (columns, rows) = ArticleScreen.pagePictureSize(in: state.body)
        if let picture = reader.pagePicture, picture.articleIndex == reader.articleIndex, picture.art.columns == columns, picture.art.rows == rows {
            state.reader = reader
            return []
        }
        reader.pagePicture = nil
        state.reader = reader
        state.message = StatusMessage("Drawing page \(reader.articleIndex + 1)…")
        return [renderPage(reader, state)]
    }

    static func pageRendered(_ articleIndex: Int, _ result: Result<TextArt, ReaderFailure>, _ state: inout ReaderContext) -> [Effect] {
        guard var reader = state.reader, reader.articleIndex == articleIndex, reader.showsPagePicture else { return [] }
        switch result {
        case .success(let art):
            reader.pagePicture = PagePicture(articleIndex: articleIndex, art: art)
            if state.message?.text.hasPrefix("Drawing page") == true { state.message = nil }
        case .failure(let failure) where reader.book?.isComicBook == true:
            // The page itself is what cannot be shown; the other pages still read.
            reader.pageFailure = failure.reason
        case .failure(let failure):
            reader.showsPagePicture = false
            state.message = StatusMessage("Cannot draw the page: \(failure.reason)", isError: true)
        }
        state.reader = reader
        return []
    }
}
