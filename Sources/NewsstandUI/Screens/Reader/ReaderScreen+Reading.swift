import Foundation
import NewsstandContent
import NewsstandCore
import NewsstandImaging

/// The reader's keys and messages: opening an issue, its contents, an article's lines, pictures, search, links, and
/// keeping the reader's place. Each changes the reader and what screens share.
extension ReaderScreen {
    // MARK: Opening and loading

    mutating func issueOpened(_ result: Result<EPUBBook, ReaderFailure>, resumeAt: ReadingPosition?, _ shared: inout SharedState) -> [Effect] {
        switch result {
        case .success(let book):
            self.book = book
            let target = openAt ?? resumeAt
            openAt = nil
            if let target, book.articles.indices.contains(target.articleIndex) {
                pendingPosition = target
                return openArticle(target.articleIndex, &shared)
            }
        case .failure(let failure):
            self.failure = failure.reason
            shared.message = StatusMessage("Cannot open the issue: \(failure.reason)", isError: true)
        }
        return []
    }

    mutating func articleLoaded(_ articleIndex: Int, _ result: Result<[TextBlock], ReaderFailure>, _ shared: inout SharedState) -> [Effect] {
        guard self.articleIndex == articleIndex else { return [] }
        switch result {
        case .success(let blocks):
            let layout = view.show(blocks, shared)
            failure = nil
            var top = pendingPosition.map { layout.line(for: $0) } ?? 0
            matchLine = nil
            if let first = pendingMatchIsFirst, let search {
                let lines = AppUpdate.matchLines(layout, search.query)
                if let line = first ? lines.first : lines.last {
                    matchLine = line
                    top = line - Self.matchContext
                } else {
                    let blocks = (search.matches ?? []).filter { $0.articleIndex == articleIndex }.map(\.blockIndex)
                    if let block = first ? blocks.min() : blocks.max() { top = layout.line(forBlock: block) }
                }
            }
            pendingMatchIsFirst = nil
            view.scroll(to: top, shared)
            pendingPosition = nil
            return [.saveReadingPosition(issueID: issueID, position)] + pictureEffects(shared)
        case .failure(let failure):
            view.topLine = 0
            view.show([.paragraph("This article cannot be shown: \(failure.reason)")], shared)
            pendingMatchIsFirst = nil
            return []
        }
    }

    /// Shows article `index` (loading it), leaving article-specific state behind.
    mutating func openArticle(_ index: Int, _ shared: inout SharedState) -> [Effect] {
        articleIndex = index
        isShowingArticle = true
        contentsCursor.select(contentsRow(forArticle: index), count: contents.count, page: ContentsScreen.layout(in: shared.body).page)
        view.clear()
        matchLine = nil
        selection = nil
        showsPagePicture = book?.isComicBook == true
        pagePicture = nil
        pageFailure = nil
        if shared.screenReader, let book, book.articles.indices.contains(index) {
            shared.message = StatusMessage("Article \(index + 1) of \(book.articles.count): \(book.articles[index].title)")
        }
        return [.loadArticle(issueID: issueID, articleIndex: index)] + (showsPagePicture ? [renderPage(shared)] : [])
    }

    /// Lays the open article out again for a new width, keeping the same text at the top.
    mutating func reflow(_ shared: SharedState) {
        guard view.blocks != nil else { return }
        view.reflow(shared, articleIndex: articleIndex)
        guard let layout = view.layout else { return }
        matchLine = nil
        selection = selection.flatMap { PassageSelection($0, in: ArticlePassages(layout, articleIndex: articleIndex)) }
    }

    /// Leaves the issue: the reader closes, and its place goes to the progress sync server (when it is on).
    func close() -> ScreenAnswer {
        .pop([.pushProgress(issueID: issueID)])
    }

    // MARK: Contents

    mutating func handleContents(_ command: Command, key: Key, _ shared: inout SharedState) -> ScreenAnswer {
        let count = contents.count
        let layout = ContentsScreen.layout(in: shared.body)
        if contentsCursor.apply(command, count: count, page: layout.page) { return .stay() }
        switch command {
        case .tap:
            guard count > 0, contentsCursor.tap(key, count: count, in: layout) else { return .stay() }
            let row = contentsCursor.selection
            // A heading that points nowhere opens the first article under it.
            guard let article = contents[row...].first(where: { $0.articleIndex != nil })?.articleIndex else {
                shared.message = StatusMessage("This entry does not point at an article of the issue.")
                return .stay()
            }
            return .stay(openArticle(article, &shared))
        case .searchIssue:
            guard book != nil else { return .stay() }
            shared.prompt = Prompt(.searchIssue)
            return .stay()
        case .showBookmarks, .showHighlights:
            return handleMarkCommand(command, &shared)
        case .back:
            return close()
        default:
            return .stay()
        }
    }

    // MARK: Article

    mutating func handleArticle(_ command: Command, _ shared: inout SharedState) -> ScreenAnswer {
        let count = book?.articles.count ?? 0
        if book?.isComicBook == true, let turn = AppUpdate.pageTurn(command, from: articleIndex, count: count) {
            guard let next = turn else {
                shared.message = AppUpdate.pastTheEndMessage(command)
                return .stay()
            }
            return .stay(next == articleIndex ? [] : openArticle(next, &shared))
        }
        let before = position
        if view.scroll(command, shared) {
            return .stay((before == position ? [] : savePosition()) + learnPace(&shared) + pictureEffects(shared))
        }
        switch command {
        case .nextArticle, .previousArticle:
            let next = articleIndex + (command == .nextArticle ? 1 : -1)
            guard next >= 0 && next < count else {
                shared.message = StatusMessage(command == .nextArticle ? "This is the last article." : "This is the first article.")
                return .stay()
            }
            return .stay(openArticle(next, &shared))
        case .tableOfContents, .back:
            contentsCursor.select(contentsRow(forArticle: articleIndex), count: contents.count, page: ContentsScreen.layout(in: shared.body).page)
            isShowingArticle = false
            return .stay(savePosition())
        case .searchIssue:
            shared.prompt = Prompt(.searchIssue)
            return .stay()
        case .nextMatch, .previousMatch:
            return .stay(goToMatch(forward: command == .nextMatch, &shared))
        case .openLink:
            return .stay(AppUpdate.askForLink(among: view.layout?.links, &shared))
        case .pagePicture:
            return .stay(togglePagePicture(&shared))
        case .addBookmark, .showBookmarks, .selectPassage, .showHighlights:
            return handleMarkCommand(command, &shared)
        default:
            return .stay()
        }
    }

    /// Notes where the reader is now, for the pace; remembers a speed it learned.
    func learnPace(_ shared: inout SharedState) -> [Effect] {
        guard let layout = view.layout, book?.isComicBook != true else { return [] }
        let left = layout.wordsFromLine[min(max(0, view.topLine), layout.lines.count)]
        guard shared.readingPace.observe(issueID: issueID, articleIndex: articleIndex, wordsLeft: left, at: shared.clock) else { return [] }
        return [.saveSetting(key: ReadingPace.setting, value: String(format: "%.0f", shared.readingPace.wordsPerMinute))]
    }

    // MARK: Typing on the bottom line

    /// The search typed after `/`: asks for the issue's matches.
    mutating func submitIssueSearch(_ prompt: Prompt, _ shared: inout SharedState) -> [Effect] {
        let text = TextSanitizer.singleLine(prompt.text).trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { return [] }
        search = IssueSearch(query: text)
        matchLine = nil
        shared.message = StatusMessage("Searching this issue for “\(text)”…")
        return [.searchIssue(issueID: issueID, query: text)]
    }

    // MARK: Search in the issue

    /// Lines kept above a match brought into view.
    static let matchContext = 2

    mutating func issueSearched(_ query: String, _ result: Result<[IssueMatch], ReaderFailure>, _ shared: inout SharedState) -> [Effect] {
        guard var search, search.query == query else { return [] }
        switch result {
        case .failure(let failure):
            self.search = nil
            shared.message = StatusMessage("The search failed: \(failure.reason)", isError: true)
            return []
        case .success(let matches):
            guard !matches.isEmpty else {
                self.search = nil
                if search.jumpsToFirstMatch { shared.message = StatusMessage("No matches for “\(query)” in this issue.") }
                return []
            }
            search.matches = matches.sorted()
            self.search = search
            let articles = Set(matches.map(\.articleIndex)).count
            shared.message = StatusMessage("“\(query)”: \(matches.count) \(matches.count == 1 ? "place" : "places") in \(articles) \(articles == 1 ? "article" : "articles") (n next, N previous)")
            return search.jumpsToFirstMatch ? goToMatch(forward: true, &shared, quiet: true) : []
        }
    }

    /// `n` / `N`: the next or previous match, in this article's lines first, then in the next
    /// (previous) article that has one, wrapping around the issue.
    mutating func goToMatch(forward: Bool, _ shared: inout SharedState, quiet: Bool = false) -> [Effect] {
        guard let search else {
            shared.message = StatusMessage("Nothing searched yet: / searches this issue.")
            return []
        }
        guard let matches = search.matches, let firstMatch = matches.first, let lastMatch = matches.last else {
            shared.message = StatusMessage("Still searching for “\(search.query)”…")
            return []
        }
        let onArticle = kind == .article
        if onArticle, let layout = view.layout {
            let lines = AppUpdate.matchLines(layout, search.query)
            let visible = AppUpdate.articleVisibleLines(shared)
            let cursor: Int
            if let line = matchLine, line >= view.topLine, line < view.topLine + visible {
                cursor = line
            } else {
                cursor = forward ? view.topLine - 1 : view.topLine
            }
            if let target = forward ? lines.first(where: { $0 > cursor }) : lines.last(where: { $0 < cursor }) {
                matchLine = target
                view.scroll(to: target - Self.matchContext, shared)
                return savePosition() + pictureEffects(shared)
            }
        }
        let articles = Array(Set(matches.map(\.articleIndex))).sorted()
        let current = articleIndex
        let next: Int
        if onArticle {
            next = forward ? (articles.first { $0 > current } ?? firstMatch.articleIndex) : (articles.last { $0 < current } ?? lastMatch.articleIndex)
            if !quiet, forward ? next <= current : next >= current { shared.message = StatusMessage("The search wrapped around the issue.") }
        } else {
            next = firstMatch.articleIndex
        }
        if onArticle, next == current, let layout = view.layout {
            // Only this article has matches (and none on a single line): go to its first or last matching block.
            let lines = AppUpdate.matchLines(layout, search.query)
            let blocks = matches.filter { $0.articleIndex == current }.map(\.blockIndex)
            let line = (forward ? lines.first : lines.last) ?? (forward ? blocks.min() : blocks.max()).map { layout.line(forBlock: $0) } ?? 0
            matchLine = line
            view.scroll(to: line - Self.matchContext, shared)
            return savePosition() + pictureEffects(shared)
        }
        let saved = savePosition()
        pendingMatchIsFirst = onArticle ? forward : true
        return saved + openArticle(next, &shared)
    }

    // MARK: Pictures

    /// Asks once for the art of each picture in view.
    mutating func pictureEffects(_ shared: SharedState) -> [Effect] {
        guard isShowingArticle, !showsPagePicture else { return [] }
        let wanted = view.picturesToAsk(shared)
        return wanted.isEmpty ? [] : [.requestPictures(wanted)]
    }

    // MARK: Pages as pictures (PDF pages, comic books)

    /// Draws the page shown as a picture, fitted to the body of the window.
    func renderPage(_ shared: SharedState) -> Effect {
        let (columns, rows) = ArticleScreen.pagePictureSize(in: shared.body)
        return .renderPage(issueID: issueID, articleIndex: articleIndex, columns: columns, rows: rows,
                           mode: shared.coverMode, background: shared.isLightBackground ? .light : .dark, cellPixels: shared.pictureCellPixels)
    }

    /// After a resize: draws the page shown as a picture again when it no longer fits the window.
    mutating func pagePictureEffects(_ shared: SharedState) -> [Effect] {
        guard kind == .article, showsPagePicture, pageFailure == nil else { return [] }
        let (columns, rows) = ArticleScreen.pagePictureSize(in: shared.body)
        if let art = pagePicture?.art, art.columns == columns, art.rows == rows { return [] }
        pagePicture = nil
        return [renderPage(shared)]
    }

    mutating func togglePagePicture(_ shared: inout SharedState) -> [Effect] {
        if book?.isComicBook == true {
            shared.message = StatusMessage("The pages of a comic book are pictures already.")
            return []
        }
        guard book?.isPDF == true else {
            shared.message = StatusMessage("P draws a PDF page as a picture; this issue is not a PDF.")
            return []
        }
        if showsPagePicture {
            showsPagePicture = false
            return []
        }
        showsPagePicture = true
        let (columns, rows) = ArticleScreen.pagePictureSize(in: shared.body)
        if let picture = pagePicture, picture.articleIndex == articleIndex, picture.art.columns == columns, picture.art.rows == rows {
            return []
        }
        pagePicture = nil
        shared.message = StatusMessage("Drawing page \(articleIndex + 1)…")
        return [renderPage(shared)]
    }

    mutating func pageRendered(_ articleIndex: Int, _ result: Result<TextArt, ReaderFailure>, _ shared: inout SharedState) -> [Effect] {
        guard self.articleIndex == articleIndex, showsPagePicture else { return [] }
        switch result {
        case .success(let art):
            pagePicture = PagePicture(articleIndex: articleIndex, art: art)
            if shared.message?.text.hasPrefix("Drawing page") == true { shared.message = nil }
        case .failure(let failure) where book?.isComicBook == true:
            // The page itself is what cannot be shown; the other pages still read.
            pageFailure = failure.reason
        case .failure(let failure):
            showsPagePicture = false
            shared.message = StatusMessage("Cannot draw the page: \(failure.reason)", isError: true)
        }
        return []
    }
}
