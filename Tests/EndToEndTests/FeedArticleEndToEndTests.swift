import Foundation
import LocalHTTPServer
import NewsstandTestSupport
import XCTest

/// Feed items as people meet them in the program (issue 12): a blog's post reads in the reader, and a
/// podcast's episodes are headlines, never issues.
final class FeedArticleEndToEndTests: EndToEndTestCase {
    func testATextFeedsItemReadsInTheReader() throws {
        let server = try startSampleServer()
        let feed = """
            <?xml version="1.0"?>
            <rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/"><channel><title>Kettle Blog</title>
            <item><title>Why kettles sing</title><link>https://example.com/posts/sing</link><description>Steam, briefly.</description>
              <content:encoded><![CDATA[<p>The <em>whistle</em> is a small organ pipe.</p><h2>Brass or tin</h2><p>See <a href="https://example.com/pipes">pipes</a>.</p>]]></content:encoded></item>
            <item><title>A podcast episode</title><enclosure url="/episodes/1.mp3" type="audio/mpeg" length="100"/></item>
            </channel></rss>
            """
        server.setResource("/blog.rss", data: Data(feed.utf8), contentType: "application/rss+xml")
        let environment = TestEnvironment.environment(home: home)
        let subscribed = try TestEnvironment.run(["subscribe", server.url(for: "blog.rss").absoluteString], environment: environment)
        XCTAssertEqual(subscribed.status, 0, subscribed.errors)
        XCTAssertTrue(subscribed.output.contains("0 issues"), "the episode is not queued: \(subscribed.output)")

        let session = try TmuxSession(command: try TestEnvironment.binary().path, width: 100, height: 30, environment: environment)
        try session.send("s")
        try session.waitFor(text: "SUBSCRIPTIONS")
        try session.send("H")
        try session.waitFor(text: "HEADLINES · Kettle Blog")
        try session.waitFor(text: "A podcast episode")
        try session.waitFor(text: "▶ audio (audio/mpeg)")
        try session.send("Enter")
        let article = try session.waitFor(text: "small organ pipe")
        XCTAssertTrue(article.contains("WHY KETTLES SING"), article)
        XCTAssertTrue(article.contains("Brass or tin"), article)
        XCTAssertTrue(article.contains("headline 1/2"), article)
        XCTAssertFalse(article.contains("<p>") || article.contains("<em>"), "HTML is styled, not shown")
        try session.send("Right")
        try session.waitFor(text: "headline 2/2")
        try session.send("Escape")
        try session.waitFor(text: "HEADLINES · Kettle Blog")
        try session.send("q", "q", "q")
        session.waitForExit()
        XCTAssertEqual(server.requestLog.filter { $0.path.hasPrefix("/episodes") }.count, 0, "the audio was never fetched")
    }
}
