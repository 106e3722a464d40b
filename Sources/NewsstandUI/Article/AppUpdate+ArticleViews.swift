import Foundation
import NewsstandContent
import NewsstandCore

/// What the article views share (an issue's reader, a feed's article, a catalog's streamed pages): the layout of an
/// article for the window, the size of its pictures, its links prompt, and how keys turn pages shown one per screen.
extension AppUpdate {
    /// Lines of picture an article's image gets at a width: a quarter of the measure, 4 to 16 lines.
    public static func pictureHeight(forWidth width: Int, measure: Int = ArticleLayout.defaultMeasure) -> Int {
        let measure = max(1, min(width - 2, measure))
        return max(4, min(16, measure / 4))
    }

    static func makeLayout(_ blocks: [TextBlock], _ state: SharedState) -> ArticleLayout {
        ArticleLayout(blocks: blocks, width: state.width, maximumMeasure: state.articleMeasure,
                      pictureHeight: pictureHeight(forWidth: state.width, measure: state.articleMeasure))
    }

    /// Lines of article on screen (between the header and the status line).
    static func articleVisibleLines(_ state: SharedState) -> Int { ArticleScreen.visibleLines(in: state.body) }

    /// The picture request for a picture line of the article shown.
    public static func pictureRequest(for line: ArticleLayout.Line, in layout: ArticleLayout, issueID: Int64, _ state: SharedState) -> PictureRequest? {
        guard let source = line.imageSource else { return nil }
        return PictureRequest(issueID: issueID, source: source, columns: max(1, layout.measure - line.indent),
                              rows: pictureHeight(forWidth: layout.width, measure: layout.measure), mode: state.coverMode,
                              background: state.isLightBackground ? .light : .dark, cellPixels: state.pictureCellPixels)
    }

    /// The lines of an article on which a match of `query` (ignoring case) starts.
    public static func matchLines(_ layout: ArticleLayout, _ query: String) -> [Int] {
        ArticleMatches(query, in: layout).startLines
    }

    /// Asks for a link's number (`o N`), or says the article has none.
    static func askForLink(among links: [URL]?, _ state: inout SharedState) -> [Effect] {
        guard let links, !links.isEmpty else {
            state.message = StatusMessage("This article has no links.")
            return []
        }
        state.prompt = Prompt(.link)
        return []
    }

    /// The page a key turns a book of `count` pages shown one per screen (a comic book, streamed pages) to, from
    /// `current`: nil for keys that do not turn pages, `.some(nil)` past either end. Every key that moves forward
    /// (→, ↓, Space, PgDn) shows the next page, back the previous; Home and End the first and last.
    static func pageTurn(_ command: Command, from current: Int, count: Int) -> Int?? {
        let target: Int
        switch command {
        case .nextArticle, .pageDown, .moveDown: target = current + 1
        case .previousArticle, .pageUp, .moveUp: target = current - 1
        case .top: target = 0
        case .bottom: target = count - 1
        default: return nil
        }
        return .some((0..<count).contains(target) ? target : nil)
    }

    /// What a page turn past either end says.
    static func pastTheEndMessage(_ command: Command) -> StatusMessage {
        StatusMessage([.nextArticle, .pageDown, .moveDown].contains(command) ? "This is the last page." : "This is the first page.")
    }
}
