import Foundation
import NewsstandContent
import NewsstandCore
import NewsstandImaging

/// A feed item read as an article (a headline with text): which one, its blocks once read, their layout and the scroll,
/// and its whole article (the linked page's) when fetched or kept.
public struct FeedArticleScreen: Equatable, Sendable {
    public let publicationID: Int64
    /// The headline's place in its feed (0-based), its key in the library.
    public var index: Int
    /// How many headlines the feed has (for next / previous); nil when not known (opened from a search).
    public var count: Int?
    public var title: String
    /// What is shown (the item's own text, or its whole article in its place; no blocks while it is read), its
    /// layout, scroll and pictures (keyed as an issue's are, with issue 0 and the picture's web address).
    public var view = ArticleView(issueID: 0)
    /// The item's own text (the feed's), kept while its whole article is shown.
    public var summaryBlocks: [TextBlock]?
    /// The headline's link, the page its whole article comes from (known once opened, or from the list).
    public var link: URL?
    /// The whole article shown in place of the summary (one with an article: `readerable`).
    public var wholeArticle: StoredHeadlineArticle?
    /// The page is being fetched (`F`, or by itself for a short item).
    public var isFetchingArticle = false
    /// Why the summary is shown though the whole article was asked for: the page has no article, or it could not be fetched.
    public var articleProblem: String?
    public var failure: String?
    /// The list it was opened from (titles and links for `→` / `←`); nil when opened from a search.
    public var headlines: [Headline]?

    public init(publicationID: Int64, index: Int, count: Int?, title: String) {
        self.publicationID = publicationID
        self.index = index
        self.count = count
        self.title = title
    }

    /// The headline at `index` of `headlines`, opened from that list.
    init(publicationID: Int64, index: Int, of headlines: [Headline]) {
        self.init(publicationID: publicationID, index: index, count: headlines.count, title: headlines[index].title)
        link = headlines[index].link
        self.headlines = headlines
    }

}
