import Foundation
import XCTest
@testable import NewsstandCore
import LocalHTTPServer

/// Unchanged feeds (304) have only their refresh time saved, and a sync saves those times in batches: every one of
/// them by the end, none lost to another feed's failure, and nothing else about the publication touched.
final class UnchangedRefreshBatchTests: XCTestCase {
    private func rss(_ feed: Int, items: Int = 2) -> Data {
        var text = "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>Feed \(feed)</title>"
        for item in 0..<items {
            text += "<item><guid>f\(feed)-\(item)</guid><title>Issue \(item)</title><pubDate>Mon, 0\(item + 1) Jan 2025 10:00:00 GMT</pubDate>"
                + "<enclosure url=\"issues/\(feed)-\(item).epub\" type=\"application/epub+zip\"/></item>"
        }
        return Data((text + "<item><title>A headline</title></item></channel></rss>").utf8)
    }

    private func publications(_ count: Int, in store: LibraryStore) throws -> [Publication] {
        try (0..<count).map { try store.addPublication(title: "Feed \($0)", feedURL: URL(string: "https://example.com/\($0).rss")!) }
    }

    func testAFullBatchIsSavedInOneGoAndTheRestBySave() throws {
        let (store, _) = try TestSupport.store(for: self)
        let publications = try publications(7, in: store)
        let batch = UnchangedRefreshBatch(store: store, size: 3, maxDelay: 3600)
        let date = Date(timeIntervalSince1970: 1_800_000_000)
        for publication in publications.prefix(2) { batch.add(publicationID: publication.id, at: date) }
        XCTAssertEqual(batch.unsavedCount, 2)
        XCTAssertNil(try store.publication(id: publications[0].id)?.lastRefresh, "not saved before the batch is full")

        batch.add(publicationID: publications[2].id, at: date)
        XCTAssertEqual(batch.unsavedCount, 0)
        for publication in publications.prefix(3) {
            XCTAssertEqual(try store.publication(id: publication.id)?.lastRefresh, date, "the full batch is saved")
        }

        for publication in publications.dropFirst(3) { batch.add(publicationID: publication.id, at: date) }
        XCTAssertEqual(batch.unsavedCount, 1, "the second batch of three was saved, one waits")
        XCTAssertNil(try store.publication(id: publications[6].id)?.lastRefresh)
        batch.save()
        XCTAssertEqual(batch.unsavedCount, 0)
        XCTAssertEqual(try store.publications().map(\.lastRefresh), Array(repeating: date, count: 7))
    }

    func testATimeThatWaitedMaxDelayIsSavedWithTheNextOne() throws {
        let (store, _) = try TestSupport.store(for: self)
        let publications = try publications(3, in: store)
        let batch = UnchangedRefreshBatch(store: store, size: 100, maxDelay: 2)
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        batch.add(publicationID: publications[0].id, at: start)
        batch.add(publicationID: publications[1].id, at: start.addingTimeInterval(1))
        XCTAssertEqual(batch.unsavedCount, 2)
        batch.add(publicationID: publications[2].id, at: start.addingTimeInterval(2))
        XCTAssertEqual(batch.unsavedCount, 0)
        XCTAssertEqual(try store.publications().map(\.lastRefresh), [start, start.addingTimeInterval(1), start.addingTimeInterval(2)])
    }

    func testOnlyTheRefreshTimeChanges() throws {
        let (store, _) = try TestSupport.store(for: self)
        let publication = try XCTUnwrap(try publications(1, in: store).first)
        try store.recordRefresh(publicationID: publication.id, title: "Kept Title", error: "skipped 1 of 3 issues",
                                at: Date(timeIntervalSince1970: 1_700_000_000))
        try store.setFeedValidators(FetchValidators(etag: "\"v1\"", lastModified: "Mon, 06 Jan 2025 10:00:00 GMT"), publicationID: publication.id)
        try store.setFeedFormat(.rss, publicationID: publication.id)
        var expected = try XCTUnwrap(try store.publication(id: publication.id))

        let later = Date(timeIntervalSince1970: 1_800_000_000)
        try store.recordUnchangedRefreshes([(publication.id, later)])
        expected.lastRefresh = later
        XCTAssertEqual(try store.publication(id: publication.id), expected, "title, problem and format as they were")
        XCTAssertEqual(try store.feedValidators(publicationID: publication.id),
                       FetchValidators(etag: "\"v1\"", lastModified: "Mon, 06 Jan 2025 10:00:00 GMT"))
    }

    /// A time the library refuses (here a trigger stands in for whatever might) fails its batch's transaction;
    /// the others in the batch are saved one by one.
    func testATimeThatCannotBeSavedDoesNotLoseTheOthers() throws {
        let (store, _) = try TestSupport.store(for: self)
        let publications = try publications(5, in: store)
        let refused = publications[2].id
        try store.database.execute("""
            CREATE TRIGGER refuse_one BEFORE UPDATE OF last_refresh ON publications WHEN new.id = \(refused)
            BEGIN SELECT RAISE(ABORT, 'refused for the test'); END;
            """)
        XCTAssertThrowsError(try store.recordUnchangedRefreshes(publications.map { ($0.id, Date()) }), "the whole transaction fails")
        XCTAssertEqual(try store.publications().compactMap(\.lastRefresh), [], "and nothing of it stays")

        let batch = UnchangedRefreshBatch(store: store, size: 10)
        let date = Date(timeIntervalSince1970: 1_800_000_000)
        for publication in publications { batch.add(publicationID: publication.id, at: date) }
        batch.save()
        for publication in try store.publications() {
            XCTAssertEqual(publication.lastRefresh, publication.id == refused ? nil : date, publication.title)
        }
    }

    func testARefreshIntoABatchWritesNothingUntilItIsSaved() throws {
        let (store, _) = try TestSupport.store(for: self)
        let server = try TestSupport.server(for: self)
        server.setResource("/feed.rss", data: rss(1), contentType: "application/rss+xml", etag: "v1")
        let refresher = PublicationRefresher(store: store)
        let publication = try refresher.subscribe(to: server.url(for: "/feed.rss"))
        let subscribedAt = try XCTUnwrap(try store.publication(id: publication.id)?.lastRefresh)

        let batch = UnchangedRefreshBatch(store: store)
        let outcome = refresher.refresh(publication, savingUnchangedIn: batch)
        XCTAssertTrue(outcome.notModified)
        XCTAssertEqual(outcome.issueCount, 2)
        XCTAssertEqual(outcome.headlineCount, 1)
        XCTAssertEqual(try store.publication(id: publication.id)?.lastRefresh, subscribedAt, "waiting in the batch")
        batch.save()
        let saved = try XCTUnwrap(try store.publication(id: publication.id)?.lastRefresh)
        XCTAssertGreaterThan(saved, subscribedAt)
    }

    /// More unchanged feeds than a batch holds, and one that breaks: after the sync every unchanged feed has its new
    /// refresh time and the broken one its problem.
    func testASyncSavesEveryUnchangedFeedsTimeAndAFailureLosesNone() throws {
        let (store, paths) = try TestSupport.store(for: self)
        let server = try TestSupport.server(for: self)
        let count = 230
        for feed in 0..<count {
            server.setResource("/feeds/\(feed).rss", data: rss(feed), contentType: "application/rss+xml", etag: "f\(feed)")
            try store.addPublication(title: "Feed \(feed)", feedURL: server.url(for: "/feeds/\(feed).rss"))
        }
        let sync = SyncService(store: store, paths: paths, limits: AutoDownloadLimits(), now: { Date() })
        let downloads = DownloadQueue(store: store, paths: paths) { _ in }
        let first = sync.refreshAndQueue(into: downloads)
        XCTAssertEqual(first.filter { $0.outcome.problem == nil && !$0.outcome.notModified }.count, count)
        let before = Dictionary(uniqueKeysWithValues: try store.publications().map { ($0.id, $0) })
        XCTAssertEqual(before.values.filter { $0.lastRefresh == nil }.count, 0)

        let broken = 117
        server.setResource("/feeds/\(broken).rss", data: Data("<rss><channel><item><title>cut off".utf8), etag: "broken")
        let second = sync.refreshAndQueue(into: downloads)
        XCTAssertEqual(second.count, count)
        XCTAssertEqual(second.filter(\.outcome.notModified).count, count - 1)
        XCTAssertEqual(second.filter { $0.outcome.problem != nil }.map(\.publication.title), ["Feed \(broken)"])
        XCTAssertEqual(second.filter(\.outcome.notModified).map(\.outcome.issueCount), Array(repeating: 2, count: count - 1))

        for publication in try store.publications() {
            let earlier = try XCTUnwrap(before[publication.id])
            if publication.title == "Feed \(broken)" {
                XCTAssertNotNil(publication.lastError)
                XCTAssertNil(try store.feedValidators(publicationID: publication.id), "fetched whole next time")
                XCTAssertEqual(publication.lastRefresh, earlier.lastRefresh, "a failure leaves the time of the last good refresh")
            } else {
                XCTAssertNil(publication.lastError, publication.title)
                XCTAssertGreaterThan(try XCTUnwrap(publication.lastRefresh), try XCTUnwrap(earlier.lastRefresh),
                                     "\(publication.title): the second sync's time was saved")
                XCTAssertEqual(try store.feedValidators(publicationID: publication.id)?.etag, "\"f\(publication.title.dropFirst("Feed ".count))\"",
                               "\(publication.title): its validators kept")
            }
        }
    }
}
