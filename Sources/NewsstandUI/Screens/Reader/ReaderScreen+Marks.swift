import Foundation
import NewsstandContent
import NewsstandCore

/// Bookmarks, highlights and notes in the reader: making them, opening their lists (`MarksScreen`), going to one, deleting one.
extension ReaderScreen {
    // MARK: Reading them

    /// An issue's marks arrive after it opens (`.openIssue` reads them), and again once its highlights were
    /// checked against its text, and after each change.
    mutating func marksLoaded(_ result: Result<IssueMarks, ReaderFailure>, _ shared: inout SharedState) -> [Effect] {
        switch result {
        case .success(let marks):
            let lostBefore = self.marks?.highlights.filter(\.isLost).count ?? 0
            self.marks = marks
            let lost = marks.highlights.filter(\.isLost).count
            if lost > lostBefore {
                shared.message = StatusMessage(lost == 1 ? "One highlighted passage can no longer be found in this issue (\" lists it)."
                                                         : "\(lost) highlighted passages can no longer be found in this issue (\" lists them).")
            }
        case .failure(let failure):
            shared.message = StatusMessage("Bookmarks and highlights: \(failure.reason)", isError: true)
        }
        return []
    }

    // MARK: Keys of the reader

    /// `m`, `'`, `v`, `"` in the article (and `'`, `"` in the contents).
    mutating func handleMarkCommand(_ command: Command, _ shared: inout SharedState) -> ScreenAnswer {
        switch command {
        case .showBookmarks, .showHighlights:
            let list = Screen.marks(MarksScreen(showsHighlights: command == .showHighlights, issueID: issueID, marks: marks))
            return .push(list, marks == nil ? [.loadMarks(issueID: issueID)] : [])
        case .addBookmark:
            guard let layout = view.layout, !showsPagePicture || book?.isComicBook == true else {
                shared.message = StatusMessage("Wait for the article to show, then bookmark it.")
                return .stay()
            }
            let bookmark = Bookmark(issueID: issueID, position: position, name: defaultBookmarkName(layout))
            shared.prompt = Prompt(.bookmarkName(bookmark), text: bookmark.name)
            return .stay()
        case .selectPassage:
            guard let layout = view.layout, !showsPagePicture else {
                shared.message = StatusMessage(showsPagePicture ? "A page drawn as a picture has no text to highlight (P shows its text)." : "Wait for the article to show.")
                return .stay()
            }
            guard let selection = PassageSelection(ArticlePassages(layout, articleIndex: articleIndex), fromLine: view.topLine) else {
                shared.message = StatusMessage("There is no text here to highlight.")
                return .stay()
            }
            self.selection = selection
            keepSelectionInView(shared)
            return .stay()
        default:
            return .stay()
        }
    }

    /// "Article title: the first words of the line at the top…".
    func defaultBookmarkName(_ layout: ArticleLayout) -> String {
        var words: [String] = []
        for index in max(0, view.topLine)..<min(layout.lines.count, view.topLine + 8) where words.count < 6 && layout.lines[index].imageSource == nil {
            words += ArticlePassages.words(of: layout.lines[index], index: index, articleIndex: articleIndex).prefix(6 - words.count).map(\.text)
        }
        let title = articleTitle
        let name = words.isEmpty ? title : "\(title): \(words.joined(separator: " "))…"
        return TextSanitizer.singleLine(name)
    }

    // MARK: Choosing a passage

    mutating func handleSelection(_ command: Command, _ shared: inout SharedState) -> ScreenAnswer {
        guard var selection else { return .stay() }
        switch command {
        case .moveDown: selection.nextLine()
        case .moveUp: selection.previousLine()
        case .nextWord: selection.nextWord()
        case .previousWord: selection.previousWord()
        case .back:
            self.selection = nil
            return .stay()
        case .tap, .addNote:
            let highlight = HighlightAnchoring.highlight(issueID: issueID, words: selection.words, of: selection.passages,
                                                         articleTitle: articleTitle)
            if command == .addNote {
                shared.prompt = Prompt(.note(highlight))
                return .stay()
            }
            self.selection = nil
            shared.message = StatusMessage("Highlighted “\(IssueMark.shortened(highlight.text))” (\" lists the highlights).")
            return .stay([.addHighlight(highlight)])
        default:
            return .stay()
        }
        self.selection = selection
        keepSelectionInView(shared)
        return .stay()
    }

    /// Scrolls so the passage's last line shows.
    mutating func keepSelectionInView(_ shared: SharedState) {
        guard let selection, view.layout != nil else { return }
        let visible = AppUpdate.articleVisibleLines(shared)
        let line = selection.lastLine
        if line >= view.topLine + visible { view.scroll(to: line - visible + 1, shared) }
        if line < view.topLine { view.scroll(to: line, shared) }
    }

    /// The title of the article shown ("Article 3" when the book does not say).
    var articleTitle: String {
        guard let book, book.articles.indices.contains(articleIndex) else { return "Article \(articleIndex + 1)" }
        return book.articles[articleIndex].title
    }

    /// Back from the marks list with a mark chosen: `position`'s line at the top.
    mutating func goToMark(_ position: ReadingPosition, _ shared: inout SharedState) -> [Effect] {
        guard let book, book.articles.indices.contains(position.articleIndex) else {
            shared.message = StatusMessage("The issue has no article \(position.articleIndex + 1) any more.")
            return []
        }
        selection = nil
        if isShowingArticle, articleIndex == position.articleIndex, let layout = view.layout {
            view.scroll(to: layout.line(for: position), shared)
            return savePosition() + pictureEffects(shared)
        }
        let effects = savePosition()
        pendingPosition = position
        return effects + openArticle(position.articleIndex, &shared)
    }

    // MARK: Prompts

    /// A mark deleted (`d` in its list, confirmed): gone from the reader's marks at once.
    mutating func markDeleted(_ mark: IssueMark) {
        marks?.remove(mark)
    }

    mutating func submitMarkPrompt(_ prompt: Prompt, _ shared: inout SharedState) -> [Effect] {
        let text = TextSanitizer.singleLine(prompt.text).trimmingCharacters(in: .whitespaces)
        switch prompt.kind {
        case .bookmarkName(var bookmark):
            if !text.isEmpty { bookmark.name = text }
            shared.message = StatusMessage("Bookmarked “\(IssueMark.shortened(bookmark.name))” (' lists the bookmarks).")
            return [.addBookmark(bookmark)]
        case .note(var highlight):
            highlight.note = text
            if highlight.id != 0 {
                shared.message = StatusMessage(text.isEmpty ? "The note was removed." : "The note was saved.")
                return [.setNote(issueID: highlight.issueID, highlightID: highlight.id, note: text)]
            }
            selection = nil
            shared.message = StatusMessage("Highlighted “\(IssueMark.shortened(highlight.text))”\(text.isEmpty ? "" : " with a note") (\" lists them).")
            return [.addHighlight(highlight)]
        default:
            return []
        }
    }
}
