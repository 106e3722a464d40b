import Foundation
import NewsstandContent
import NewsstandCore

/// Whole articles in the reader: `F` (on a headline, or in its article) fetches the page the headline links to, and
/// its article, extracted and kept with the headline, is shown in place of the feed's summary with where it is from.
/// Opening a short item (under `FullTextMode.shortItemWords`) fetches it by itself unless its feed says `never`; an
/// article kept before opens at once, offline too. The fetch is background work (`.fetchHeadlineArticle`); the
/// status line says it is under way, and a page without an article, or one that cannot be fetched, is said plainly
/// above the summary, which stays.
extension AppUpdate {
    /// `F` in a feed's article (or on opening it from the list): fetches the page its headline links to.
    static func fetchWholeArticle(_ article: inout FeedArticleState, link: URL? = nil, _ state: inout SharedState) -> [Effect] {
        guard let link = link ?? article.link else {
            state.message = StatusMessage("This headline has no link: there is no page to fetch its article from.")
            return []
        }
        if let refusal = fetchRefusal(of: link, publicationID: article.publicationID, state) {
            state.message = StatusMessage("Not fetched: \(refusal)", isError: true)
            return []
        }
        guard !article.isFetchingArticle else {
            state.message = StatusMessage("Already fetching the whole article from \(Self.pageName(link))…")
            return []
        }
        article.link = link
        article.isFetchingArticle = true
        article.articleProblem = nil
        showWholeOrSummary(&article, state)
        state.message = StatusMessage("Fetching the whole article from \(Self.pageName(link))…")
        return [.fetchHeadlineArticle(publicationID: article.publicationID, index: article.index, link: link)]
    }

    /// What the library knows of the opened headline's whole article: shows the one kept, or fetches it by itself
    /// for a short item of a feed that asks.
    static func headlineFullTextLoaded(_ publicationID: Int64, _ index: Int, _ fullText: HeadlineFullText, _ state: inout AppState) -> [Effect] {
        var effects: [Effect] = []
        let fresh = state
        state.updateScreen { screen in
            guard case .feedArticle(var article) = screen, article.publicationID == publicationID, article.index == index else { return false }
            if article.link == nil { article.link = fullText.link }
            if let stored = fullText.stored {
                if stored.article.readerable {
                    if article.wholeArticle == nil { article.wholeArticle = stored }
                } else if !article.isFetchingArticle {
                    article.articleProblem = Self.noArticle(stored.link)
                }
            } else if fullText.fetchesOnOpen, !article.isFetchingArticle, article.wholeArticle == nil, let link = fullText.link,
                      fetchRefusal(of: link, publicationID: publicationID, fresh.shared) == nil {
                article.isFetchingArticle = true
                effects = [.fetchHeadlineArticle(publicationID: publicationID, index: index, link: link)]
            }
            showWholeOrSummary(&article, fresh.shared)
            screen = .feedArticle(article)
            return true
        }
        if case .fetchHeadlineArticle(_, _, let link)? = effects.first {
            state.message = StatusMessage("A short item: fetching the whole article from \(Self.pageName(link))…")
        }
        return effects + feedPictureEffects(&state)
    }

    /// A headline's page was fetched (or could not be): its article in place of the summary, or why not.
    static func headlineArticleFetched(_ publicationID: Int64, _ index: Int, _ link: URL, _ result: Result<StoredHeadlineArticle, ReaderFailure>,
                                       _ state: inout AppState) -> [Effect] {
        var message: StatusMessage?
        let fresh = state
        state.updateScreen { screen in
            guard case .feedArticle(var article) = screen, article.publicationID == publicationID, article.index == index else { return false }
            article.isFetchingArticle = false
            switch result {
            case .success(let stored) where stored.article.readerable:
                article.wholeArticle = stored
                article.articleProblem = nil
                message = StatusMessage("The whole article, from \(stored.source).")
            case .success:
                if article.wholeArticle == nil {
                    article.articleProblem = Self.noArticle(link)
                    message = StatusMessage("No article on \(Self.pageName(link)): the feed's summary stays.", isError: true)
                } else {
                    message = StatusMessage("No article on \(Self.pageName(link)) now: the one kept before stays.", isError: true)
                }
            case .failure(let failure):
                if article.wholeArticle == nil {
                    article.articleProblem = "The whole article could not be fetched (\(failure.reason)): this is the feed's summary; F tries again."
                }
                message = StatusMessage("Cannot fetch the whole article: \(failure.reason)", isError: true)
            }
            showWholeOrSummary(&article, fresh.shared)
            screen = .feedArticle(article)
            return true
        }
        if let message, case .feedArticle(let top)? = state.screens.last, top.publicationID == publicationID, top.index == index {
            state.message = message
        }
        return feedPictureEffects(&state)
    }

    /// Shows the whole article when there is one, else the item's own text, with a note at the top saying why when
    /// the whole article was asked for and is not there. Laid out again only when what is shown changed.
    static func showWholeOrSummary(_ article: inout FeedArticleState, _ state: SharedState) {
        guard var blocks = article.summaryBlocks else { return }
        if let whole = article.wholeArticle {
            blocks = HeadlineArticle.blocks(for: whole, title: article.title, formatDate: DateText.long)
        } else if let problem = article.articleProblem {
            blocks.insert(.paragraph(StyledText(problem, style: .italic)), at: min(1, blocks.count))
        }
        guard blocks != article.blocks else { return }
        // What replaces other text (the whole article, a note above the summary) is read from its top.
        let replacesText = article.blocks != nil
        if replacesText { article.view.topLine = 0 }
        article.view.show(blocks, state)
    }

    /// `w` on the subscriptions screen: the feed's `full-text`, ask → always → never → ask.
    static func cycleFullText(_ publication: Publication, _ state: inout SharedState) -> [Effect] {
        let current = publication.fullText ?? state.fullTextDefault
        let next: FullTextMode = switch current {
        case .ask: .always
        case .always: .never
        case .never: .ask
        }
        let meaning = switch next {
        case .ask: "whole articles fetched on opening a short item, or with F"
        case .always: "whole articles fetched at each sync for new headlines"
        case .never: "whole articles only with F"
        }
        state.message = StatusMessage("\(publication.title): full text \(next.rawValue) (\(meaning)).")
        return [.setFullText(publicationID: publication.id, next)]
    }

    /// Why a headline's page is not fetched: not a web page (nor a file a local feed may reach), or its feed may not point there.
    static func fetchRefusal(of link: URL, publicationID: Int64, _ state: SharedState) -> String? {
        guard ["http", "https", "file"].contains(link.scheme?.lowercased() ?? "") else {
            return "only web pages have articles to fetch, not \(Self.pageName(link))"
        }
        return refusal(of: link, publicationID: publicationID, state)
    }

    /// The note above the summary for a page without an article.
    static func noArticle(_ link: URL) -> String {
        "The page at \(pageName(link)) has no article to take out (a front page, a list of links or an empty page): this is the feed's summary."
    }

    /// A page's address as messages name it: one clean line.
    static func pageName(_ link: URL) -> String { TextSanitizer.singleLine(link.absoluteString) }
}
