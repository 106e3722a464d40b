import Foundation
import NewsstandContent

/// A headline read as an article: its title, date, its HTML through the same styled-text pipeline as
/// an issue's pages (`XHTMLDocumentParser`: links numbered, text sanitised), and a last numbered link
/// to the item on the web.
public enum HeadlineArticle {
    /// The article's blocks. Relative links and pictures resolve against the item's link.
    public static func blocks(for headline: Headline) -> [TextBlock] {
        var html = "<html><body><h1>\(XMLEscaping.escaped(headline.title))</h1>"
        if !headline.body.isEmpty {
            html += headline.body
        } else if !headline.summary.isEmpty {
            html += "<p>\(XMLEscaping.escaped(headline.summary))</p>"
        }
        if let media = headline.mediaURL {
            html += "<p><a href=\"\(XMLEscaping.escaped(media.absoluteString))\">\(XMLEscaping.escaped(headline.mediaKind ?? "The item's file"))</a></p>"
        }
        if let link = headline.link {
            html += "<p><a href=\"\(XMLEscaping.escaped(link.absoluteString))\">Read it on the web</a></p>"
        }
        html += "</body></html>"
        return XHTMLDocumentParser.blocks(from: Data(html.utf8), baseURL: headline.link)
    }
}

/// A headline's whole article, as the reader shows it in place of the feed's text.
extension HeadlineArticle {
    /// How many words the item itself carries (its body's text, else its summary): under
    /// `FullTextMode.shortItemWords` it is a summary, and opening it fetches the article.
    public static func itemWordCount(of headline: Headline) -> Int {
        let text = headline.body.isEmpty ? headline.summary : FeedText.html(headline.body)
        return text.split(whereSeparator: { $0.isWhitespace }).count
    }

    /// The article's blocks under the headline's title: its byline and date, where it is from (the site and the
    /// page's address), the body as extracted (links numbered as it numbered them), then the page as the last
    /// numbered link. `title`: the headline's, used when the page gives none; `formatDate` writes the date the page
    /// gives when it reads as one (else it is shown as given).
    public static func blocks(for stored: StoredHeadlineArticle, title: String, formatDate: ((Date) -> String)? = nil) -> [TextBlock] {
        let article = stored.article
        let heading = (article.title?.isEmpty == false ? article.title : nil) ?? title
        var blocks: [TextBlock] = [.heading(level: 1, text: StyledText(TextSanitizer.singleLine(heading)))]
        let published = article.published.map { text in FlexibleDateParser.parse(text).flatMap { date in formatDate?(date) } ?? text }
        let about = [article.byline, published].compactMap { $0.map(TextSanitizer.singleLine) }.filter { !$0.isEmpty }
        if !about.isEmpty { blocks.append(.paragraph(StyledText(about.joined(separator: " · "), style: .italic))) }
        blocks.append(.paragraph(StyledText("Whole article from \(stored.source)", style: .italic)))
        blocks += article.blocks
        let lastNumber = article.blocks.flatMap(runs).compactMap(\.link?.number).max() ?? 0
        let page = TextLink(number: lastNumber + 1, url: stored.link)
        blocks.append(.paragraph(StyledText([StyledRun("Read it on the web", link: page), StyledRun("[\(page.number)]", link: page)])))
        return blocks
    }

    private static func runs(_ block: TextBlock) -> [StyledRun] {
        switch block {
        case .heading(_, let text), .paragraph(let text), .listItem(_, _, let text), .quote(let text), .caption(let text), .footnote(_, let text):
            return text.runs
        case .table(let table): return table.rows.flatMap { $0.flatMap(\.runs) }
        case .preformatted, .image, .rule: return []
        }
    }
}
