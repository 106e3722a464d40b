import NewsstandContent
import NewsstandCore

/// The reader as a screen: an open issue's table of contents, an article, or a passage being chosen in it; its
/// bookmarks and highlights lists open over it (`MarksScreen`), and going back from a mark's row brings it there.
extension ReaderScreen: ScreenModel {
    public var kind: ScreenKind { isShowingArticle ? (selection != nil ? .selection : .article) : .contents }
    public var screen: Screen { .reader(self) }

    public mutating func handle(_ command: Command, key: Key, body: Rect, shared: inout SharedState) -> ScreenAnswer {
        switch kind {
        case .selection: handleSelection(command, &shared)
        case .article: handleArticle(command, &shared)
        default: handleContents(command, key: key, &shared)
        }
    }

    /// The issue's book, an article's text, its pictures and pages, search results, marks and a progress sync offer:
    /// each only for this issue (and article).
    public mutating func receive(_ message: Message, body: Rect, shared: inout SharedState) -> ScreenAnswer {
        switch message {
        case .issueOpened(issueID, let result, let resumeAt): return .stay(issueOpened(result, resumeAt: resumeAt, &shared))
        case .articleLoaded(issueID, let articleIndex, let result): return .stay(articleLoaded(articleIndex, result, &shared))
        case .articlePictureRendered(let request, let result) where request.issueID == issueID:
            view.pictures.receive(request, result)
            return .stay()
        case .issueSearched(issueID, let query, let result): return .stay(issueSearched(query, result, &shared))
        case .pageRendered(issueID, let articleIndex, let result): return .stay(pageRendered(articleIndex, result, &shared))
        case .marksLoaded(issueID, let result): return .stay(marksLoaded(result, &shared))
        case .progressSyncOffered(let offer) where offer.issueID == issueID: return .stay(progressSyncOffered(offer, &shared))
        default: return .stay()  // not this issue's: nothing moves
        }
    }

    /// A search of this issue typed after `/`; a link's number after `o`; a bookmark's name or a highlight's note; a
    /// mark deleted or a progress sync offer taken (asked on the bottom line, `AppUpdate+Prompt`).
    public mutating func submit(_ prompt: Prompt, body: Rect, shared: inout SharedState) -> ScreenAnswer {
        switch prompt.kind {
        case .link: return .stay(AppUpdate.openLink(prompt, among: view.layout?.links, &shared))
        case .searchIssue: return .stay(submitIssueSearch(prompt, &shared))
        case .bookmarkName, .note: return .stay(submitMarkPrompt(prompt, &shared))
        case .confirmDeleteMark(let mark):
            markDeleted(mark)
            return .stay()
        case .confirmProgressSync(let offer): return .stay(goTo(offer, &shared))
        default: return .stay()
        }
    }

    /// Back from its marks list: to the mark chosen there, if one was.
    public mutating func returned(from closed: Screen, body: Rect, shared: inout SharedState) -> [Effect] {
        guard case .marks(let list) = closed, let position = list.chosen else { return [] }
        return goToMark(position, &shared)
    }

    /// On quitting: where the reader is, to be saved (nothing before an article shows).
    public func savePosition() -> [Effect] {
        guard view.layout != nil else { return [] }
        return [.saveReadingPosition(issueID: issueID, position)]
    }

    /// Laid out again for the new width (the same text at the top), the contents kept in view, and the pictures and
    /// page the new size needs.
    public mutating func fit(body: Rect, shared: inout SharedState) -> [Effect] {
        contentsCursor.keepVisible(count: contents.count, page: ContentsScreen.layout(in: body).page)
        reflow(shared)
        return pictureEffects(shared) + pagePictureEffects(shared)
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
