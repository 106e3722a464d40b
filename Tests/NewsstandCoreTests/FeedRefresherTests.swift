import Foundation
import XCTest
@testable import NewsstandCore
import LocalHTTPServer

/// PublicationRefresher with feeds: any format subscribes, conditional GETs, pagination, headlines.
final class FeedRefresherTests: XCTestCase {
    private func rss(items: [(guid: String, enclosure: String?)], title: String = "Kettle Feed") -> Data {
        var text = "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>\(title)</title>"
        for item in items {
            text += "<item><guid>\(item.guid)</guid><title>Title \(item.guid)</title><pubDate>Mon, 06 Jan 2025 10:00:00 GMT</pubDate>"
            if let enclosure = item.enclosure { text += "<enclosure url=\"\(enclosure)\" type=\"application/epub+zip\"/>" }
            text += "</item>"
        }
        return Data((text + "</channel></rss>").utf8)
    }

    private func atomPage(_ number: Int, of total: Int?) -> Data {
        var text = "<feed xmlns=\"http://www.w3.org/2005/Atom\"><title>Paged</title>"
        if let total, number < total { text += "<link rel=\"next\" href=\"page\(number + 1).xml\"/>" }
        if total == nil { text += "<link rel=\"next\" href=\"page\(number).xml\"/>" } // points at itself
        text += "<entry><id>issue-\(number)</id><title>Issue \(number)</title><updated>2025-01-0\(min(number, 9))T00:00:00Z</updated>"
            + "<link rel=\"enclosure\" href=\"issues/\(number).epub\" type=\"application/epub+zip\"/></entry></feed>"
        return Data(text.utf8)
    }

    func testSubscribeToRSSStoresIssuesAndHeadlines() throws {
        let (store, _) = try TestSupport.store(for: self)
        let server = try TestSupport.server(for: self)
        server.setResource("/feed.rss", data: rss(items: [("a", "issues/a.epub"), ("news-1", nil), ("b", "issues/b.epub")]),
                           contentType: "application/rss+xml")
        let publication = try PublicationRefresher(store: store).subscribe(to: server.url(for: "/feed.rss"))
        XCTAssertEqual(publication.title, "Kettle Feed")
        XCTAssertNil(publication.lastError)
        XCTAssertEqual(Set(try store.issues(publicationID: publication.id).map(\.name)), ["a", "b"])
        XCTAssertEqual(try store.headlines(publicationID: publication.id).map(\.title), ["Title news-1"])

        // Headlines are replaced on each successful refresh.
        server.setResource("/feed.rss", data: rss(items: [("a", "issues/a.epub"), ("news-2", nil), ("news-3", nil)]))
        let outcome = PublicationRefresher(store: store).refresh(publication)
        XCTAssertNil(outcome.problem)
        XCTAssertEqual(outcome.headlineCount, 2)
        XCTAssertEqual(try store.headlines(publicationID: publication.id).map(\.title), ["Title news-2", "Title news-3"])
        XCTAssertEqual(Set(try store.issues(publicationID: publication.id).map(\.name)), ["a", "b"], "issues are never removed by a refresh")
    }

    func testSecondRefreshIsConditionalAndA304ChangesNothing() throws {
        let (store, _) = try TestSupport.store(for: self)
        let server = try TestSupport.server(for: self)
        server.setResource("/feed.atom", data: atomPage(1, of: 1), contentType: "application/atom+xml", etag: "v1")
        let refresher = PublicationRefresher(store: store)
        let publication = try refresher.subscribe(to: server.url(for: "/feed.atom"))
        XCTAssertEqual(try store.feedValidators(publicationID: publication.id)?.etag, "\"v1\"")
        let before = try store.issues(publicationID: publication.id)

        server.clearLog()
        let outcome = refresher.refresh(publication)
        XCTAssertTrue(outcome.notModified)
        XCTAssertNil(outcome.problem)
        XCTAssertEqual(outcome.issueCount, 1)
        let request = try XCTUnwrap(server.settledLog().last)
        XCTAssertEqual(request.headers["if-none-match"], "\"v1\"")
        XCTAssertEqual(request.status, 304)
        XCTAssertEqual(try store.issues(publicationID: publication.id), before)
        let after = try XCTUnwrap(try store.publication(id: publication.id))
        XCTAssertNil(after.lastError)
        XCTAssertNotNil(after.lastRefresh)

        // A changed feed is fetched and applied, with its new validator stored.
        var changed = String(decoding: atomPage(1, of: 1), as: UTF8.self)
        changed = changed.replacingOccurrences(of: "</feed>", with: "<entry><id>extra</id><title>Extra</title><updated>2025-02-01T00:00:00Z</updated><link rel=\"enclosure\" href=\"x.epub\"/></entry></feed>")
        server.setResource("/feed.atom", data: Data(changed.utf8), contentType: "application/atom+xml", etag: "v2")
        let second = refresher.refresh(publication)
        XCTAssertFalse(second.notModified)
        XCTAssertEqual(second.newIssueNames, ["extra"])
        XCTAssertEqual(try store.feedValidators(publicationID: publication.id)?.etag, "\"v2\"")
    }

    func testMalformedFeedKeepsTheLastGoodStateAndForgetsValidators() throws {
        let (store, _) = try TestSupport.store(for: self)
        let server = try TestSupport.server(for: self)
        server.setResource("/feed.rss", data: rss(items: [("a", "a.epub"), ("news", nil)]), etag: "good")
        let refresher = PublicationRefresher(store: store)
        let publication = try refresher.subscribe(to: server.url(for: "/feed.rss"))
        let issues = try store.issues(publicationID: publication.id)
        let headlines = try store.headlines(publicationID: publication.id)

        server.setResource("/feed.rss", data: Data("<rss><channel><item><title>broken".utf8), etag: "bad")
        let outcome = refresher.refresh(publication)
        XCTAssertTrue(outcome.problem?.contains("not well-formed") == true, outcome.problem ?? "")
        XCTAssertEqual(try store.issues(publicationID: publication.id), issues)
        XCTAssertEqual(try store.headlines(publicationID: publication.id), headlines)
        XCTAssertNil(try store.feedValidators(publicationID: publication.id), "the next refresh fetches the whole feed")
        XCTAssertEqual(try store.publication(id: publication.id)?.lastError, outcome.problem)
    }

    func testPaginationFollowsNextLinksToTheEnd() throws {
        let (store, _) = try TestSupport.store(for: self)
        let server = try TestSupport.server(for: self)
        for page in 1...4 { server.setResource("/paged/page\(page).xml", data: atomPage(page, of: 4)) }
        let publication = try PublicationRefresher(store: store).subscribe(to: server.url(for: "/paged/page1.xml"))
        XCTAssertEqual(Set(try store.issues(publicationID: publication.id).map(\.name)), ["issue-1", "issue-2", "issue-3", "issue-4"])
        XCTAssertNil(publication.lastError)
    }

    func testPaginationStopsAtTheBoundAndOnLoops() throws {
        let (store, _) = try TestSupport.store(for: self)
        let server = try TestSupport.server(for: self)
        for page in 1...20 { server.setResource("/paged/page\(page).xml", data: atomPage(page, of: 20)) }
        let refresher = PublicationRefresher(store: store, maxPages: 3)
        let feed = try refresher.loadFeed(at: server.url(for: "/paged/page1.xml"))
        XCTAssertEqual(feed.entries.map(\.name), ["issue-1", "issue-2", "issue-3"])
        XCTAssertEqual(feed.nextPage, server.url(for: "/paged/page4.xml"), "what is left unread")
        XCTAssertEqual(server.log(atLeast: 3).filter { $0.path.hasPrefix("/paged/") }.count, 3)

        XCTAssertEqual(PublicationRefresher(store: store).maxPages, 10, "the default bound")
        let tenPages = try PublicationRefresher(store: store).loadFeed(at: server.url(for: "/paged/page1.xml"))
        XCTAssertEqual(tenPages.entries.count, 10)

        server.setResource("/loop/page1.xml", data: atomPage(1, of: nil))
        // The server records a request just after answering it: the ten pages' records are in before the log is cleared.
        XCTAssertEqual(server.log(atLeast: 13).count, 13)
        server.clearLog()
        let loop = try PublicationRefresher(store: store).loadFeed(at: server.url(for: "/loop/page1.xml"))
        XCTAssertEqual(loop.entries.map(\.name), ["issue-1"])
        XCTAssertEqual(server.log(atLeast: 1).count, 1, "a next link back to a page already read is not followed")
    }

    func testPropertyListCatalogStillSubscribesUnchanged() throws {
        let (store, _) = try TestSupport.store(for: self)
        let url = TestFiles.sampleLibrary.appendingPathComponent("catalog.plist")
        let direct = try CatalogParser.parse(try Data(contentsOf: url), catalogURL: url)
        let feed = try FeedParser.parse(try Data(contentsOf: url), url: url)
        XCTAssertEqual(feed.format, .propertyList)
        XCTAssertEqual(feed.catalog, direct, "the property-list path gives exactly what CatalogParser gives")
        let publication = try PublicationRefresher(store: store).subscribe(to: url)
        XCTAssertEqual(try store.issues(publicationID: publication.id).count, direct.entries.count)
        // An unchanged file is not read again.
        XCTAssertTrue(PublicationRefresher(store: store).refresh(publication).notModified)
    }
}
