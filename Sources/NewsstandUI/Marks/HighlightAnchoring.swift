import Foundation
import NewsstandContent
import NewsstandCore

/// Makes highlights from the words chosen, and finds them again in an issue that may have changed. Pure: the
/// runtime reads the issue and the stored highlights and stores what changed (`HighlightRecheck`).
public enum HighlightAnchoring {
    /// A highlight of the words `range` of an article, with its text and context.
    public static func highlight(issueID: Int64, words range: ClosedRange<Int>, of passages: ArticlePassages, articleTitle: String,
                                 note: String = "", created: Date = Date()) -> Highlight {
        let words = passages.words
        let context = passages.context(around: range)
        return Highlight(issueID: issueID, start: words[range.lowerBound].start, end: words[range.upperBound].end,
                         articleTitle: articleTitle, text: ArticlePassages.joined(words[range]),
                         before: context.before, after: context.after, note: note, created: created)
    }

    /// The width the articles are laid out at to check highlights (any width gives the same positions).
    static let checkingWidth = 80

    /// An article's passages, laid out for checking.
    public static func passages(of blocks: [TextBlock], articleIndex: Int) -> ArticlePassages {
        ArticlePassages(ArticleLayout(blocks: blocks, width: checkingWidth), articleIndex: articleIndex)
    }

    /// Checks each highlight against the issue's text: one whose text is still at its place is kept as it is;
    /// else its text is looked for in its article, then in the others (nearest first), and moved where it is
    /// found; not found anywhere, it is kept and marked lost. Returns the highlights that changed.
    ///
    /// `articles` gives an article's passages (nil when it cannot be read); `titles` the articles' titles.
    public static func recheck(_ highlights: [Highlight], titles: [String], articles: (Int) -> ArticlePassages?) -> [Highlight] {
        var cache: [Int: ArticlePassages?] = [:]
        func passages(_ index: Int) -> ArticlePassages? {
            if let cached = cache[index] { return cached }
            let made = titles.indices.contains(index) ? articles(index) : nil
            cache[index] = made
            return made
        }
        var changed: [Highlight] = []
        for highlight in highlights {
            let home = highlight.articleIndex
            if let article = passages(home), article.text(from: highlight.start, to: highlight.end) == highlight.text {
                if highlight.isLost || highlight.articleTitle != titles[home] {
                    var kept = highlight
                    kept.isLost = false
                    kept.articleTitle = titles[home]
                    changed.append(kept)
                }
                continue
            }
            let order = titles.indices.sorted { (abs($0 - home), $0) < (abs($1 - home), $1) }
            var moved: Highlight?
            for index in order {
                guard let article = passages(index) else { continue }
                let near = index == home ? (article.words.firstIndex { $0.start >= highlight.start } ?? 0) : 0
                guard let range = article.find(highlight.text, before: highlight.before, after: highlight.after, near: near).first else { continue }
                var found = Self.highlight(issueID: highlight.issueID, words: range, of: article, articleTitle: titles[index],
                                           note: highlight.note, created: highlight.created)
                found.id = highlight.id
                moved = found
                break
            }
            if let moved {
                if moved != highlight { changed.append(moved) }
            } else if !highlight.isLost {
                var lost = highlight
                lost.isLost = true
                changed.append(lost)
            }
        }
        return changed
    }
}
