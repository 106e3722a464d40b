import Foundation
import XCTest
import LocalHTTPServer
import NewsstandContent
import NewsstandCore
import NewsstandTestSupport
import NewsstandUI
@testable import NewsstandRuntime

/// The runner's side of whole articles: opening a headline says what is known of its article (the feed's setting, the
/// item's length, the one kept), and `.fetchHeadlineArticle` fetches, keeps and reports it, asking for a login when
/// the page wants one.
final class WholeArticleRunnerTests: XCTestCase {
    private func wait(until description: String, _ condition: () -> Bool) {
        let deadline = Date().addingTimeInterval(15)
        while !condition() && Date() < deadline { usleep(20_000) }
        XCTAssertTrue(condition(), "timed out waiting for \(description)")
    }

    private func fullTexts(_ inbox: MessageInbox) -> [HeadlineFullText] {
        inbox.all.compactMap { if case .headlineFullTextLoaded(_, _, let fullText) = $0 { fullText } else { nil } }
    }

    private func fetches(_ inbox: MessageInbox) -> [Result<StoredHeadlineArticle, ReaderFailure>] {
        inbox.all.compactMap { if case .headlineArticleFetched(_, _, _, let result) = $0 { result } else { nil } }
    }

    private static let page = "<html><head><title>How kettles sing to us</title><meta property=\"og:site_name\" content=\"Kettle Weekly\"></head><body>"
        + "<nav><a href=\"/\">Home</a></nav><article><h1>How kettles sing to us</h1>"
        + String(repeating: "<p>The whistle of a kettle is a small organ pipe, and the note it sings depends on the size of its chamber, the speed of the steam and the shape of the hole, which makers tuned by ear.</p>", count: 4)
        + "</article></body></html>"

    func testOpeningSaysWhatIsKnownAndAFetchKeepsTheArticle() throws {
        let library = try TemporaryLibrary(for: self)
        let server = LocalHTTPServer()
        try server.start()
        addTeardownBlock { server.stop() }
        server.setResource("/posts/sing", data: Data(Self.page.utf8), contentType: "text/html")
        let link = server.url(for: "/posts/sing")
        let publication = try library.store.addPublication(title: "Kettle Blog", feedURL: server.url(for: "/blog.rss"))
        try library.store.replaceHeadlines([Headline(title: "Why kettles sing", link: link, summary: "Steam, briefly.")], publicationID: publication.id)
        var configuration = Configuration()
        configuration.fullText = .never
        let inbox = MessageInbox()
        let runner = EffectRunner(store: library.store, paths: library.paths, configuration: configuration) { inbox.append($0) }

        runner.perform(.loadHeadlineArticle(publicationID: publication.id, index: 0))
        wait(until: "the full text") { !fullTexts(inbox).isEmpty }
        XCTAssertEqual(fullTexts(inbox), [HeadlineFullText(link: link, mode: .never, itemWordCount: 2)], "the config's setting, no article kept")
        guard case .headlineArticleLoaded(_, 0, .success)? = inbox.all.first else { return XCTFail("the item's text comes first: \(inbox.all)") }

        runner.perform(.fetchHeadlineArticle(publicationID: publication.id, index: 0, link: link))
        wait(until: "the fetch") { !fetches(inbox).isEmpty }
        let stored = try XCTUnwrap(try fetches(inbox).first?.get())
        XCTAssertTrue(stored.article.readerable)
        XCTAssertEqual(stored.article.siteName, "Kettle Weekly")

        runner.perform(.loadHeadlines(publicationID: publication.id))
        wait(until: "the kept articles listed") { inbox.all.contains { if case .wholeArticlesListed(_, [link]) = $0 { true } else { false } } }

        try library.store.setFullText(.always, publicationID: publication.id)
        runner.perform(.loadHeadlineArticle(publicationID: publication.id, index: 0))
        wait(until: "the second full text") { fullTexts(inbox).count == 2 }
        XCTAssertEqual(fullTexts(inbox).last?.mode, .always, "the feed's own setting wins")
        XCTAssertEqual(fullTexts(inbox).last?.stored?.article.blocks, stored.article.blocks, "the article kept")
    }

    func testAPageBehindALoginAsksForOneAndTheRetryFetchesIt() throws {
        let library = try TemporaryLibrary(for: self)
        let server = LocalHTTPServer()
        try server.start()
        addTeardownBlock { server.stop() }
        server.setResource("/posts/sing", data: Data(Self.page.utf8), contentType: "text/html")
        let login = Credentials(user: "reader", password: "s3cret-for-tests")
        server.faults.requiredLogin = RequiredLogin(scheme: .basic, realm: "Members", user: login.user, password: login.password)
        let link = server.url(for: "/posts/sing")
        let publication = try library.store.addPublication(title: "Kettle Blog", feedURL: server.url(for: "/blog.rss"))
        try library.store.replaceHeadlines([Headline(title: "Why kettles sing", link: link)], publicationID: publication.id)
        let inbox = MessageInbox()
        let runner = EffectRunner(store: library.store, paths: library.paths) { inbox.append($0) }
        let fetch = Effect.fetchHeadlineArticle(publicationID: publication.id, index: 0, link: link)

        runner.perform(fetch)
        wait(until: "the answer") { !fetches(inbox).isEmpty }
        XCTAssertEqual(inbox.logins.first?.retry, fetch)
        XCTAssertEqual(inbox.logins.first?.realm, "Members")
        XCTAssertEqual(fetches(inbox).first.flatMap { if case .failure(let failure) = $0 { failure.reason } else { nil } }, "the page asks for a login")

        runner.perform([.saveLogin(host: "127.0.0.1:\(server.port)", realm: "Members", credentials: login, remember: false), fetch])
        wait(until: "the retry") { fetches(inbox).count == 2 }
        XCTAssertEqual(try fetches(inbox).last?.get().article.readerable, true)
        XCTAssertNotNil(try library.store.headlineArticle(publicationID: publication.id, link: link))
    }
}
