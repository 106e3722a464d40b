import Foundation
import LocalHTTPServer
import NewsstandCore
import NewsstandTestSupport
import XCTest

/// What an unchanged account sync costs against a real FreshRSS (issue 23's benchmark target): a few requests, the
/// items asked from the server's time so the last crawled second does not come again, and the subscriptions that did
/// change (renamed, unsubscribed, subscribed again) still followed.
final class FreshRSSUnchangedSyncTests: EndToEndTestCase {
    func testAnUnchangedSyncAsksFromTheServersTimeAndFollowsWhatChanged() throws {
        let feeds = Dictionary(uniqueKeysWithValues: (1...3).map { ("/feed\($0).xml", "Feed \($0)") })
        let (freshRSS, server, client) = try FreshRSSAccountTests.start(in: self, feeds: feeds)
        var streams: [String] = []
        for path in feeds.keys.sorted() { streams.append(try client.subscribe(to: server.url(for: String(path.dropFirst())))) }
        let crawled = try client.items(since: nil).items.compactMap(\.crawledMicroseconds)
        XCTAssertEqual(crawled.count, 6)
        let newest = try XCTUnwrap(crawled.max())
        // The server's clock (its Date header, in seconds) past the newest item's second.
        Thread.sleep(forTimeInterval: 1.2)

        let store = try LibraryStore(file: home.appendingPathComponent("library.sqlite"))
        defer { store.close() }
        let token = try GoogleReaderClient.logIn(baseURL: freshRSS.apiURL, user: freshRSS.user, password: freshRSS.apiPassword)
        let account = try store.addAccount(kind: .googleReader, url: freshRSS.apiURL, user: freshRSS.user)
        let url = freshRSS.apiURL
        var sync = AccountSync(store: store) { _ in GoogleReaderClient(baseURL: url, authToken: token) }
        sync.crawlSettlingSeconds = 0
        let first = sync.sync(account)
        XCTAssertNil(first.problem)
        XCTAssertEqual(first.newItems, 6)

        // Synced to the server's time, not to the newest item: asking from there brings nothing, while asking from
        // the newest item's second (as `ot` counts) would bring its items again.
        let synced = try XCTUnwrap(try store.accounts().first?.syncedToMicroseconds)
        XCTAssertGreaterThanOrEqual(synced, (newest / 1_000_000 + 1) * 1_000_000)
        XCTAssertEqual(try client.items(since: synced).items, [])
        XCTAssertFalse(try client.items(since: newest).items.isEmpty)

        let again = sync.sync(try XCTUnwrap(try store.accounts().first))
        XCTAssertNil(again.problem)
        XCTAssertEqual(again.newItems, 0)
        XCTAssertEqual(again.requests, 4, "subscriptions, items since the server's time, unread ids, starred ids")
        let ours = again.outcomes.filter { streams.contains($0.publication.accountStream ?? "") }
        XCTAssertEqual(ours.count, 3)
        for (publication, outcome) in ours {
            XCTAssertTrue(outcome.notModified, publication.title)
            XCTAssertEqual(outcome.issueCount, 1, publication.title)
            XCTAssertEqual(outcome.headlineCount, 1, publication.title)
        }

        // Read and starred on the server: only those issues change here; unstarred there, unstarred here.
        let issues = try store.issues(publicationID: try XCTUnwrap(ours.first?.publication.id))
            + store.issues(publicationID: try XCTUnwrap(ours.last?.publication.id))
        XCTAssertEqual(issues.count, 2)
        let (read, starred) = (issues[0], issues[1])
        try client.set(.read, true, items: [try XCTUnwrap(ServerItemID(read.name))])
        try client.set(.starred, true, items: [try XCTUnwrap(ServerItemID(starred.name))])
        let marked = sync.sync(try XCTUnwrap(try store.accounts().first))
        XCTAssertEqual(marked.markedRead, 1)
        let after = Dictionary(uniqueKeysWithValues: try issues.map { ($0.name, try XCTUnwrap(try store.issue(id: $0.id))) })
        XCTAssertNotNil(after[read.name]?.openedAt)
        XCTAssertEqual(after[read.name]?.isStarred, false)
        XCTAssertNil(after[starred.name]?.openedAt)
        XCTAssertEqual(after[starred.name]?.isStarred, true)
        try client.set(.starred, false, items: [try XCTUnwrap(ServerItemID(starred.name))])
        _ = sync.sync(try XCTUnwrap(try store.accounts().first))
        XCTAssertEqual(try store.issue(id: starred.id)?.isStarred, false)

        // What changed still reaches the library: a rename on the server, an unsubscription there, and one here of a
        // feed the server still has (the server's list wins).
        let publications = try store.publications(accountID: account.id)
        let feed1 = try XCTUnwrap(publications.first { $0.accountStream == streams[0] })
        let feed2 = try XCTUnwrap(publications.first { $0.accountStream == streams[1] })
        let feed3 = try XCTUnwrap(publications.first { $0.accountStream == streams[2] })
        try client.rename(streamID: streams[0], to: "Feed One")
        try client.unsubscribe(streamID: streams[1])
        try store.unsubscribeKeepingDownloads(publicationID: feed3.id)
        XCTAssertEqual(try store.publication(id: feed3.id)?.isSubscribed, false)
        let changed = sync.sync(try XCTUnwrap(try store.accounts().first))
        XCTAssertNil(changed.problem)
        XCTAssertEqual(try store.publication(id: feed1.id)?.title, "Feed One")
        XCTAssertEqual(try store.publication(id: feed2.id)?.isSubscribed, false)
        XCTAssertEqual(try store.publication(id: feed3.id)?.isSubscribed, true)
    }
}
