import Foundation
import NewsstandContent
import NewsstandCore
import NewsstandImaging

/// A headline read in the reader: opened with Enter on the headlines screen, scrolled and left like an
/// article, its links opened by number (`o`), `→` / `←` the next or previous headline, its pictures
/// fetched from the web (within limits) and drawn as text art as they come into view.
extension AppUpdate {
    /// Opens a headline found by a search (going back returns to the results).
    static func openFeedArticle(at location: HeadlineLocation, title: String, _ state: inout AppState) -> [Effect] {
        state.screens.append(.feedArticle(FeedArticleState(publicationID: location.publicationID, index: location.position,
                                                           count: nil, title: title)))
        return [.loadHeadlineArticle(publicationID: location.publicationID, index: location.position)]
    }

    static func headlineArticleLoaded(_ publicationID: Int64, _ index: Int, _ result: Result<[TextBlock], ReaderFailure>,
                                      _ state: inout AppState) -> [Effect] {
        let fresh = state
        state.updateScreen { screen in
            guard case .feedArticle(var article) = screen, article.publicationID == publicationID, article.index == index,
                  article.blocks == nil else { return false }
            switch result {
            case .success(let blocks):
                article.summaryBlocks = blocks
                showWholeOrSummary(&article, fresh.shared)
            case .failure(let failure):
                article.failure = failure.reason
                article.view.blocks = []
            }
            screen = .feedArticle(article)
            return true
        }
        return feedPictureEffects(&state)
    }

    /// Asks once for each web picture in view of the feed article on screen.
    static func feedPictureEffects(_ state: inout AppState) -> [Effect] {
        guard case .feedArticle(var article)? = state.screens.last else { return [] }
        let wanted = article.view.picturesToAsk(state.shared) { ["http", "https"].contains($0.source.scheme?.lowercased() ?? "") }
        guard !wanted.isEmpty else { return [] }
        state.screens[state.screens.count - 1] = .feedArticle(article)
        return [.requestWebPictures(wanted)]
    }

    /// A web picture drawn (or not) for the feed article that asked for it.
    static func webPictureRendered(_ request: PictureRequest, _ result: Result<TextArt, ReaderFailure>, _ state: inout AppState) -> [Effect] {
        state.updateScreen { screen in
            guard case .feedArticle(var article) = screen, article.view.pictures.requested.contains(request) else { return false }
            article.view.pictures.receive(request, result)
            screen = .feedArticle(article)
            return true
        }
        return []
    }

    static func handleFeedArticle(_ command: Command, _ article: FeedArticleState, _ state: inout AppState) -> [Effect] {
        var article = article
        if article.view.scroll(command, state.shared) {
            state.screens[state.screens.count - 1] = .feedArticle(article)
            return feedPictureEffects(&state)
        }
        switch command {
        case .back, .tableOfContents:
            return goBack(&state)
        case .nextArticle, .previousArticle:
            let next = article.index + (command == .nextArticle ? 1 : -1)
            guard next >= 0 && next < (article.count ?? Int.max) else {
                state.message = StatusMessage(command == .nextArticle ? "This is the last headline." : "This is the first headline.")
                return []
            }
            let listPage = HeadlinesScreen.layout(in: state.body).page
            state.updateScreen { screen in
                guard case .headlines(var headlines) = screen, headlines.publicationID == article.publicationID else { return false }
                headlines.cursor.select(next, count: headlines.headlines?.count ?? 0, page: listPage)
                screen = .headlines(headlines)
                return true
            }
            let item: Headline? = state.screens.lazy.compactMap { screen -> Headline? in
                guard case .headlines(let headlines) = screen, headlines.publicationID == article.publicationID,
                      let items = headlines.headlines, items.indices.contains(next) else { return nil }
                return items[next]
            }.first
            var opened = FeedArticleState(publicationID: article.publicationID, index: next, count: article.count, title: item?.title ?? "")
            opened.link = item?.link
            state.screens[state.screens.count - 1] = .feedArticle(opened)
            return [.loadHeadlineArticle(publicationID: article.publicationID, index: next)]
        case .openLink:
            return askForLink(among: article.layout?.links, &state)
        case .fetchWholeArticle:
            let effects = fetchWholeArticle(&article, &state.shared)
            state.screens[state.screens.count - 1] = .feedArticle(article)
            return effects
        case .searchIssue, .nextMatch, .previousMatch, .pagePicture:
            state.message = StatusMessage("Feed articles are not searched here: / on the shelf searches issues.")
            return []
        case .addBookmark, .showBookmarks, .selectPassage, .showHighlights:
            state.message = StatusMessage("Bookmarks and highlights are kept in issues; a feed's article has none.")
            return []
        default:
            return []
        }
    }

    /// Lays open feed articles out again for a new width, keeping the top line's block.
    static func reflowFeedArticles(_ state: inout AppState) {
        for index in state.screens.indices {
            guard case .feedArticle(var article) = state.screens[index] else { continue }
            article.view.reflow(state.shared)
            state.screens[index] = .feedArticle(article)
        }
    }

    /// The links of the article on screen, numbered as it shows them: an issue's or a feed item's.
    static func articleLinks(_ state: AppState) -> [URL]? {
        if case .feedArticle(let article)? = state.screens.last { return article.layout?.links }
        return state.reader?.layout?.links
    }
}
