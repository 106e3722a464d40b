import Foundation
import XCTest
@testable import NewsstandCore
import NewsstandContent
import LocalHTTPServer

/// Headlines' whole articles (issue 24) in the library: kept with their headline (migration 18), read back exactly,
/// found by search, counted for storage, gone with the headline; fetched on request and, for `full-text always`,
/// during sync.
final class WholeArticleStoreTests: XCTestCase {
    private let feedURL = URL(string: "https://example.com/blog.rss")!
    private let link = URL(string: "https://example.com/posts/sing")!

    /// A page with an article: a menu, four long paragraphs (the first carrying `word`), a heading and a footer.
    static func page(title: String = "How kettles sing", word: String = "zanzibarite") -> String {
        func paragraph(_ lead: String) -> String {
            "<p>The whistle of a kettle is a small organ pipe, and the note it sings depends on the size of its chamber, the speed of the "
                + "steam and the shape of the hole; \(lead) makers tuned theirs by ear, filing the brass until the sound was right, which took "
                + "many afternoons of patient work.</p>"
        }
        return """
            <!DOCTYPE html><html lang="en"><head><title>\(title) - Kettle Weekly</title>
            <meta property="og:site_name" content="Kettle Weekly"><meta name="author" content="Ada Brass"></head><body>
            <nav><a href="/">Home</a> <a href="/about">About</a> <a href="/shop">Shop</a></nav>
            <article><h1>\(title)</h1>\(paragraph(word))\(paragraph("Victorian"))\(paragraph("Careful"))<h2>Brass or tin</h2>\(paragraph("Modern"))
            <p>See <a href="/pipes">organ pipes</a>.</p></article>
            <footer>Share this · Comments (3) · Subscribe</footer></body></html>
            """
    }

    /// A page without an article: a list of links.
    static let linkFarm = "<html><body><ul>" + (1...40).map { "<li><a href=\"/p/\($0)\">Post \($0)</a></li>" }.joined() + "</ul></body></html>"

    private func article(_ html: String = page(), at url: URL? = nil) -> StoredHeadlineArticle {
        let url = url ?? link
        return StoredHeadlineArticle(link: url, article: ArticleExtractor.extract(from: Data(html.utf8), url: url),
                                     fetchedAt: Date(timeIntervalSince1970: 1_800_000_000))
    }

    func testBlocksReadBackExactlyFromTheirJSON() {
        let link = TextLink(number: 1, url: URL(string: "https://example.com/a?b=1&c=é")!)
        let blocks: [TextBlock] = [
            .heading(level: 2, text: StyledText("Brass \"or\" tin", style: .bold)),
            .paragraph(StyledText([StyledRun("Kettles "), StyledRun("sing", style: [.italic, .code]), StyledRun(" at "),
                                   StyledRun("boiling[1]", link: link), StyledRun("[^1]", footnote: 1), StyledRun("\nnext line")])),
            .listItem(depth: 1, marker: "iv.", text: "nested"),
            .quote("quoted"),
            .preformatted("let x = 1\n    indented\t"),
            .image(source: URL(string: "https://example.com/k.png"), alt: "a kettle"),
            .image(source: nil, alt: ""),
            .caption("A kettle"),
            .table(TextTable(rows: [["Metal", "Note"], [StyledText("brass", style: .bold), ""]], headerRowCount: 1)),
            .footnote(number: 1, text: "A note, مرحبا."),
            .rule,
        ]
        let json = TextBlockJSON.encode(blocks)
        XCTAssertEqual(TextBlockJSON.decode(json), blocks)
        XCTAssertTrue(json.contains("\"kind\":\"heading\""), json)
        XCTAssertNil(TextBlockJSON.decode("not json"))
        XCTAssertNil(TextBlockJSON.decode("[{\"kind\":\"marquee\"}]"), "an unknown kind is not read as something else")
    }

    func testAnArticleIsKeptWithItsHeadlineAndReadBack() throws {
        let (store, _) = try TestSupport.store(for: self)
        let publication = try store.addPublication(title: "Kettle Blog", feedURL: feedURL)
        try store.replaceHeadlines([Headline(title: "How kettles sing", link: link, summary: "A summary.")], publicationID: publication.id)
        let stored = article()
        XCTAssertTrue(stored.article.readerable)
        XCTAssertTrue(try store.saveHeadlineArticle(stored, publicationID: publication.id))
        let read = try XCTUnwrap(try store.headlineArticle(publicationID: publication.id, link: link))
        XCTAssertEqual(read.article.blocks, stored.article.blocks, "the blocks, links and styles as extracted")
        XCTAssertEqual(read.article, stored.article, "and every field with them")
        XCTAssertEqual(read.article.byline, "Ada Brass")
        XCTAssertEqual(read.article.siteName, "Kettle Weekly")
        XCTAssertEqual(read.fetchedAt, stored.fetchedAt)
        XCTAssertEqual(read.source, "Kettle Weekly · https://example.com/posts/sing")
        XCTAssertNil(try store.headlineArticle(publicationID: publication.id, link: URL(string: "https://example.com/other")!))

        // Shown in the reader under the headline's title, its source named, the page the last numbered link.
        let shown = HeadlineArticle.blocks(for: read, title: "Feed's title")
        XCTAssertEqual(shown.first?.plainText, stored.article.title)
        XCTAssertTrue(shown.contains { $0.plainText == "Ada Brass" }, "the byline under the title")
        XCTAssertTrue(shown.contains { $0.plainText == "Whole article from Kettle Weekly · https://example.com/posts/sing" }, "\(shown.map(\.plainText))")
        XCTAssertTrue(shown.contains { $0.plainText.contains("zanzibarite makers") })
        XCTAssertEqual(shown.last?.plainText, "Read it on the web[2]", "after the article's one link")
    }

    func testAnArticleIsNotKeptForAHeadlineThatLeftAndANewOneDoesNotReplaceAnArticleWithNone() throws {
        let (store, _) = try TestSupport.store(for: self)
        let publication = try store.addPublication(title: "Kettle Blog", feedURL: feedURL)
        XCTAssertFalse(try store.saveHeadlineArticle(article(), publicationID: publication.id), "no headline links there")
        XCTAssertNil(try store.headlineArticle(publicationID: publication.id, link: link))
        try store.replaceHeadlines([Headline(title: "How kettles sing", link: link)], publicationID: publication.id)
        try store.saveHeadlineArticle(article(), publicationID: publication.id)
        let none = article(Self.linkFarm)
        XCTAssertFalse(none.article.readerable)
        try store.saveHeadlineArticle(none, publicationID: publication.id)
        XCTAssertEqual(try store.headlineArticle(publicationID: publication.id, link: link)?.article.readerable, true,
                       "a page that lost its article (an error page) does not replace the one kept")
        XCTAssertEqual(try store.searchHeadlineText("zanzibarite").count, 1)
    }

    func testAWordOnlyInTheArticleIsFoundAndLeavesWithTheHeadline() throws {
        let (store, paths) = try TestSupport.store(for: self)
        let publication = try store.addPublication(title: "Kettle Blog", feedURL: feedURL)
        let other = URL(string: "https://example.com/posts/tea")!
        let headlines = [Headline(title: "How kettles sing", link: link, summary: "Steam, briefly."), Headline(title: "Tea", link: other)]
        try store.replaceHeadlines(headlines, publicationID: publication.id)
        XCTAssertEqual(try store.searchHeadlineText("zanzibarite"), [])
        try store.saveHeadlineArticle(article(), publicationID: publication.id)
        let hits = try IssueSearchIndex(store: store, paths: paths).search("zanzibarite")
        XCTAssertEqual(hits.map(\.headline), [HeadlineLocation(publicationID: publication.id, position: 0)])
        XCTAssertEqual(hits.first?.snippet.filter(\.isMatch).map(\.text), ["zanzibarite"])
        XCTAssertEqual(try store.searchHeadlineText("briefly").count, 1, "the item's own text is still found")

        // A refresh that keeps the headline (elsewhere in the feed) keeps its article and finds it there.
        try store.replaceHeadlines([Headline(title: "New post", link: URL(string: "https://example.com/posts/new")!)] + headlines,
                                   publicationID: publication.id)
        XCTAssertNotNil(try store.headlineArticle(publicationID: publication.id, link: link))
        XCTAssertEqual(try store.searchHeadlineText("zanzibarite").map(\.headline?.position), [1])

        // One that drops it removes its article, and the word is found no more.
        try store.replaceHeadlines([headlines[1]], publicationID: publication.id)
        XCTAssertNil(try store.headlineArticle(publicationID: publication.id, link: link))
        XCTAssertEqual(try store.searchHeadlineText("zanzibarite"), [])
        XCTAssertEqual(try store.headlineArticleUsage()[publication.id]?.count ?? 0, 0)
    }

    func testArticlesGoWithTheirPublication() throws {
        let (store, _) = try TestSupport.store(for: self)
        let publication = try store.addPublication(title: "Kettle Blog", feedURL: feedURL)
        try store.replaceHeadlines([Headline(title: "How kettles sing", link: link)], publicationID: publication.id)
        try store.saveHeadlineArticle(article(), publicationID: publication.id)
        try store.removePublication(id: publication.id)
        let left = try store.database.query("SELECT count(*) FROM headline_articles").first?.first?.int64
        XCTAssertEqual(left, 0)
        XCTAssertEqual(try store.searchHeadlineText("zanzibarite"), [])
    }

    func testArticlesCountForStorageAndTheBudget() throws {
        let (store, paths) = try TestSupport.store(for: self)
        let publication = try store.addPublication(title: "Kettle Blog", feedURL: feedURL)
        let second = URL(string: "https://example.com/posts/two")!
        let farm = URL(string: "https://example.com/posts/farm")!
        try store.replaceHeadlines([Headline(title: "One", link: link), Headline(title: "Two", link: second), Headline(title: "Farm", link: farm)],
                                   publicationID: publication.id)
        try store.saveHeadlineArticle(article(), publicationID: publication.id)
        try store.saveHeadlineArticle(article(Self.page(word: "second"), at: second), publicationID: publication.id)
        try store.saveHeadlineArticle(article(Self.linkFarm, at: farm), publicationID: publication.id)
        let usage = try XCTUnwrap(try store.headlineArticleUsage()[publication.id])
        XCTAssertEqual(usage.count, 2, "the page without an article is not an article")
        XCTAssertGreaterThan(usage.bytes, 2 * 1_000, "each article's text and blocks")

        let report = try StorageReport.measure(store: store, paths: paths, budget: nil)
        let row = try XCTUnwrap(report.usage.first { $0.publication.id == publication.id })
        XCTAssertEqual(row.articleCount, 2)
        XCTAssertEqual(row.articleBytes, usage.bytes)
        XCTAssertEqual(row.countsText, "0 issues, 2 articles")
        XCTAssertEqual(report.totalBytes, usage.bytes)

        // Downloaded issues share the budget with the articles: one that fits beside nothing else is over it beside them.
        let issues = try store.upsertIssues([TestSupport.entry("old", date: Date(timeIntervalSince1970: 1_700_000_000)),
                                             TestSupport.entry("new", date: Date(timeIntervalSince1970: 1_700_100_000))], publicationID: publication.id)
        let issue = try XCTUnwrap(issues.first { $0.name == "old" })
        try store.setState(.available, issueID: issue.id)
        let folder = paths.folder(for: issue, of: publication)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(count: 4_000).write(to: folder.appendingPathComponent("issue.epub"))
        let sync = SyncService(store: store, paths: paths)
        XCTAssertEqual(sync.plannedEvictions(budget: 4_000 + usage.bytes + 100).map(\.id), [])
        XCTAssertEqual(sync.plannedEvictions(budget: 4_000 + usage.bytes / 2).map(\.id), [issue.id])
    }

    func testTheFeedsOwnFullTextSettingAndTheConfigs() throws {
        let (store, _) = try TestSupport.store(for: self)
        let publication = try store.addPublication(title: "Kettle Blog", feedURL: feedURL)
        XCTAssertNil(publication.fullText, "the config's until set")
        try store.setFullText(.always, publicationID: publication.id)
        XCTAssertEqual(try store.publication(id: publication.id)?.fullText, .always)
        try store.setFullText(nil, publicationID: publication.id)
        XCTAssertNil(try store.publication(id: publication.id)?.fullText)

        XCTAssertEqual(Configuration().fullText, .ask)
        XCTAssertEqual(Configuration.parse("full-text never").fullText, .never)
        let wrong = Configuration.parse("full-text sometimes")
        XCTAssertEqual(wrong.fullText, .ask)
        XCTAssertEqual(wrong.warnings, ["config, line 1: full-text takes never, ask or always"])
    }

    func testALibraryFromBeforeWholeArticlesMigrates() throws {
        let paths = try TestSupport.paths(for: self)
        let store = try LibraryStore(file: paths.databaseFile)
        let publication = try store.addPublication(title: "Kettle Blog", feedURL: feedURL)
        try store.replaceHeadlines([Headline(title: "How kettles sing", link: link)], publicationID: publication.id)
        store.close()
        // As the release before migration 18 left it.
        let database = try SQLiteDatabase(path: paths.databaseFile.path)
        try database.execute("DROP TABLE headline_articles; ALTER TABLE publications DROP COLUMN full_text; PRAGMA user_version = 17")
        database.close()

        let upgraded = try LibraryStore(file: paths.databaseFile)
        defer { upgraded.close() }
        XCTAssertEqual(upgraded.database.userVersion, LibrarySchema.currentVersion)
        XCTAssertNil(try upgraded.publication(id: publication.id)?.fullText)
        XCTAssertTrue(try upgraded.saveHeadlineArticle(article(), publicationID: publication.id))
        XCTAssertNotNil(try upgraded.headlineArticle(publicationID: publication.id, link: link))
    }

    // MARK: Fetching

    func testAPageIsFetchedExtractedAndKeptWithinTheFeedsOrigin() throws {
        let (store, paths) = try TestSupport.store(for: self)
        let server = try TestSupport.server(for: self)
        server.setResource("/posts/sing", data: Data(Self.page().utf8), contentType: "text/html; charset=utf-8")
        let pageURL = server.url(for: "/posts/sing")
        let publication = try store.addPublication(title: "Kettle Blog", feedURL: server.url(for: "/blog.rss"))
        let local = paths.dataDirectory.appendingPathComponent("saved.html")
        try Data(Self.page(word: "localword").utf8).write(to: local)
        try store.replaceHeadlines([Headline(title: "How kettles sing", link: pageURL), Headline(title: "Local", link: local)],
                                   publicationID: publication.id)
        let fetcher = HeadlineArticleFetcher(store: store, client: HTTPClient())
        let stored = try fetcher.fetch(pageURL, of: publication)
        XCTAssertTrue(stored.article.readerable)
        XCTAssertEqual(try store.headlineArticle(publicationID: publication.id, link: pageURL)?.article.blocks, stored.article.blocks)
        XCTAssertEqual(stored.article.blocks.flatMap { block -> [URL] in
            guard case .paragraph(let text) = block else { return [] }
            return text.runs.compactMap(\.link?.url)
        }, [server.url(for: "/pipes")], "links resolved against the page")

        XCTAssertThrowsError(try fetcher.fetch(local, of: publication), "a feed from the network never reaches a local file") { error in
            XCTAssertTrue("\(error)".contains(DocumentOrigin.pointsToLocalFile), "\(error)")
        }
        XCTAssertThrowsError(try fetcher.fetch(URL(string: "ftp://example.com/x")!, of: publication)) { error in
            XCTAssertTrue("\(error)".contains("only web pages"), "\(error)")
        }
        XCTAssertThrowsError(try fetcher.fetch(server.url(for: "/gone"), of: publication)) { error in
            XCTAssertTrue("\(error)".contains("404"), "\(error)")
        }
    }

    func testAlwaysFetchesTheHeadlinesWithoutAnArticleNewestFirstAndBounded() throws {
        let (store, _) = try TestSupport.store(for: self)
        let server = try TestSupport.server(for: self)
        var headlines: [Headline] = []
        for index in 0..<(HeadlineArticleFetcher.maxPerSync + 5) {
            server.setResource("/posts/\(index)", data: Data(Self.page(word: "post\(index)").utf8), contentType: "text/html")
            headlines.append(Headline(title: "Post \(index)", link: server.url(for: "/posts/\(index)")))
        }
        server.setResource("/farm", data: Data(Self.linkFarm.utf8), contentType: "text/html")
        headlines.insert(Headline(title: "Farm", link: server.url(for: "/farm")), at: 0)
        var publication = try store.addPublication(title: "Kettle Blog", feedURL: server.url(for: "/blog.rss"))
        try store.replaceHeadlines(headlines, publicationID: publication.id)
        let fetcher = HeadlineArticleFetcher(store: store, client: HTTPClient())

        XCTAssertEqual(fetcher.fetchMissing(of: publication, mode: .ask), 0)
        XCTAssertEqual(fetcher.fetchMissing(of: publication, mode: .never), 0)
        XCTAssertTrue(server.settledLog().isEmpty, "ask and never fetch nothing by themselves")

        XCTAssertEqual(fetcher.fetchMissing(of: publication, mode: .always), HeadlineArticleFetcher.maxPerSync - 1,
                       "the link farm counts against the bound but is no article")
        XCTAssertEqual(server.settledLog().count, HeadlineArticleFetcher.maxPerSync)
        XCTAssertNotNil(try store.headlineArticle(publicationID: publication.id, link: server.url(for: "/posts/0")))
        XCTAssertNil(try store.headlineArticle(publicationID: publication.id, link: server.url(for: "/posts/\(HeadlineArticleFetcher.maxPerSync)")))
        server.clearLog()
        XCTAssertEqual(fetcher.fetchMissing(of: publication, mode: .always), 6, "the rest at the next sync; nothing twice")
        XCTAssertEqual(Set(server.settledLog().map(\.path)).count, 6)
        XCTAssertEqual(try store.searchHeadlineText("post34").count, 1)
        server.clearLog()
        XCTAssertEqual(fetcher.fetchMissing(of: publication, mode: .always), 0)
        XCTAssertTrue(server.settledLog().isEmpty, "the page without an article is not fetched again by itself")

        publication.isSubscribed = false
        XCTAssertEqual(fetcher.fetchMissing(of: publication, mode: .always), 0)
    }

    func testASyncStopsFetchingAPublicationsPagesAfterItsTime() throws {
        let (store, _) = try TestSupport.store(for: self)
        let server = try TestSupport.server(for: self)
        server.bytesPerSecond = 4_000
        var headlines: [Headline] = []
        for index in 0..<4 {
            server.setResource("/slow/\(index)", data: Data(Self.page(word: "slow\(index)").utf8), contentType: "text/html")
            headlines.append(Headline(title: "Slow \(index)", link: server.url(for: "/slow/\(index)")))
        }
        let publication = try store.addPublication(title: "Slow Blog", feedURL: server.url(for: "/slow.rss"))
        try store.replaceHeadlines(headlines, publicationID: publication.id)
        let started = Date()
        let kept = HeadlineArticleFetcher(store: store, client: HTTPClient()).fetchMissing(of: publication, mode: .always, seconds: 0.2)
        XCTAssertEqual(kept, 1, "the page under way is finished, no other begun")
        XCTAssertLessThan(Date().timeIntervalSince(started), 3)
        XCTAssertEqual(try store.headlineLinksWithoutArticle(publicationID: publication.id, limit: 10).count, 3, "left for the next sync")
    }
}
