import Foundation
import NewsstandCore

/// What the library knows of a headline's whole article when the headline is opened: its link, its feed's
/// `full-text` (its own, else the config's), how many words the item itself carries, and the article kept, if any.
/// From these the reader decides whether to fetch the article by itself (`ask`/`always` and a short item).
public struct HeadlineFullText: Equatable, Sendable {
    public var link: URL?
    public var mode: FullTextMode
    public var itemWordCount: Int
    public var stored: StoredHeadlineArticle?

    public init(link: URL?, mode: FullTextMode, itemWordCount: Int, stored: StoredHeadlineArticle? = nil) {
        self.link = link
        self.mode = mode
        self.itemWordCount = itemWordCount
        self.stored = stored
    }

    /// Whether opening the headline fetches its article by itself: none kept (nor a page found to have none), a
    /// link, a feed that asks (`ask`, `always`) and an item too short to be the article.
    public var fetchesOnOpen: Bool {
        stored == nil && link != nil && mode != .never && itemWordCount < FullTextMode.shortItemWords
    }
}
