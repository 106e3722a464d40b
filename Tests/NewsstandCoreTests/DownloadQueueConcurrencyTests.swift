import Foundation
import NewsstandTestSupport
import XCTest
@testable import NewsstandCore

/// The queue's bookkeeping is reached from many threads at once (callers, transfers, installs): it stays whole.
final class DownloadQueueConcurrencyTests: XCTestCase {
    /// Eight threads enqueue the same twelve issues in different orders while they also move issues in line, ask what
    /// is pending and change how many run at once: each issue is transferred and installed exactly once, nothing is left.
    func testCallersOnManyThreadsAtOnceInstallEachIssueExactlyOnce() throws {
        var policy = DownloadHarness.quickRetries
        policy.maxConcurrent = 2
        let harness = try DownloadHarness.make(for: self, policy: policy)
        var issues: [Issue] = []
        for number in 0..<12 {
            let data = Data("%PDF-1.4\n% issue \(number)\n".utf8) + TestFiles.pseudoRandomData(count: 20_000 + number * 1_000)
            try data.write(to: harness.www.appendingPathComponent("issue-\(number).pdf"))
            issues.append(try harness.addIssue("issue-\(number)", content: [harness.server.url(for: "/issue-\(number).pdf")],
                                               size: Int64(data.count)))
        }
        let ids = issues.map(\.id)
        let done = DispatchGroup()
        for thread in 0..<8 {
            done.enter()
            Thread {
                var order = ids
                for index in order.indices { order.swapAt(index, (index * 7 + thread * 5) % order.count) }
                for (step, id) in order.enumerated() {
                    harness.queue.enqueue(issueID: id)
                    switch step % 4 {
                    case 0: harness.queue.move(issueID: id, by: thread % 2 == 0 ? -1 : 1)
                    case 1: _ = harness.queue.pendingIssueIDs
                    case 2: harness.queue.setMaxConcurrent(1 + (thread + step) % 3)
                    default: break
                    }
                }
                done.leave()
            }.start()
        }
        XCTAssertEqual(done.wait(timeout: .now() + 30), .success)
        XCTAssertTrue(harness.queue.waitUntilIdle(timeout: 60), "the queue empties")
        XCTAssertEqual(harness.queue.pendingIssueIDs, [])
        for id in ids {
            let events = harness.events(of: id)
            XCTAssertEqual(events.filter { if case .installed = $0 { true } else { false } }.count, 1, "issue \(id): \(events)")
            XCTAssertEqual(events.filter { if case .started = $0 { true } else { false } }.count, 1, "issue \(id): \(events)")
            XCTAssertFalse(events.contains { if case .failed = $0 { true } else { false } }, "issue \(id): \(events)")
            XCTAssertEqual(try harness.store.issue(id: id)?.state, .available)
        }
        XCTAssertEqual(harness.server.settledLog().count, ids.count, "each issue fetched once")
    }
}
