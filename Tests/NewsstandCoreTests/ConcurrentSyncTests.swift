import Foundation
import XCTest
@testable import NewsstandCore
import Synchronization

/// A full sync fetches catalogs several at a time, yet decides downloads one publication at a time and
/// reports in library order.
final class ConcurrentSyncTests: XCTestCase {
    /// Counts refreshes in flight; each waits until `together` are in flight at once (or gives up after 3 s),
    /// so a sync that refreshed one at a time could never reach it.
    private final class Rendezvous: Sendable {
        let together: Int
        /// Wakes the waiting refreshes when another arrives; held around every change of `counts`.
        private let arrivals = NSCondition()
        private let counts = Mutex((inFlight: 0, mostAtOnce: 0, timedOut: false))

        init(together: Int) { self.together = together }

        var mostAtOnce: Int { counts.withLock { $0.mostAtOnce } }
        var timedOut: Bool { counts.withLock { $0.timedOut } }

        func arrive() {
            arrivals.withLock {
                counts.withLock { counts in
                    counts.inFlight += 1
                    counts.mostAtOnce = max(counts.mostAtOnce, counts.inFlight)
                }
                arrivals.broadcast()
                let deadline = Date().addingTimeInterval(3)
                while mostAtOnce < together {
                    if !arrivals.wait(until: deadline) {
                        counts.withLock { $0.timedOut = true }
                        break
                    }
                }
                counts.withLock { $0.inFlight -= 1 }
            }
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
