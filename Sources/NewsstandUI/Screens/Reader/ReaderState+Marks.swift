import Foundation
import NewsstandContent
import NewsstandCore

/// Bookmarks, highlights and notes in the reader: making them, opening their lists (`MarksList`), going to one, deleting one.
extension AppUpdate {
    // MARK: Reading them

    /// An issue's marks arrive after it opens (`.openIssue` reads them), and again once its highlights were
    /// checked against its text, and after each change.
    static func marksLoaded(_ result: Result<IssueMarks, ReaderFailure>, _ state: inout ReaderContext) -> [Effect] {
        guard var reader = state.reader else { return [] }
        switch result {
        case .success(let marks):
            let lostBefore = reader.marks?.highlights.filter(\.isLost).count ?? 0
            reader.marks = marks
            state.reader = reader
            let lost = marks.highlights.filter(\.isLost).count
            if lost > lostBefore {
                state.message = StatusMessage(lost == 1 ? "One highlighted passage can no longer be found in this issue (\" lists it)."
                                                        : "\(lost) highlighted passages can no longer be found in this issue (\" lists them).")
            }
        case .failure(let failure):
            state.message = StatusMessage("Bookmarks and highlights: \(failure.reason)", isError: true)
        }
        return []
    }

    // MARK: Keys of the reader

    /// `m`, `'`, `v`, `"` in the article (and `'`, `"` in the contents).
    static func handleMarkCommand(_ command: Command, _ state: inout ReaderContext) -> [Effect] {
        guard var reader = state.reader else { return [] }
        switch command {
        case .showBookmarks, .showHighlights:
            state.move = .push(.marks(MarksList(showsHighlights: command == .showHighlights, issueID: reader.issueID, marks: reader.marks)))
            if reader.marks == nil { return [.loadMarks(issueID: reader.issueID)] }
            return []
        case .addBookmark:
            guard let layout = reader.view.layout, !reader.showsPagePicture || reader.book?.isComicBook == true else {
                state.message = StatusMessage("Wait for the article to show, then bookmark it.")
                return []
            }
            let bookmark = Bookmark(issueID: reader.issueID, position: reader.position, name: defaultBookmarkName(reader, layout))
            state.prompt = Prompt(.bookmarkName(bookmark), text: bookmark.name)
            return []
        case .selectPassage:
            guard let layout = reader.view.layout, !reader.showsPagePicture else {
                state.message = StatusMessage(reader.showsPagePicture ? "A page drawn as a picture has no text to highlight (P shows its text)." : "Wait for the article to show.")
                return []
            }
            guard let selection = PassageSelection(ArticlePassages(layout, articleIndex: reader.articleIndex), fromLine: reader.view.topLine) else {
                state.message = StatusMessage("There is no text here to highlight.")
                return []
            }
            reader.selection = selection
            state.reader = reader
            keepSelectionInView(&state)
            return []
        default:
            return []
        }
    }

    /// "Article title: the first words of the line at the top…".
    static func defaultBookmarkName(_ reader: ReaderState, _ layout: ArticleLayout) -> String {
        let title = reader.book.flatMap { $0.articles.indices.contains(reader.articleIndex) ? $0.articles[reader.articleIndex].title : nil }
            ?? "Article \(reader.articleIndex + 1)"
        var words: [String] = []
        for index in max(0, reader.view.topLine)..<min(layout.lines.count, reader.view.topLine + 8) where words.count < 6 && layout.lines[index].imageSource == nil {
            words += ArticlePassages.words(of: layout.lines[index], index: index, articleIndex: reader.articleIndex).prefix(6 - words.count).map(\.text)
        }
        let name = words.isEmpty ? title : "\(title): \(words.joined(separator: " "))…"
        return TextSanitizer.singleLine(name)
    }

    // MARK: Choosing a passage

    static func handleSelection(_ command: Command, _ state: inout ReaderContext) -> [Effect] {
        guard var reader = state.reader, var selection = reader.selection else { return [] }
        switch command {
        case .moveDown: selection.nextLine()
        case .moveUp: selection.previousLine()
        case .nextWord: selection.nextWord()
        case .previousWord: selection.previousWord()
        case .back:
            reader.selection = nil
            state.reader = reader
            return []
        case .tap, .addNote:
            let highlight = HighlightAnchoring.highlight(issueID: reader.issueID, words: selection.words, of: selection.passages,
                                                         articleTitle: articleTitle(reader))
            if command == .addNote {
                state.prompt = Prompt(.note(highlight))
                return []
            }
            reader.selection = nil
            state.reader = reader
            state.message = StatusMessage("Highlighted “\(IssueMark.shortened(highlight.text))” (\" lists the highlights).")
            return [.addHighlight(highlight)]
        default:
            return []
        }
        reader.selection = selection
        state.reader = reader
        keepSelectionInView(&state)
        return []
    }

    /// Scrolls so the passage's last line shows.
    static func keepSelectionInView(_ state: inout ReaderContext) {
        guard var reader = state.reader, let selection = reader.selection, reader.view.layout != nil else { return }
        let visible = articleVisibleLines(state.shared)
        let line = selection.lastLine
        if line >= reader.view.topLine + visible { reader.view.scroll(to: line - visible + 1, state.shared) }
        if line < reader.view.topLine { reader.view.scroll(to: line, state.shared) }
        state.reader = reader
    }

    static func articleTitle(_ reader: ReaderState) -> String {
        guard let book = reader.book, book.articles.indices.contains(reader.articleIndex) else { return "Article \(reader.articleIndex + 1)" }
        return book.articles[reader.articleIndex].title
    }

    /// Back from the marks list with a mark chosen: `position`'s line at the top.
    static func goToMark(_ position: ReadingPosition, _ state: inout ReaderContext) -> [Effect] {
        guard var reader = state.reader, let book = reader.book, book.articles.indices.contains(position.articleIndex) else {
            state.message = StatusMessage("The issue has no article \(position.articleIndex + 1) any more.")
            return []
        }
        reader.selection = nil
        if reader.isShowingArticle, reader.articleIndex == position.articleIndex, let layout = reader.view.layout {
            reader.view.scroll(to: layout.line(for: position), state.shared)
            state.reader = reader
            return savePosition(state) + pictureEffects(&state)
        }
        let effects = savePosition(state)
        reader.pendingPosition = position
        return effects + openArticle(position.articleIndex, &reader, &state)
    }

    // MARK: Prompts

    /// A mark deleted (`d` in its list, confirmed): gone from the reader's marks at once.
    static func markDeleted(_ mark: IssueMark, _ state: inout ReaderContext) -> [Effect] {
        guard var reader = state.reader, var marks = reader.marks else { return [] }
        marks.remove(mark)
        reader.marks = marks
        state.reader = reader
        return []
    }

    static func submitMarkPrompt(_ prompt: Prompt, _ state: inout ReaderContext) -> [Effect] {
        let text = TextSanitizer.singleLine(prompt.text).trimmingCharacters(in: .whitespaces)
        switch prompt.kind {
        case .bookmarkName(var bookmark):
            if !text.isEmpty { bookmark.name = text }
            state.message = StatusMessage("Bookmarked “\(IssueMark.shortened(bookmark.name))” (' lists the bookmarks).")
            return [.addBookmark(bookmark)]
        case .note(var highlight):
            highlight.note = text
            if highlight.id != 0 {
                state.message = StatusMessage(text.isEmpty ? "The note was removed." : "The note was saved.")
                return [.setNote(issueID: highlight.issueID, highlightID: highlight.id, note: text)]
            }
            if var reader = state.reader {
                reader.selection = nil
                state.reader = reader
            }
            state.message = StatusMessage("Highlighted “\(IssueMark.shortened(highlight.text))”\(text.isEmpty ? "" : " with a note") (\" lists them).")
            return [.addHighlight(highlight)]
        default:
            return []
        }
    }
}
