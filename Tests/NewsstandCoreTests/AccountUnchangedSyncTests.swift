import Foundation
import LocalHTTPServer
import XCTest
@testable import NewsstandCore

/// An account sync against a scripted Google Reader API: when the unread counts show nothing new (those of the last
/// full check, no stream's newest item later than the last sync, the feeds followed), it asks for them and the starred
/// ids alone, side by side; a new item, a newest time later than the last sync or unknown, or feeds counted that are not
/// the ones followed make it ask for the subscriptions and the items as well.
final class AccountUnchangedSyncTests: XCTestCase {
    private var server: LocalHTTPServer!
    private let api = "/api/greader.php/reader/api/0/"

    override func setUpWithError() throws {
        server = LocalHTTPServer()
        try server.start()
        let server = server!
        addTeardownBlock { server.stop() }
    }

    /// What the server holds: `feeds` subscribed, `items` (id, crawl time) of feed/1, those of `unread` unread, and
    /// the unread counts (`counts`: stream, count, newest time or nil for none given).
    private func serve(feeds: [String] = ["feed/1"], items: [(id: Int64, crawled: Int64)], unread: [Int64],
                       counts: [(stream: String, count: Int, newest: Int64?)]) {
        let subscriptions = feeds.map { #"{"id":"\#($0)","title":"\#($0)","url":"http://127.0.0.1:1/\#($0).xml","categories":[]}"# }
        server.setResource(api + "subscription/list", data: Data(#"{"subscriptions":[\#(subscriptions.joined(separator: ","))]}"#.utf8),
                           contentType: "application/json")
        let entries = items.map { item in
            #"{"id":"\#(ServerItemID(item.id).longForm)","timestampUsec":"\#(item.crawled)","published":1793700000,"title":"Item \#(item.id)","origin":{"streamId":"feed/1"},"canonical":[{"href":"https://example.com/\#(item.id)"}],"summary":{"content":"<p>text</p>"}}"#
        }
        // Whatever `ot` a sync sends (the server's time less 30 s), the same items: the sync keeps those crawled after it.
        server.setResource(api + "stream/contents/user/-/state/com.google/reading-list",
                           data: Data(#"{"items":[\#(entries.joined(separator: ","))]}"#.utf8), contentType: "application/json")
        let refs = unread.map { #"{"id":"\#($0)"}"# }.joined(separator: ",")
        server.setResource(api + "stream/items/ids?output=json&s=user%2F-%2Fstate%2Fcom.google%2Freading-list&xt=user%2F-%2Fstate%2Fcom.google%2Fread&n=100000",
                           data: Data(#"{"itemRefs":[\#(refs)]}"#.utf8), contentType: "application/json")
        server.setResource(api + "stream/items/ids?output=json&s=user%2F-%2Fstate%2Fcom.google%2Fstarred&n=100000",
                           data: Data(#"{"itemRefs":[]}"#.utf8), contentType: "application/json")
        let entriesOfCounts = counts.map { count in
            #"{"id":"\#(count.stream)","count":\#(count.count)"# + (count.newest.map { #","newestItemTimestampUsec":"\#($0)""# } ?? "") + "}"
        }
        server.setResource(api + "unread-count", data: Data(#"{"max":9,"unreadcounts":[\#(entriesOfCounts.joined(separator: ","))]}"#.utf8),
                           contentType: "application/json")
    }

    /// The API's calls since the last look, by name, sorted (those made side by side come in any order).
    private func calls() -> [String] {
        defer { server.clearLog() }
        return server.settledLog().map { record -> String in
            if record.path.hasSuffix("unread-count") { return "counts" }
            if record.path.hasSuffix("subscription/list") { return "subscriptions" }
            if record.path.contains("stream/contents") { return "items" }
            return record.target.contains("starred") ? "starred ids" : "unread ids"
        }.sorted()
    }

    func testOnlyTheCountsAndTheStarredIdsWhileTheCountsShowNothingNew() throws {
        let (store, _) = try TestSupport.store(for: self)
        let url = server.url(for: "api/greader.php")
        let account = try store.addAccount(kind: .googleReader, url: url, user: "reader")
        let sync = AccountSync(store: store) { _ in GoogleReaderClient(baseURL: url, authToken: "reader/token") }
        func syncAgain() throws -> AccountSync.Report {
            let report = sync.sync(try XCTUnwrap(try store.accounts().first { $0.id == account.id }))
            XCTAssertNil(report.problem)
            return report
        }
        let everything = ["counts", "items", "starred ids", "subscriptions", "unread ids"]
        // Now, in microseconds: the items' crawl times are set around it (a sync keeps the server's time less 30 s).
        let now = Int64(Date().timeIntervalSince1970 * 1_000_000)
        let old = now - 100_000_000
        serve(items: [(1, old), (2, old + 1)], unread: [1, 2],
              counts: [("feed/1", 2, old + 1), ("user/-/state/com.google/reading-list", 2, old + 1)])
        let first = try syncAgain()
        XCTAssertEqual(first.newItems, 2)
        XCTAssertFalse(first.subscriptionsAndItemsSkipped)
        XCTAssertEqual(calls(), everything)

        let before = try XCTUnwrap(try store.accounts().first?.lastSync)
        Thread.sleep(forTimeInterval: 0.01)
        let unchanged = try syncAgain()
        XCTAssertTrue(unchanged.subscriptionsAndItemsSkipped)
        // Its time is written, on the account and as the publication's refresh, without waiting for the disk; the
        // connection waits for it again afterwards.
        let after = try XCTUnwrap(try store.accounts().first?.lastSync)
        XCTAssertGreaterThan(after, before)
        XCTAssertEqual(try store.publications(accountID: account.id).first?.lastRefresh?.timeIntervalSince1970 ?? 0,
                       after.timeIntervalSince1970, accuracy: 0.001)
        XCTAssertEqual(try store.locked { try store.database.query("PRAGMA synchronous").first?.first?.int64 }, 2, "FULL")
        XCTAssertEqual(unchanged.requests, 2)
        XCTAssertEqual(calls(), ["counts", "starred ids"])
        XCTAssertEqual(unchanged.readCheck, .countsUnchanged)
        XCTAssertEqual(unchanged.subscriptions, 1)
        XCTAssertEqual(unchanged.outcomes.map(\.publication.accountStream), ["feed/1"])
        XCTAssertEqual(unchanged.outcomes.first?.outcome.notModified, true)
        XCTAssertEqual(unchanged.outcomes.first?.outcome.headlineCount, 2)

        // A new item: its feed's count and newest time change, so the items are asked for and it arrives.
        serve(items: [(1, old), (2, old + 1), (3, now)], unread: [1, 2, 3],
              counts: [("feed/1", 3, now), ("user/-/state/com.google/reading-list", 3, now)])
        let arrived = try syncAgain()
        XCTAssertFalse(arrived.subscriptionsAndItemsSkipped)
        XCTAssertEqual(arrived.newItems, 1)
        XCTAssertEqual(calls(), everything)
        XCTAssertTrue(try syncAgain().subscriptionsAndItemsSkipped, "the new item is older than the last sync now")
        XCTAssertEqual(calls(), ["counts", "starred ids"])

        // A newest item later than the last sync (a server whose times are not crawl times, or still storing a crawl),
        // even with counts that stay the same: the items are asked for every time.
        let later = now + 3_600_000_000
        serve(items: [(1, old), (2, old + 1), (3, now)], unread: [1, 2, 3],
              counts: [("feed/1", 3, later), ("user/-/state/com.google/reading-list", 3, later)])
        XCTAssertFalse(try syncAgain().subscriptionsAndItemsSkipped)
        XCTAssertEqual(calls(), everything, "the counts changed: the unread list read too")
        let stillLater = try syncAgain()
        XCTAssertFalse(stillLater.subscriptionsAndItemsSkipped)
        XCTAssertEqual(stillLater.readCheck, .countsUnchanged)
        XCTAssertEqual(calls(), ["counts", "items", "starred ids", "subscriptions"])

        // No newest times (a server that does not give them): nothing to tell that nothing arrived.
        serve(items: [(1, old), (2, old + 1), (3, now)], unread: [1, 2, 3],
              counts: [("feed/1", 3, nil), ("user/-/state/com.google/reading-list", 3, nil)])
        _ = try syncAgain()
        _ = calls()
        XCTAssertFalse(try syncAgain().subscriptionsAndItemsSkipped)
        XCTAssertEqual(calls(), ["counts", "items", "starred ids", "subscriptions"])

        // A feed counted that is not followed here (a server counting what it does not list): the subscriptions are
        // asked for every time, since the counts cannot tell.
        serve(items: [(1, old), (2, old + 1), (3, now)], unread: [1, 2, 3],
              counts: [("feed/1", 3, now), ("feed/2", 0, 0), ("user/-/state/com.google/reading-list", 3, now)])
        _ = try syncAgain()
        _ = calls()
        XCTAssertFalse(try syncAgain().subscriptionsAndItemsSkipped)
        XCTAssertEqual(calls(), ["counts", "items", "starred ids", "subscriptions"])
    }

    func testTheCountsShowNothingNewOnlyForTheFeedsFollowedAndNothingNewerThanTheSync() {
        let counts = [ServerUnreadCount(streamID: "feed/1", count: 2, newestMicroseconds: 5_000),
                      ServerUnreadCount(streamID: "feed/2", count: 0, newestMicroseconds: 0),
                      ServerUnreadCount(streamID: "user/-/label/News", count: 2, newestMicroseconds: 5_000)]
        XCTAssertTrue(AccountSync.countsShowNothingNew(counts, syncedTo: 5_000, subscribed: ["feed/1", "feed/2"]))
        XCTAssertFalse(AccountSync.countsShowNothingNew(counts, syncedTo: 4_999, subscribed: ["feed/1", "feed/2"]), "an item newer than the sync")
        XCTAssertFalse(AccountSync.countsShowNothingNew(counts, syncedTo: nil, subscribed: ["feed/1", "feed/2"]), "never synced")
        XCTAssertFalse(AccountSync.countsShowNothingNew(counts, syncedTo: 5_000, subscribed: ["feed/1"]), "a feed counted, not followed")
        XCTAssertFalse(AccountSync.countsShowNothingNew(counts, syncedTo: 5_000, subscribed: ["feed/1", "feed/2", "feed/3"]), "a feed followed, not counted")
        XCTAssertFalse(AccountSync.countsShowNothingNew(counts.map { ServerUnreadCount(streamID: $0.streamID, count: $0.count, newestMicroseconds: 0) },
                                                        syncedTo: 5_000, subscribed: ["feed/1", "feed/2"]), "no newest times")
    }
}
