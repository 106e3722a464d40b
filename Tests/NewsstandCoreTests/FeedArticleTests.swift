import Foundation
import XCTest
@testable import NewsstandCore
import NewsstandContent
import LocalHTTPServer

/// Feed items with text and no file (news, blogs) are kept with their HTML and read as articles (issue 12).
final class FeedArticleTests: XCTestCase {
    private let blog = """
        <?xml version="1.0"?>
        <rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/"><channel><title>Kettle Blog</title>
        <item><title>Steam &amp; tea</title><link>https://example.com/posts/steam</link>
          <description>Short: steam.</description>
          <content:encoded><![CDATA[<p>Kettles <em>sing</em> at <a href="/boiling">boiling</a>.</p><h2>Whistles</h2><ul><li>brass</li><li>tin</li></ul><p>&#27;[31mred</p>]]></content:encoded></item>
        <item><title>Plain</title><description>Only a summary.</description></item>
        </channel></rss>
        """

    func testATextItemKeepsItsHTMLAndReadsThroughTheStyledTextPipeline() throws {
        let feed = try FeedParser.parse(Data(blog.utf8), url: URL(string: "https://example.com/feed")!)
        XCTAssertEqual(feed.entries, [])
        let headline = try XCTUnwrap(feed.headlines.first)
        XCTAssertEqual(headline.summary, "Short: steam.")
        XCTAssertTrue(headline.body.hasPrefix("<p>Kettles <em>sing</em>"), headline.body)
        let blocks = HeadlineArticle.blocks(for: headline)
        let text = blocks.map(\.plainText)
        XCTAssertEqual(text.first, "Steam & tea")
        XCTAssertTrue(text.contains { $0.hasPrefix("Kettles sing at boiling") }, "\(text)")
        XCTAssertTrue(text.contains("Whistles"))
        XCTAssertTrue(text.contains("brass") && text.contains("tin"), "\(text)")
        XCTAssertFalse(text.joined().contains("\u{1B}"), "no escape sequence from the feed survives")
        XCTAssertTrue(text.last?.hasPrefix("Read it on the web") ?? false, "\(text)")
        guard case .heading(level: 1, _)? = blocks.first else { return XCTFail("the title heads the article: \(blocks)") }
    }

    func testAnItemWithOnlyASummaryReadsAsItsSummary() throws {
        let feed = try FeedParser.parse(Data(blog.utf8), url: URL(string: "https://example.com/feed")!)
        let plain = feed.headlines[1]
        XCTAssertEqual(plain.body, "Only a summary.", "RSS descriptions are HTML")
        XCTAssertEqual(HeadlineArticle.blocks(for: plain).map(\.plainText), ["Plain", "Only a summary."])
        XCTAssertEqual(HeadlineArticle.blocks(for: Headline(title: "T", summary: "a < b")).map(\.plainText), ["T", "a < b"])
    }

    func testHeadlinesKeepTheirBodiesInTheLibraryAndAreKeptToTheLimit() throws {
        let (store, _) = try TestSupport.store(for: self)
        let server = try TestSupport.server(for: self)
        var items = ""
        for index in 1...12 { items += "<item><title>News \(index)</title><description>&lt;p&gt;Body \(index)&lt;/p&gt;</description></item>" }
        server.setResource("/news.rss", data: Data("<rss version=\"2.0\"><channel><title>N</title>\(items)</channel></rss>".utf8),
                           contentType: "application/rss+xml")
        let publication = try PublicationRefresher(store: store, maxHeadlines: 5).subscribe(to: server.url(for: "/news.rss"))
        let headlines = try store.headlines(publicationID: publication.id)
        XCTAssertEqual(headlines.map(\.title), ["News 1", "News 2", "News 3", "News 4", "News 5"], "the feed's first, up to the limit")
        XCTAssertEqual(headlines.map(\.body), Array(repeating: "", count: 5), "the list is read without bodies")
        XCTAssertEqual(try store.headline(publicationID: publication.id, at: 2)?.body, "<p>Body 3</p>")
        XCTAssertNil(try store.headline(publicationID: publication.id, at: 5))
        items += "<item><title>News 13</title></item>"
        server.setResource("/news.rss", data: Data("<rss version=\"2.0\"><channel><title>N</title>\(items)</channel></rss>".utf8),
                           contentType: "application/rss+xml")
        XCTAssertEqual(PublicationRefresher(store: store, maxHeadlines: 3).refresh(publication).headlineCount, 3)
        XCTAssertEqual(Configuration.parse("max-headlines 50").maxHeadlines, 50)
        XCTAssertEqual(Configuration().maxHeadlines, 200)
        XCTAssertFalse(Configuration.parse("max-headlines lots").warnings.isEmpty)
    }
}

/// Headlines are found by search like issues' articles.
final class HeadlineSearchTests: XCTestCase {
    func testHeadlinesAreSearchedByTitleAndTextAndLeaveWithTheirFeed() throws {
        let (store, paths) = try TestSupport.store(for: self)
        let publication = try store.addPublication(title: "Kettle Blog", feedURL: URL(string: "https://example.com/blog.rss")!)
        try store.replaceHeadlines([Headline(title: "Why kettles sing", body: "<p>The <em>whistle</em> is a small organ pipe.</p>"),
                                    Headline(title: "Tea prices", summary: "Darjeeling rose again.")], publicationID: publication.id)
        let hits = try IssueSearchIndex(store: store, paths: paths).search("organ PIPE")
        XCTAssertEqual(hits.map(\.headline), [HeadlineLocation(publicationID: publication.id, position: 0)])
        XCTAssertEqual(hits.first?.articleTitle, "Why kettles sing")
        XCTAssertEqual(hits.first?.snippet.filter(\.isMatch).map(\.text), ["organ", "pipe"], "matched in the text, not the HTML")
        XCTAssertEqual(try store.searchHeadlineText("darjeeling").map(\.headline?.position), [1], "a summary is searched when there is no body")
        XCTAssertEqual(try store.searchHeadlineText("em"), [], "markup is not indexed")

        try store.replaceHeadlines([Headline(title: "Only news")], publicationID: publication.id)
        XCTAssertEqual(try store.searchHeadlineText("organ"), [], "a refresh replaces what is searched")
        try store.removePublication(id: publication.id)
        XCTAssertEqual(try store.searchHeadlineText("news"), [], "gone with the publication")
    }
}
