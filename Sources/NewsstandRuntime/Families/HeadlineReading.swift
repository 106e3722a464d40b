import Foundation
import NewsstandContent
import NewsstandCore
import NewsstandUI

/// Reading a feed's headlines: the list, one headline's article, its whole article fetched from its page, the
/// feed's `full-text` setting, and read and starred marks (sent on to an account's server).
final class HeadlineReading: EffectFamily {
    private let services: RuntimeServices
    private let library: LibraryWindows
    private let accounts: AccountWork
    /// The list and one headline's article, read from the library as fast as the shelf.
    private let queue = DispatchQueue(label: "newsstand.headlines", qos: .userInteractive)
    /// Headlines' pages fetched for their whole articles, one at a time, so they never hold up the library or pictures.
    private let articleQueue = DispatchQueue(label: "newsstand.whole-articles", qos: .userInitiated)

    init(services: RuntimeServices, library: LibraryWindows, accounts: AccountWork) {
        self.services = services
        self.library = library
        self.accounts = accounts
    }

    func perform(_ effect: Effect) {
        let services = services
        let store = services.store
        switch effect {
        case .loadHeadlines(let publicationID):
            queue.async {
                let result = Result { try store.headlines(publicationID: publicationID) }.mapError { ReaderFailure("\($0)") }
                services.send(.headlinesLoaded(publicationID: publicationID, result))
                if let links = try? store.wholeArticleLinks(publicationID: publicationID), !links.isEmpty {
                    services.send(.wholeArticlesListed(publicationID: publicationID, links))
                }
            }
        case .loadHeadlineArticle(let publicationID, let index):
            queue.async { self.loadArticle(publicationID: publicationID, index: index) }
        case .fetchHeadlineArticle(let publicationID, let index, let link):
            articleQueue.async {
                let result: Result<StoredHeadlineArticle, ReaderFailure>
                do {
                    guard let publication = try store.publication(id: publicationID) else { throw CatalogError("the feed is no longer in the library") }
                    result = .success(try HeadlineArticleFetcher(store: store, client: services.client).fetch(link, of: publication))
                } catch {
                    // A page behind a login: asked for, then fetched again.
                    let asked = services.askForLogin(after: error, at: link, retry: effect)
                    result = .failure(ReaderFailure(asked ? "the page asks for a login" : "\(error)"))
                }
                services.send(.headlineArticleFetched(publicationID: publicationID, index: index, link: link, result))
            }
        case .setFullText(let publicationID, let mode):
            queue.async {
                try? store.setFullText(mode, publicationID: publicationID)
                services.sendLibrary()
            }
        case .markHeadlineRead(let publicationID, let key, let read):
            services.saves.async {
                do {
                    try store.setHeadlineRead(read, publicationID: publicationID, key: key)
                } catch {
                    services.report(.headlineNotMarked(read: read, reason: "\(error)"))
                }
                self.accounts.sendMarks(ofPublication: publicationID)
            }
        case .starHeadline(let publicationID, let key, let starred):
            services.saves.async {
                do {
                    try store.setHeadlineStarred(starred, publicationID: publicationID, key: key)
                } catch {
                    services.report(.headlineNotStarred(reason: "\(error)"))
                }
                self.accounts.sendMarks(ofPublication: publicationID)
            }
        default:
            break
        }
    }

    /// Sends a headline's article and what the library knows of its whole article; opening a headline reads it
    /// (on its account's server too).
    private func loadArticle(publicationID: Int64, index: Int) {
        let headline = Result { () throws -> Headline in
            guard let headline = try services.store.headline(publicationID: publicationID, at: index) else {
                throw CatalogError("the headline is no longer in the feed (it was refreshed)")
            }
            return headline
        }.mapError { ReaderFailure("\($0)") }
        services.send(.headlineArticleLoaded(publicationID: publicationID, index: index, headline.map(HeadlineArticle.blocks(for:))))
        guard case .success(let headline) = headline else { return }
        services.send(.headlineFullTextLoaded(publicationID: publicationID, index: index, fullText(of: headline, publicationID: publicationID)))
        if !headline.isRead, let key = headline.key {
            perform(.markHeadlineRead(publicationID: publicationID, key: key, read: true))
        }
    }

    /// What the library knows of a headline's whole article: its feed's `full-text`, the item's length, the article kept.
    private func fullText(of headline: Headline, publicationID: Int64) -> HeadlineFullText {
        let store = services.store
        let mode = ((try? store.publication(id: publicationID)) ?? nil)?.fullText ?? services.configuration.fullText
        let stored = headline.link.flatMap { (try? store.headlineArticle(publicationID: publicationID, link: $0)) ?? nil }
        return HeadlineFullText(link: headline.link, mode: mode, itemWordCount: HeadlineArticle.itemWordCount(of: headline), stored: stored)
    }
}
