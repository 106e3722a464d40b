import Foundation
import NewsstandContent
import NewsstandCore

/// The whole-article settings and rules shared by the screens: a feed's `full-text` (`w`), and which pages may be
/// fetched (the feed article fetches them: `FeedArticleScreen+WholeArticle`).
extension AppUpdate {
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
