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

        let library = try FreshRSSAccountTests.library(in: self, on: freshRSS)
        let (store, account) = (library.store, library.account)
        var sync = AccountSync(store: store) { _ in library.client() }
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
        XCTAssertEqual(again.requests, 2, "unread counts (nothing newer than the server's time: no subscriptions, items or unread ids), starred ids")
        XCTAssertTrue(again.subscriptionsAndItemsSkipped)
        XCTAssertEqual(again.readCheck, .countsUnchanged)
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
        XCTAssertEqual(marked.readCheck, .compared, "the feed's unread count changed")
        XCTAssertFalse(marked.starredListUnchanged, "a star was added there")
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

    /// The time an ``AccountSync`` sees, moved by the test.
    private final class Clock: @unchecked Sendable {
        private let lock = NSLock()
        private var date = Date()
        var now: Date { lock.withLock { date } }
        func advance(_ seconds: TimeInterval) { lock.withLock { date += seconds } }
    }

    /// A FreshRSS client that counts the unread lists it is asked for.
    private final class ListCounter: FeedServerClient, @unchecked Sendable {
        let client: GoogleReaderClient
        private let lock = NSLock()
        private var lists = 0
        init(_ client: GoogleReaderClient) { self.client = client }
        var unreadLists: Int { lock.withLock { lists } }
        var requestCount: Int { client.requestCount }
        func subscriptions() throws -> [ServerSubscription] { try client.subscriptions() }
        func items(since microseconds: Int64?) throws -> ServerItemBatch { try client.items(since: microseconds) }
        func itemIDs(_ list: ServerItemList) throws -> ServerItemIDs {
            if list == .unread { lock.withLock { lists += 1 } }
            return try client.itemIDs(list)
        }
        func unreadCounts() throws -> [ServerUnreadCount]? { try client.unreadCounts() }
        func set(_ state: ServerItemState, _ adding: Bool, items: [ServerItemID]) throws { try client.set(state, adding, items: items) }
        func subscribe(to feedURL: URL) throws -> String { try client.subscribe(to: feedURL) }
        func unsubscribe(streamID: String) throws { try client.unsubscribe(streamID: streamID) }
        func rename(streamID: String, to title: String) throws { try client.rename(streamID: streamID, to: title) }
    }

    /// An unchanged sync asks FreshRSS's unread counts and not its unread list; an item read in FreshRSS changes its
    /// feed's count, so the next sync reads the list and sees it read; a read and an unread in the same feed leave the
    /// counts as they were (the trade-off), and the full check due after `fullCheckInterval` sees them.
    func testAnUnchangedSyncTrustsTheUnreadCountsUntilTheHourlyFullCheck() throws {
        let feeds = Dictionary(uniqueKeysWithValues: (1...2).map { ("/feed\($0).xml", "Feed \($0)") })
        let (freshRSS, server, client) = try FreshRSSAccountTests.start(in: self, feeds: feeds)
        for path in feeds.keys.sorted() { _ = try client.subscribe(to: server.url(for: String(path.dropFirst()))) }
        let library = try FreshRSSAccountTests.library(in: self, on: freshRSS)
        let (store, account) = (library.store, library.account)
        let counter = ListCounter(library.client())
        let clock = Clock()
        var sync = AccountSync(store: store) { _ in counter }
        sync.now = { clock.now }
        sync.fullCheckInterval = 600
        func syncAgain() throws -> (report: AccountSync.Report, requests: Int, lists: Int) {
            let (requests, lists) = (counter.requestCount, counter.unreadLists)
            let report = sync.sync(try XCTUnwrap(try store.accounts().first))
            XCTAssertNil(report.problem)
            return (report, counter.requestCount - requests, counter.unreadLists - lists)
        }

        let first = try syncAgain()
        XCTAssertEqual(first.report.newItems, 4)
        XCTAssertEqual(first.report.readCheck, .compared)
        XCTAssertEqual(first.lists, 1)
        XCTAssertNotNil(try store.readCheck(accountID: account.id).countsDigest)

        let unchanged = try syncAgain()
        XCTAssertEqual(unchanged.report.readCheck, .countsUnchanged)
        XCTAssertEqual(unchanged.lists, 0, "no unread list")
        XCTAssertEqual(unchanged.requests, 2, "unread counts, starred ids")
        XCTAssertTrue(unchanged.report.subscriptionsAndItemsSkipped)
        XCTAssertTrue(unchanged.report.starredListUnchanged)

        // Read in FreshRSS: its feed's count is one less, so the list is read and the issue is read here.
        let feed1 = try XCTUnwrap(try store.publications(accountID: account.id).first { $0.title == "Feed 1" })
        let issue = try XCTUnwrap(try store.issues(publicationID: feed1.id).first)
        let headline = try XCTUnwrap(try store.headlines(publicationID: feed1.id).first)
        let headlineItem = try XCTUnwrap(headline.serverItem)
        XCTAssertNil(issue.openedAt)
        try client.set(.read, true, items: [try XCTUnwrap(ServerItemID(issue.name))])
        clock.advance(60)
        let read = try syncAgain()
        XCTAssertEqual(read.report.readCheck, .compared)
        XCTAssertEqual(read.lists, 1)
        XCTAssertEqual(read.report.markedRead, 1)
        XCTAssertNotNil(try store.issue(id: issue.id)?.openedAt)
        XCTAssertEqual(try syncAgain().report.readCheck, .countsUnchanged)

        // The trade-off: in the same feed, the issue unread and the headline read in FreshRSS leave its count as it
        // was; within the interval the headline stays unread here.
        try client.set(.read, false, items: [try XCTUnwrap(ServerItemID(issue.name))])
        try client.set(.read, true, items: [headlineItem])
        clock.advance(60)
        let hidden = try syncAgain()
        XCTAssertEqual(hidden.report.readCheck, .countsUnchanged)
        XCTAssertEqual(try store.headlines(publicationID: feed1.id).first?.isRead, false)

        // The full check once the interval has passed: the list is read and compared, and the headline is read.
        clock.advance(600)
        let due = try syncAgain()
        XCTAssertEqual(due.report.readCheck, .compared)
        XCTAssertEqual(due.lists, 1)
        XCTAssertEqual(due.requests, 5, "unread counts, starred ids, subscriptions, items, unread ids")
        XCTAssertFalse(due.report.subscriptionsAndItemsSkipped)
        XCTAssertEqual(try store.headlines(publicationID: feed1.id).first?.isRead, true)

        // The next full check finds the list the one last applied: nothing to compare.
        XCTAssertEqual(try syncAgain().report.readCheck, .countsUnchanged)
        clock.advance(601)
        let same = try syncAgain()
        XCTAssertEqual(same.report.readCheck, .listUnchanged)
        XCTAssertEqual(same.lists, 1)

        // Read here and sent at once (as `newsstand mark` does), then unread in FreshRSS: the counts are back to those
        // of the last check, but a sent mark made the next sync compare the whole list, so it is unread here again.
        XCTAssertTrue(try store.setHeadlineRead(true, publicationID: feed1.id, key: try XCTUnwrap(headline.key)))
        XCTAssertEqual(try sync.sendMarks(of: try XCTUnwrap(try store.accounts().first)), 1)
        XCTAssertFalse(try client.itemIDs(.unread).ids.contains(headlineItem))
        try client.set(.read, false, items: [headlineItem])
        let back = try syncAgain()
        XCTAssertEqual(back.report.readCheck, .compared)
        XCTAssertEqual(try store.headlines(publicationID: feed1.id).first?.isRead, false)
        XCTAssertEqual(try syncAgain().report.readCheck, .countsUnchanged)
    }

    /// What a sync that trusts the counts still sees of the subscriptions: one added or removed on the server changes the
    /// feeds counted, and so does one unsubscribed here (the server's list wins); a rename alone changes no count, so it
    /// waits for the full check, within `fullCheckInterval` (the trade-off).
    func testSubscriptionsChangedElsewhereReachAnUnchangedSyncAndARenameTheFullCheck() throws {
        let feeds = Dictionary(uniqueKeysWithValues: (1...3).map { ("/feed\($0).xml", "Feed \($0)") })
        let (freshRSS, server, client) = try FreshRSSAccountTests.start(in: self, feeds: feeds)
        let first = try client.subscribe(to: server.url(for: "feed1.xml"))
        let library = try FreshRSSAccountTests.library(in: self, on: freshRSS)
        let store = library.store
        let clock = Clock()
        var sync = AccountSync(store: store) { _ in library.client() }
        sync.now = { clock.now }
        sync.crawlSettlingSeconds = 0
        sync.fullCheckInterval = 600
        func syncAgain() throws -> AccountSync.Report {
            // The server's clock (its Date header, in seconds) past the last item's second.
            Thread.sleep(forTimeInterval: 1.1)
            let report = sync.sync(try XCTUnwrap(try store.accounts().first))
            XCTAssertNil(report.problem)
            return report
        }
        func publication(_ stream: String) throws -> Publication? {
            try store.publications(accountID: library.account.id).first { $0.accountStream == stream }
        }
        XCTAssertEqual(try syncAgain().newItems, 2)
        XCTAssertTrue(try syncAgain().subscriptionsAndItemsSkipped)

        // Subscribed on the server by another reader: the counts list its feed, so the sync asks for the rest.
        let second = try client.subscribe(to: server.url(for: "feed2.xml"))
        let added = try syncAgain()
        XCTAssertFalse(added.subscriptionsAndItemsSkipped)
        XCTAssertEqual(added.newItems, 2)
        XCTAssertEqual(try publication(second)?.isSubscribed, true)
        XCTAssertTrue(try syncAgain().subscriptionsAndItemsSkipped)

        // Unsubscribed here without the server (a library change): the server's list wins at the next sync.
        try store.unsubscribeKeepingDownloads(publicationID: try XCTUnwrap(try publication(second)).id)
        XCTAssertFalse(try syncAgain().subscriptionsAndItemsSkipped)
        XCTAssertEqual(try publication(second)?.isSubscribed, true)

        // Unsubscribed on the server: its feed is no longer counted.
        try client.unsubscribe(streamID: second)
        XCTAssertFalse(try syncAgain().subscriptionsAndItemsSkipped)
        XCTAssertEqual(try publication(second)?.isSubscribed, false)
        XCTAssertTrue(try syncAgain().subscriptionsAndItemsSkipped)

        // Renamed on the server: no count changes, so the title here waits for the full check.
        try client.rename(streamID: first, to: "Feed One")
        let renamed = try syncAgain()
        XCTAssertTrue(renamed.subscriptionsAndItemsSkipped)
        XCTAssertEqual(try publication(first)?.title, "Feed 1")
        clock.advance(601)
        let due = try syncAgain()
        XCTAssertFalse(due.subscriptionsAndItemsSkipped)
        XCTAssertEqual(try publication(first)?.title, "Feed One")
    }
}
