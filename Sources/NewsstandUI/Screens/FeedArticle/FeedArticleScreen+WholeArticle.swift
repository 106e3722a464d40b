import Foundation
import NewsstandContent
import NewsstandCore

/// Whole articles in the feed article: `F` (on a headline, or in its article) fetches the page the headline links to,
/// and its article, extracted and kept with the headline, is shown in place of the feed's summary with where it is
/// from. Opening a short item (under `FullTextMode.shortItemWords`) fetches it by itself unless its feed says `never`;
/// an article kept before opens at once, offline too. The fetch is background work (`.fetchHeadlineArticle`); the
/// status line says it is under way, and a page without an article, or one that cannot be fetched, is said plainly
/// above the summary, which stays.
extension FeedArticleScreen {
    /// `F`: fetches the page its headline links to (`link`, or the one it knows).
    mutating func fetchWholeArticle(link: URL? = nil, _ shared: inout SharedState) -> [Effect] {
        guard let link = link ?? self.link else {
            shared.message = StatusMessage("This headline has no link: there is no page to fetch its article from.")
            return []
        }
        if let refusal = AppUpdate.fetchRefusal(of: link, publicationID: publicationID, shared) {
            shared.message = StatusMessage("Not fetched: \(refusal)", isError: true)
            return []
        }
        guard !isFetchingArticle else {
            shared.message = StatusMessage("Already fetching the whole article from \(AppUpdate.pageName(link))…")
            return []
        }
        self.link = link
        isFetchingArticle = true
        articleProblem = nil
        showWholeOrSummary(shared)
        shared.message = StatusMessage("Fetching the whole article from \(AppUpdate.pageName(link))…")
        return [.fetchHeadlineArticle(publicationID: publicationID, index: index, link: link)]
    }

    /// What the library knows of its whole article: shows the one kept, or fetches it by itself for a short item of a
    /// feed that asks.
    mutating func fullTextLoaded(_ fullText: HeadlineFullText, _ shared: inout SharedState) -> [Effect] {
        var effects: [Effect] = []
        if link == nil { link = fullText.link }
        if let stored = fullText.stored {
            if stored.article.readerable {
                if wholeArticle == nil { wholeArticle = stored }
            } else if !isFetchingArticle {
                articleProblem = AppUpdate.noArticle(stored.link)
            }
        } else if fullText.fetchesOnOpen, !isFetchingArticle, wholeArticle == nil, let link = fullText.link,
                  AppUpdate.fetchRefusal(of: link, publicationID: publicationID, shared) == nil {
            isFetchingArticle = true
            effects = [.fetchHeadlineArticle(publicationID: publicationID, index: index, link: link)]
            shared.message = StatusMessage("A short item: fetching the whole article from \(AppUpdate.pageName(link))…")
        }
        showWholeOrSummary(shared)
        return effects
    }

    /// Its page was fetched (or could not be): its article in place of the summary, or why not.
    mutating func articleFetched(_ link: URL, _ result: Result<StoredHeadlineArticle, ReaderFailure>, _ shared: inout SharedState) {
        isFetchingArticle = false
        switch result {
        case .success(let stored) where stored.article.readerable:
            wholeArticle = stored
            articleProblem = nil
            shared.message = StatusMessage("The whole article, from \(stored.source).")
        case .success:
            if wholeArticle == nil {
                articleProblem = AppUpdate.noArticle(link)
                shared.message = StatusMessage("No article on \(AppUpdate.pageName(link)): the feed's summary stays.", isError: true)
            } else {
                shared.message = StatusMessage("No article on \(AppUpdate.pageName(link)) now: the one kept before stays.", isError: true)
            }
        case .failure(let failure):
            if wholeArticle == nil {
                articleProblem = "The whole article could not be fetched (\(failure.reason)): this is the feed's summary; F tries again."
            }
            shared.message = StatusMessage("Cannot fetch the whole article: \(failure.reason)", isError: true)
        }
        showWholeOrSummary(shared)
    }

    /// Shows the whole article when there is one, else the item's own text, with a note at the top saying why when
    /// the whole article was asked for and is not there. Laid out again only when what is shown changed.
    mutating func showWholeOrSummary(_ shared: SharedState) {
        guard var blocks = summaryBlocks else { return }
        if let whole = wholeArticle {
            blocks = HeadlineArticle.blocks(for: whole, title: title, formatDate: DateText.long)
        } else if let problem = articleProblem {
            blocks.insert(.paragraph(StyledText(problem, style: .italic)), at: min(1, blocks.count))
        }
        guard blocks != self.view.blocks else { return }
        // What replaces other text (the whole article, a note above the summary) is read from its top.
        if self.view.blocks != nil { view.topLine = 0 }
        view.show(blocks, shared)
    }
}
