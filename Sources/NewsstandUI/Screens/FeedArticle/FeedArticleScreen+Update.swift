import Foundation
import NewsstandContent
import NewsstandCore
import NewsstandImaging

/// A headline read as an article: opened with Enter on the headlines screen (or from a search result), scrolled and
/// left like an issue's article, its links opened by number (`o`), `→` / `←` the next or previous headline, its
/// pictures fetched from the web (within limits) and drawn as they come into view, `F` its whole article.
extension FeedArticleScreen: ScreenModel {
    public var kind: ScreenKind { .article }
    public var screen: Screen { .feedArticle(self) }

    public mutating func handle(_ command: Command, key: Key, body: Rect, shared: inout SharedState) -> ScreenAnswer {
        if view.scroll(command, shared) { return .stay(pictureEffects(shared)) }
        switch command {
        case .back, .tableOfContents:
            return .pop()
        case .nextArticle, .previousArticle:
            let next = index + (command == .nextArticle ? 1 : -1)
            guard next >= 0 && next < (count ?? Int.max) else {
                shared.message = StatusMessage(command == .nextArticle ? "This is the last headline." : "This is the first headline.")
                return .stay()
            }
            var opened = FeedArticleScreen(publicationID: publicationID, index: next, count: count, title: "")
            if let headlines, headlines.indices.contains(next) { opened = FeedArticleScreen(publicationID: publicationID, index: next, of: headlines) }
            return .replace(.feedArticle(opened), [.loadHeadlineArticle(publicationID: publicationID, index: next)])
        case .openLink:
            return .stay(AppUpdate.askForLink(among: view.layout?.links, &shared))
        case .fetchWholeArticle:
            return .stay(fetchWholeArticle(&shared))
        case .searchIssue, .nextMatch, .previousMatch, .pagePicture:
            shared.message = StatusMessage("Feed articles are not searched here: / on the shelf searches issues.")
            return .stay()
        case .addBookmark, .showBookmarks, .selectPassage, .showHighlights:
            shared.message = StatusMessage("Bookmarks and highlights are kept in issues; a feed's article has none.")
            return .stay()
        default:
            return .stay()
        }
    }

    /// A link's number typed after `o`.
    public mutating func submit(_ prompt: Prompt, body: Rect, shared: inout SharedState) -> ScreenAnswer {
        prompt.kind == .link ? .stay(AppUpdate.openLink(prompt, among: view.layout?.links, &shared)) : .stay()
    }

    /// Its text, what the library knows of its whole article, the whole article fetched, and its pictures.
    public mutating func receive(_ message: Message, body: Rect, shared: inout SharedState) -> ScreenAnswer {
        switch message {
        case .headlineArticleLoaded(let id, let at, let result) where id == publicationID && at == index && view.blocks == nil:
            switch result {
            case .success(let blocks):
                summaryBlocks = blocks
                showWholeOrSummary(shared)
            case .failure(let failure):
                self.failure = failure.reason
                view.blocks = []
            }
        case .headlineFullTextLoaded(let id, let at, let fullText) where id == publicationID && at == index:
            return .stay(fullTextLoaded(fullText, &shared) + pictureEffects(shared))
        case .headlineArticleFetched(let id, let at, let link, let result) where id == publicationID && at == index:
            articleFetched(link, result, &shared)
        case .articlePictureRendered(let request, let result) where view.pictures.requested.contains(request):
            view.pictures.receive(request, result)
            return .stay()
        default:
            return .stay()
        }
        return .stay(pictureEffects(shared))
    }

    /// Laid out again for the new width, keeping the top line's block.
    public mutating func fit(body: Rect, shared: inout SharedState) -> [Effect] {
        view.reflow(shared)
        return pictureEffects(shared)
    }

    /// Asks once for each web picture in view.
    mutating func pictureEffects(_ shared: SharedState) -> [Effect] {
        let wanted = view.picturesToAsk(shared) { ["http", "https"].contains($0.source.scheme?.lowercased() ?? "") }
        return wanted.isEmpty ? [] : [.requestWebPictures(wanted)]
    }

    public func render(_ shared: SharedState, in body: Rect, theme: Theme, into buffer: inout CellBuffer) -> String {
        Self.render(self, shared, in: body, theme: theme, into: &buffer)
        return Self.positionText(self, in: body, pace: shared.readingPace)
    }

    /// The line being read: the top line of the article's text.
    public func readingCursor(_ shared: SharedState, in body: Rect) -> (x: Int, y: Int) { (body.x + (view.layout?.margin ?? 0), body.y) }
}
