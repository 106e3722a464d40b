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
