import Foundation
import XCTest
@testable import NewsstandCore
import LocalHTTPServer

/// Two downloaders on one library (the shelf and a cron `newsstand sync`) never fetch the same issue at once:
/// each holds a `flock` on `partial/ISSUEID.lock` while it transfers and installs.
final class DownloadLockTests: XCTestCase {
    private struct Downloader {
        let store: LibraryStore
        let queue: DownloadQueue
        let events: EventLog<DownloadEvent>

        func events(of issueID: Int64) -> [DownloadEvent] { events.all.filter { $0.issueID == issueID } }
    }

    private var paths: LibraryPaths!
    private var server: LocalHTTPServer!
    private var www: URL!
    private var issue: Issue!

    override func setUpWithError() throws {
        paths = try TestSupport.paths(for: self)
        www = try TestFiles.scratchFolder(for: self)
        server = try TestSupport.server(for: self, root: www)
        try FileManager.default.copyItem(at: TestSupport.sampleIssue("2025-winter"), to: www.appendingPathComponent("w.epub"))
        let (store, _) = try TestSupport.store(for: self, paths: paths)
        let publication = try store.addPublication(title: "Kettle & Compass", feedURL: server.url(for: "/catalog.plist"))
        let size = try XCTUnwrap(FileSize.of(TestSupport.sampleIssue("2025-winter")))
        issue = try XCTUnwrap(try store.upsertIssues([TestSupport.entry("winter", content: [server.url(for: "/w.epub")], size: size)],
                                                     publicationID: publication.id).first)
    }

    /// A downloader with its own store connection and queue, as a second process would have.
    private func downloader() throws -> Downloader {
        let store = try LibraryStore(file: paths.databaseFile)
        let events = EventLog<DownloadEvent>()
        let queue = DownloadQueue(store: store, paths: paths,
                                  policy: DownloadPolicy(maxConcurrent: 2, maxAttempts: 3, backoffBase: 0.01, backoffCap: 0.05, lockRetryInterval: 0.1)) {
            events.append($0)
        }
        addTeardownBlock {
            self.server.stop()
            _ = queue.waitUntilIdle(timeout: 15)
            store.close()
        }
        return Downloader(store: store, queue: queue, events: events)
    }

    private var getRequests: [RequestRecord] { server.requestLog.filter { $0.path == "/w.epub" && $0.method == "GET" } }

    func testTwoOpensOfTheLockFileConflictEvenInOneProcess() throws {
        let file = paths.downloadLockFile(issueID: 42)
        let first = try XCTUnwrap(try IssueLock.tryAcquire(file))
        XCTAssertNil(try IssueLock.tryAcquire(file), "flock locks belong to the open file description: a second open conflicts")
        XCTAssertTrue(IssueLock.isHeld(file))
        first.release()
        XCTAssertFalse(FileManager.default.fileExists(atPath: file.path), "released locks remove their file")
        let second = try XCTUnwrap(try IssueLock.tryAcquire(file))
        second.release()
    }

    func testALockLeftByADeadHolderIsFreeAndReconcileRemovesIt() throws {
        let file = paths.downloadLockFile(issueID: 42)
        XCTAssertTrue(FileManager.default.createFile(atPath: file.path, contents: nil))
        XCTAssertFalse(IssueLock.isHeld(file), "an unlocked file left behind is not a hold")
        XCTAssertTrue(FileManager.default.createFile(atPath: file.path, contents: nil))
        let held = try XCTUnwrap(try IssueLock.tryAcquire(paths.downloadLockFile(issueID: 43)))
        defer { held.release() }
        let (store, _) = try TestSupport.store(for: self, paths: paths)
        _ = try store.reconcile(paths: paths)
        let left = try FileManager.default.contentsOfDirectory(atPath: paths.partialDownloadsDirectory.path)
        XCTAssertEqual(left, ["43.lock"], "reconcile removes stale lock files and keeps held ones")
    }

    func testASecondDownloaderWaitsForTheFirstAndFindsTheIssueInstalled() throws {
        let first = try downloader(), second = try downloader()
        server.bytesPerSecond = 60_000
        first.queue.enqueue(issueID: issue.id)
        XCTAssertTrue(first.events.wait { $0.contains { if case .progressed = $0 { true } else { false } } })
        XCTAssertTrue(FileManager.default.fileExists(atPath: paths.downloadLockFile(issueID: issue.id).path))

        second.queue.enqueue(issueID: issue.id)
        XCTAssertTrue(second.events.wait(timeout: 5) { $0.contains(.waiting(issueID: self.issue.id, reason: DownloadQueue.lockedElsewhereReason)) })
        XCTAssertEqual(second.queue.pendingIssueIDs, [issue.id], "the waiting issue keeps the queue busy")
        Thread.sleep(forTimeInterval: 0.5)
        XCTAssertFalse(second.events(of: issue.id).contains { if case .started = $0 { true } else { false } }, "the second never starts meanwhile")
        XCTAssertEqual(getRequests.count, 0, "the first transfer is still running (requests are logged when they end), and no other")

        server.bytesPerSecond = nil
        XCTAssertTrue(first.queue.waitUntilIdle(timeout: 30))
        XCTAssertTrue(second.queue.waitUntilIdle(timeout: 10), "the second finishes waiting once the first is done")
        XCTAssertEqual(second.events(of: issue.id).last, .installed(issueID: issue.id), "it finds the issue installed by the first")
        XCTAssertEqual(getRequests.count, 1, "and never fetches it itself")
        XCTAssertEqual(try first.store.issue(id: issue.id)?.state, .available)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: paths.partialDownloadsDirectory.path), [], "no partial or lock file is left")
    }

    func testWhenTheFirstPausesTheSecondTakesOverFromThePartialWithARange() throws {
        let first = try downloader(), second = try downloader()
        server.bytesPerSecond = 40_000
        first.queue.enqueue(issueID: issue.id)
        XCTAssertTrue(first.events.wait { $0.contains { if case .progressed(_, let fraction, _, _, _) = $0 { fraction > 0.1 } else { false } } })
        second.queue.enqueue(issueID: issue.id)
        XCTAssertTrue(second.events.wait(timeout: 5) { $0.contains { if case .waiting = $0 { true } else { false } } })

        server.bytesPerSecond = nil
        first.queue.pause(issueID: issue.id)
        XCTAssertTrue(first.queue.waitUntilIdle(timeout: 5))
        XCTAssertTrue(second.queue.waitUntilIdle(timeout: 30))
        let events = second.events(of: issue.id)
        XCTAssertEqual(events.last, .installed(issueID: issue.id))
        let resumedAt = events.compactMap { if case .started(_, let resumedAt) = $0 { resumedAt } else { nil } }.first
        XCTAssertGreaterThan(resumedAt ?? 0, 0.05, "the second continues from what the first left")
        XCTAssertEqual(getRequests.count, 2)
        XCTAssertEqual(getRequests.last?.status, 206, "with a Range request")
    }

    func testCancellingAnIssueAnotherProcessHoldsKeepsItsPartial() throws {
        let first = try downloader(), second = try downloader()
        server.bytesPerSecond = 40_000
        first.queue.enqueue(issueID: issue.id)
        XCTAssertTrue(first.events.wait { $0.contains { if case .progressed = $0 { true } else { false } } })
        second.queue.enqueue(issueID: issue.id)
        XCTAssertTrue(second.events.wait(timeout: 5) { $0.contains { if case .waiting = $0 { true } else { false } } })
        second.queue.cancel(issueID: issue.id)
        XCTAssertTrue(second.events.wait(timeout: 5) { $0.contains(.cancelled(issueID: self.issue.id)) })
        XCTAssertTrue(second.queue.waitUntilIdle(timeout: 5))
        XCTAssertGreaterThan(PartialDownload.size(of: paths.partialFile(issueID: issue.id, asset: 0)), 0,
                             "the other process's partial download is not removed under it")
        server.bytesPerSecond = nil
        XCTAssertTrue(first.queue.waitUntilIdle(timeout: 30))
        XCTAssertTrue(first.events(of: issue.id).last == .installed(issueID: issue.id))
    }
}
