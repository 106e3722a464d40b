import NewsstandCore

/// A feed item read as an article: drawn as an issue's article is (`ArticleScreen`), pictures as they are fetched.
extension FeedArticleScreen {
    public static func render(_ article: FeedArticleScreen, _ state: SharedState, in area: Rect, theme: Theme, into buffer: inout CellBuffer) {
        if let failure = article.failure {
            buffer.write("Cannot read this headline: \(failure)", x: 2, y: area.y + 1, style: theme[.summary], maxWidth: area.width - 4)
            return
        }
        ArticleScreen.render(article.view, state, in: area, theme: theme, into: &buffer)
    }

    /// "headline 3/20 · 40% · 2 min left": where the article is, and the time left at the reader's pace.
    public static func positionText(_ article: FeedArticleScreen, in area: Rect, pace: ReadingPace = ReadingPace()) -> String {
        guard let progress = article.view.progress(in: area, pace: pace) else { return "" }
        return wholeArticleText(article) + "headline \(article.index + 1)" + (article.count.map { "/\($0)" } ?? "") + " · \(progress.percent)%" + progress.timeLeft
    }

    /// What the reader shows of the headline's whole article, before its place: "fetching… · " while its page is
    /// fetched, "whole article · " once shown in place of the summary.
    static func wholeArticleText(_ article: FeedArticleScreen) -> String {
        if article.isFetchingArticle { return "fetching… · " }
        return article.wholeArticle != nil ? "whole article · " : ""
    }
}
