import NewsstandContent
import NewsstandCore

/// The open issue's bookmarks (`'`) or highlights and notes (`"`), in reading order, opened over the reader with its
/// marks as they were; Enter goes to one (the reader under it goes there when the list closes: `chosen`), `a` edits a
/// highlight's note, `d` deletes a mark.
public struct MarksScreen: ScreenModel {
    public var showsHighlights: Bool
    public var cursor = ListCursor()
    /// The issue whose marks these are.
    public var issueID: Int64
    /// Its marks, as the reader had them and as they arrive since; nil while they are read.
    public var marks: IssueMarks?
    /// The place of the mark chosen with Enter, for the reader under the list.
    public var chosen: ReadingPosition?

    public init(showsHighlights: Bool, issueID: Int64, marks: IssueMarks? = nil) {
        self.showsHighlights = showsHighlights
        self.issueID = issueID
        self.marks = marks
    }

    public var kind: ScreenKind { showsHighlights ? .highlights : .bookmarks }
    public var screen: Screen { .marks(self) }

    /// The marks listed.
    public var listed: [IssueMark] {
        guard let marks else { return [] }
        return showsHighlights ? marks.highlights.map(IssueMark.highlight) : marks.bookmarks.map(IssueMark.bookmark)
    }

    /// The mark selected, if any.
    public var selected: IssueMark? {
        let listed = listed
        return listed.indices.contains(cursor.selection) ? listed[cursor.selection] : nil
    }

    public mutating func handle(_ command: Command, key: Key, body: Rect, shared: inout SharedState) -> ScreenAnswer {
        let count = listed.count
        let layout = Self.layout(in: body, self)
        if cursor.apply(command, count: count, page: layout.page) { return .stay() }
        switch command {
        case .tap:
            guard cursor.tap(key, count: count, in: layout) else { return .stay() }
            switch selected {
            case .bookmark(let bookmark):
                chosen = bookmark.position
            case .highlight(let highlight):
                guard !highlight.isLost else {
                    shared.message = StatusMessage("This passage can no longer be found in the issue.")
                    return .stay()
                }
                chosen = highlight.start
            case nil:
                return .stay()
            }
            return .pop()
        case .addNote:
            guard case .highlight(let highlight) = selected else { return .stay() }
            shared.prompt = Prompt(.note(highlight), text: highlight.note)
        case .deleteMark:
            guard let mark = selected else { return .stay() }
            shared.prompt = Prompt(.confirmDeleteMark(mark))
        case .back:
            return .pop()
        default:
            break
        }
        return .stay()
    }

    /// The issue's marks as they arrive (after each change, and once its highlights were checked against its text).
    public mutating func receive(_ message: Message, body: Rect, shared: inout SharedState) -> ScreenAnswer {
        guard case .marksLoaded(issueID, .success(let marks)) = message else { return .stay() }
        self.marks = marks
        cursor.keepVisible(count: listed.count, page: Self.layout(in: body, self).page)
        return .stay()
    }

    /// A note typed for a highlight (`a`), or a mark deleted (`d`, confirmed): shown at once.
    public mutating func submit(_ prompt: Prompt, body: Rect, shared: inout SharedState) -> ScreenAnswer {
        switch prompt.kind {
        case .note(let highlight) where highlight.id != 0:
            let text = TextSanitizer.singleLine(prompt.text).trimmingCharacters(in: .whitespaces)
            shared.message = StatusMessage(text.isEmpty ? "The note was removed." : "The note was saved.")
            return .stay([.setNote(issueID: highlight.issueID, highlightID: highlight.id, note: text)])
        case .confirmDeleteMark(let mark):
            marks?.remove(mark)
            cursor.keepVisible(count: listed.count, page: Self.layout(in: body, self).page)
            return .stay()
        default:
            return .stay()
        }
    }

    public mutating func fit(body: Rect, shared: inout SharedState) -> [Effect] {
        cursor.keepVisible(count: listed.count, page: Self.layout(in: body, self).page)
        return []
    }

    public func render(_ shared: SharedState, in body: Rect, theme: Theme, into buffer: inout CellBuffer) -> String {
        Self.render(self, shared, in: body, theme: theme, into: &buffer)
        return Self.listPosition(cursor, count: listed.count)
    }

    public func readingCursor(_ shared: SharedState, in body: Rect) -> (x: Int, y: Int) { Self.row(Self.layout(in: body, self), cursor, in: body) }
}

extension IssueMarks {
    /// Takes a mark away (deleted here; the library is changed in the background).
    mutating func remove(_ mark: IssueMark) {
        switch mark {
        case .bookmark(let bookmark): bookmarks.removeAll { $0.id == bookmark.id }
        case .highlight(let highlight): highlights.removeAll { $0.id == highlight.id }
        }
    }
}
