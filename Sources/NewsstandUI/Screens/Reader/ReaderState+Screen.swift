import NewsstandContent
import NewsstandCore

/// The reader as a screen: an open issue's table of contents, an article, or a passage being chosen in it; its
/// bookmarks and highlights lists open over it (`MarksList`), and going back from a mark's row brings it there.
extension ReaderState: ScreenModel {
    public var kind: ScreenKind { isShowingArticle ? (selection != nil ? .selection : .article) : .contents }
    public var screen: Screen { .reader(self) }

    public mutating func handle(_ command: Command, key: Key, body: Rect, shared: inout SharedState) -> ScreenAnswer {
        let kind = kind
        return ReaderContext.run(&self, &shared) { context in
            switch kind {
            case .selection: AppUpdate.handleSelection(command, &context)
            case .article: AppUpdate.handleArticle(command, &context)
            default: AppUpdate.handleContents(command, key: key, &context)
            }
        }
    }

    /// The issue's book, an article's text, its pictures and pages, search results, marks and a progress sync offer:
    /// each only for this issue (and article).
    public mutating func receive(_ message: Message, body: Rect, shared: inout SharedState) -> ScreenAnswer {
        let issueID = issueID
        let work: ((inout ReaderContext) -> [Effect])?
        switch message {
        case .issueOpened(issueID, let result, let resumeAt): work = { AppUpdate.issueOpened(result, resumeAt: resumeAt, &$0) }
        case .articleLoaded(issueID, let articleIndex, let result): work = { AppUpdate.articleLoaded(articleIndex, result, &$0) }
        case .articlePictureRendered(let request, let result) where request.issueID == issueID:
            work = { AppUpdate.pictureRendered(request, result, &$0) }
        case .issueSearched(issueID, let query, let result): work = { AppUpdate.issueSearched(query, result, &$0) }
        case .pageRendered(issueID, let articleIndex, let result): work = { AppUpdate.pageRendered(articleIndex, result, &$0) }
        case .marksLoaded(issueID, let result): work = { AppUpdate.marksLoaded(result, &$0) }
        case .progressSyncOffered(let offer) where offer.issueID == issueID: work = { AppUpdate.progressSyncOffered(offer, &$0) }
        default: work = nil
        }
        guard let work else { return .stay() }  // not this issue's: nothing moves
        return ReaderContext.run(&self, &shared, work)
    }

    /// A search of this issue typed after `/`; a bookmark's name or a highlight's note; a mark deleted or a progress
    /// sync offer taken (asked on the bottom line, `AppUpdate+Prompt`).
    public mutating func submit(_ prompt: Prompt, body: Rect, shared: inout SharedState) -> ScreenAnswer {
        ReaderContext.run(&self, &shared) { context in
            switch prompt.kind {
            case .searchIssue: AppUpdate.submitIssueSearch(prompt, &context)
            case .bookmarkName, .note: AppUpdate.submitMarkPrompt(prompt, &context)
            case .confirmDeleteMark(let mark): AppUpdate.markDeleted(mark, &context)
            case .confirmProgressSync(let offer): AppUpdate.goTo(offer, &context)
            default: []
            }
        }
    }

    /// Back from its marks list: to the mark chosen there, if one was.
    public mutating func returned(from closed: Screen, body: Rect, shared: inout SharedState) -> [Effect] {
        guard case .marks(let list) = closed, let position = list.chosen else { return [] }
        return ReaderContext.run(&self, &shared) { context in AppUpdate.goToMark(position, &context) }.effects
    }

    /// Laid out again for the new width (the same text at the top), the contents kept in view, and the pictures and
    /// page the new size needs.
    public mutating func fit(body: Rect, shared: inout SharedState) -> [Effect] {
        contentsCursor.keepVisible(count: contents.count, page: ContentsScreen.layout(in: body).page)
        return ReaderContext.run(&self, &shared) { context in
            AppUpdate.reflowReader(&context)
            return AppUpdate.pictureEffects(&context) + AppUpdate.pagePictureEffects(&context)
        }.effects
    }

    public func render(_ shared: SharedState, in body: Rect, theme: Theme, into buffer: inout CellBuffer) -> String {
        if isShowingArticle {
            ArticleScreen.render(self, shared, in: body, theme: theme, into: &buffer)
            return ArticleScreen.positionText(self, in: body, pace: shared.readingPace)
        }
        ContentsScreen.render(self, shared, in: body, theme: theme, into: &buffer)
        return ""
    }

    /// The line being read (the top line of the article's text), or the selected contents row.
    public func readingCursor(_ shared: SharedState, in body: Rect) -> (x: Int, y: Int) {
        isShowingArticle ? (body.x + (view.layout?.margin ?? 0), body.y) : Self.row(ContentsScreen.layout(in: body), contentsCursor, in: body)
    }
}

/// What the reader's keys and messages work on: the reader's own state and what screens share (read through, as
/// `state.message`), and what the stack is to do after (stay, open its marks list, close).
@dynamicMemberLookup
struct ReaderContext {
    var own: ReaderState
    var shared: SharedState
    var move: ScreenAnswer.Move = .stay

    /// The reader, as the update functions change it (setting nil changes nothing).
    var reader: ReaderState? {
        get { own }
        set { if let newValue { own = newValue } }
    }

    /// What the reader shows.
    var screen: ScreenKind { own.kind }

    subscript<Value>(dynamicMember path: WritableKeyPath<SharedState, Value>) -> Value {
        get { shared[keyPath: path] }
        _modify { yield &shared[keyPath: path] }
    }

    subscript<Value>(dynamicMember path: KeyPath<SharedState, Value>) -> Value { shared[keyPath: path] }

    func loadedIssue(id: Int64) -> Issue? { shared.loadedIssue(id: id) }

    /// Leaves the issue: the reader closes, and its place goes to the progress sync server (when it is on).
    mutating func close() -> [Effect] {
        move = .pop
        return [.pushProgress(issueID: own.issueID)]
    }

    /// Runs `work` on `reader` and `shared` (moved in and back, so nothing is copied) and answers what it asked for.
    static func run(_ reader: inout ReaderState, _ shared: inout SharedState, _ work: (inout ReaderContext) -> [Effect]) -> ScreenAnswer {
        var context = ReaderContext(own: reader, shared: SharedState.moved)
        swap(&context.shared, &shared)
        reader = ReaderState(issueID: reader.issueID)
        let effects = work(&context)
        swap(&context.shared, &shared)
        reader = context.own
        return ScreenAnswer(context.move, effects)
    }
}

extension SharedState {
    /// Stands in for a shared state moved elsewhere for a moment (`ReaderContext.run`).
    static let moved = SharedState(width: 0, height: 0)
}
