import Foundation
import LocalHTTPServer
import NewsstandTestSupport
import XCTest

/// Whole articles from summary-only feeds (issue 24), from the feed to the screen: a feed on 127.0.0.1 whose items are
/// summaries linking to pages on the same server; the headline opens as the whole article, opens again with the
/// server stopped, and `search` finds a word only the article has; `full-text always` fetches during `sync`, `never`
/// does not.
final class WholeArticleEndToEndTests: EndToEndTestCase {
    /// A page with an article (four long paragraphs, the first carrying `word`) among a menu and a footer.
    static func page(_ title: String, word: String) -> Data {
        func paragraph(_ lead: String) -> String {
            "<p>The whistle of a kettle is a small organ pipe, and the note it sings depends on the size of its chamber, the speed of the "
                + "steam and the shape of the hole; \(lead) makers tuned theirs by ear, filing the brass until the sound was right, which took "
                + "many afternoons of patient work.</p>"
        }
        return Data("""
            <!DOCTYPE html><html lang="en"><head><title>\(title)</title><meta charset="utf-8">
            <meta property="og:site_name" content="Kettle Weekly"><meta name="author" content="Ada Brass"></head><body>
            <nav><a href="/">Home</a> <a href="/about">About</a> <a href="/shop">Shop</a> menuword</nav>
            <article><h1>\(title)</h1>\(paragraph(word))\(paragraph("Victorian"))\(paragraph("Careful"))<h2>Brass or tin</h2>\(paragraph("Modern"))</article>
            <footer>Share this · Comments (3) · Subscribe</footer></body></html>
            """.utf8)
    }

    /// An RSS feed of summaries, each item linking to a path of `server`.
    static func feed(_ title: String, items: [(title: String, path: String)], server: LocalHTTPServer) -> Data {
        let entries = items.map { item in
            "<item><title>\(item.title)</title><link>\(server.url(for: item.path).absoluteString)</link><description>A few words about it.</description></item>"
        }
        return Data("<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>\(title)</title>\(entries.joined())</channel></rss>".utf8)
    }

    func testASummaryOpensAsTheWholeArticleOfflineTooAndSearchFindsItsWords() throws {
        let server = LocalHTTPServer()
        try server.start()
        addTeardownBlock { server.stop() }
        server.setResource("/posts/sing", data: Self.page("How kettles sing to us all", word: "zanzibarite"), contentType: "text/html; charset=utf-8")
        server.setResource("/posts/tea", data: Self.page("Tea and the kettle", word: "darjeelingish"), contentType: "text/html; charset=utf-8")
        server.setResource("/blog.rss", data: Self.feed("Kettle Blog", items: [("Why kettles sing", "/posts/sing"), ("Tea time", "/posts/tea")], server: server),
                           contentType: "application/rss+xml")
        let environment = TestEnvironment.environment(home: home)
        let subscribed = try TestEnvironment.run(["subscribe", server.url(for: "/blog.rss").absoluteString], environment: environment)
        XCTAssertEqual(subscribed.status, 0, subscribed.errors)
        XCTAssertTrue(server.settledLog().allSatisfy { !$0.path.hasPrefix("/posts") }, "subscribing fetches no page (full text ask)")

        var session = try TmuxSession(command: try TestEnvironment.binary().path, width: 100, height: 30, environment: environment)
        try session.send("s")
        try session.waitFor(text: "full text ask")
        try session.send("H")
        try session.waitFor(text: "HEADLINES · Kettle Blog")
        try session.send("Enter")
        // A summary of four words: its page is fetched by itself and its article shown in its place.
        var screen = try session.waitFor(text: "zanzibarite makers")
        XCTAssertTrue(screen.contains("Whole article from Kettle Weekly · \(server.url(for: "/posts/sing").absoluteString)"), screen)
        XCTAssertTrue(screen.contains("Ada Brass"), screen)
        XCTAssertFalse(screen.contains("menuword") || screen.contains("Share this"), "the page's menu and footer are left out: \(screen)")
        XCTAssertFalse(screen.contains("A few words about it."), "in place of the summary")
        try session.waitFor(text: "whole article · headline 1/2")
        XCTAssertEqual(server.settledLog().filter { $0.path == "/posts/sing" }.count, 1)
        XCTAssertEqual(server.settledLog().filter { $0.path == "/posts/tea" }.count, 0, "only the headline opened")
        try session.send("q", "q", "q", "q")
        session.waitForExit()

        server.stop()
        let search = try TestEnvironment.run(["search", "zanzibarite"], environment: environment)
        XCTAssertEqual(search.status, 0, search.errors)
        XCTAssertTrue(search.output.contains("kettle-blog/headline-1  Why kettles sing"), search.output)
        XCTAssertTrue(search.output.contains("[zanzibarite]"), search.output)
        XCTAssertNotEqual(try TestEnvironment.run(["search", "darjeelingish"], environment: environment).status, 0,
                          "the article never fetched is not searched")
        let storage = try TestEnvironment.run(["storage"], environment: environment)
        XCTAssertTrue(storage.output.contains("Kettle Blog\t0 issues, 1 article\t"), storage.output)

        // With the server stopped, the article opens as it was kept; another headline's page cannot be had, and says so.
        session = try TmuxSession(command: try TestEnvironment.binary().path, width: 100, height: 30, environment: environment)
        try session.send("s")
        try session.waitFor(text: "SUBSCRIPTIONS")
        try session.send("H")
        try session.waitFor(text: "HEADLINES · Kettle Blog")
        try session.waitFor(text: "whole article kept · \(server.url(for: "/posts/sing").absoluteString)")
        try session.send("Enter")
        screen = try session.waitFor(text: "zanzibarite makers")
        XCTAssertTrue(screen.contains("Whole article from Kettle Weekly"), screen)
        try session.send("Right")
        screen = try session.waitFor(text: "The whole article could not be fetched")
        XCTAssertTrue(screen.contains("A few words about it."), "the summary stays: \(screen)")
        XCTAssertTrue(screen.contains("headline 2/2"), screen)
        try session.send("q", "q", "q", "q")
        session.waitForExit()
    }

    /// A real page of Readability's tests (a blog's post, its menus, sidebars and comments around it) opens as its article.
    func testARealBlogPostOpensAsItsArticle() throws {
        let source = try TestFiles.corpus("readability/firefox-nightly-blog/source.html")
        let server = LocalHTTPServer()
        try server.start()
        addTeardownBlock { server.stop() }
        server.setResource("/2021/01/issue-85", data: try Data(contentsOf: source), contentType: "text/html; charset=utf-8")
        server.setResource("/nightly.rss", data: Self.feed("Nightly News", items: [("These Weeks in Firefox: Issue 85", "/2021/01/issue-85")], server: server),
                           contentType: "application/rss+xml")
        let environment = TestEnvironment.environment(home: home)
        XCTAssertEqual(try TestEnvironment.run(["subscribe", server.url(for: "/nightly.rss").absoluteString], environment: environment).status, 0)
        let session = try TmuxSession(command: try TestEnvironment.binary().path, width: 100, height: 40, environment: environment)
        try session.send("s")
        try session.waitFor(text: "SUBSCRIPTIONS")
        try session.send("H")
        try session.waitFor(text: "HEADLINES · Nightly News")
        try session.send("F")
        let screen = try session.waitFor(text: "Whole article from Firefox Nightly News")
        XCTAssertTrue(screen.contains("Mike Conley"), "the byline: \(screen)")
        XCTAssertTrue(screen.contains("Year in Review"), "the article's first lines: \(screen)")
        try session.send("q", "q", "q", "q")
        session.waitForExit()
        XCTAssertEqual(try TestEnvironment.run(["search", "Performance", "Year", "Review"], environment: environment).status, 0)
    }

    func testFullTextAlwaysFetchesDuringSyncAndNeverDoesNot() throws {
        let server = LocalHTTPServer()
        try server.start()
        addTeardownBlock { server.stop() }
        server.setResource("/always/1", data: Self.page("The always article one", word: "alwaysword"), contentType: "text/html")
        server.setResource("/never/1", data: Self.page("The never article one", word: "neverword"), contentType: "text/html")
        server.setResource("/always.rss", data: Self.feed("Always Blog", items: [("Always one", "/always/1")], server: server), contentType: "application/rss+xml")
        server.setResource("/never.rss", data: Self.feed("Never Blog", items: [("Never one", "/never/1")], server: server), contentType: "application/rss+xml")
        let environment = TestEnvironment.environment(home: home)
        // The config says always; the second feed's own setting says never.
        let config = home.appendingPathComponent(".config/newsstand", isDirectory: true)
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try Data("full-text always\n".utf8).write(to: config.appendingPathComponent("config"))
        XCTAssertEqual(try TestEnvironment.run(["subscribe", server.url(for: "/always.rss").absoluteString], environment: environment).status, 0)
        let never = try TestEnvironment.run(["subscribe", server.url(for: "/never.rss").absoluteString, "--full-text", "never"], environment: environment)
        XCTAssertEqual(never.status, 0, never.errors)
        let bad = try TestEnvironment.run(["subscribe", server.url(for: "/never.rss").absoluteString, "--full-text", "often"], environment: environment)
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.errors.contains("--full-text takes never, ask or always, not 'often'"), bad.errors)
        let subscriptions = try TestEnvironment.run(["subscriptions"], environment: environment).output
        XCTAssertTrue(subscriptions.contains("auto-download none, full text always"), subscriptions)
        XCTAssertTrue(subscriptions.contains("auto-download none, full text never"), subscriptions)
        server.clearLog()

        let sync = try TestEnvironment.run(["sync"], environment: environment)
        XCTAssertEqual(sync.status, 0, sync.errors)
        XCTAssertTrue(sync.output.contains("Always Blog: up to date; 1 whole article kept\n"), sync.output)
        XCTAssertTrue(sync.output.contains("Never Blog: up to date\n"), sync.output)
        let paths = server.settledLog().map(\.path)
        XCTAssertTrue(paths.contains("/always/1"), "\(paths)")
        XCTAssertFalse(paths.contains("/never/1"), "never: not fetched during sync: \(paths)")
        XCTAssertEqual(try TestEnvironment.run(["search", "alwaysword"], environment: environment).status, 0)
        XCTAssertNotEqual(try TestEnvironment.run(["search", "neverword"], environment: environment).status, 0)

        // A second sync fetches nothing again.
        server.clearLog()
        XCTAssertEqual(try TestEnvironment.run(["sync"], environment: environment).output.contains("whole article"), false)
        XCTAssertFalse(server.settledLog().map(\.path).contains("/always/1"))
    }
}
