import Foundation
import XCTest
@testable import NewsstandCore

/// A full sync fetches catalogs several at a time, yet decides downloads one publication at a time and
/// reports in library order.
final class ConcurrentSyncTests: XCTestCase {
    /// Counts refreshes in flight; each waits until `together` are in flight at once (or gives up after 3 s),
    /// so a sync that refreshed one at a time could never reach it.
    private final class Rendezvous: @unchecked Sendable {
        let together: Int
        private let condition = NSCondition()
        private var inFlight = 0
        private(set) var mostAtOnce = 0
        private(set) var timedOut = false

        init(together: Int) { self.together = together }

        func arrive() {
            condition.lock()
            inFlight += 1
            mostAtOnce = max(mostAtOnce, inFlight)
            condition.broadcast()
            let deadline = Date().addingTimeInterval(3)
            while mostAtOnce < together {
                if !condition.wait(until: deadline) { timedOut = true; break }
            }
            inFlight -= 1
            condition.unlock()
        }
    }

    func testCatalogsAreFetchedSeveralAtATimeAndReportedInLibraryOrder() throws {
        let (store, paths) = try TestSupport.store(for: self)
        var publications: [Publication] = []
        for number in 0..<20 {
            publications.append(try store.addPublication(title: "Feed \(number)", feedURL: URL(string: "https://example.com/\(number)")!))
        }
        try store.unsubscribeKeepingDownloads(publicationID: publications[3].id)
        let rendezvous = Rendezvous(together: 4)
        let sync = SyncService(store: store, paths: paths, limits: AutoDownloadLimits(), now: { Date() }, refresh: { publication, _ in
            rendezvous.arrive()
            return PublicationRefresher.Outcome(publicationID: publication.id, issueCount: 0, newIssueNames: [], problem: nil)
        })
        let downloads = DownloadQueue(store: store, paths: paths) { _ in }
        let reports = sync.refreshAndQueue(into: downloads)
        XCTAssertFalse(rendezvous.timedOut, "four refreshes were in flight together")
        XCTAssertGreaterThanOrEqual(rendezvous.mostAtOnce, 4)
        XCTAssertLessThanOrEqual(rendezvous.mostAtOnce, SyncService.concurrentRefreshes, "bounded")
        XCTAssertEqual(reports.map(\.publication.id), publications.filter { $0.id != publications[3].id }.map(\.id),
                       "every subscribed publication, in library order; the unsubscribed one is not refreshed")
    }
}
