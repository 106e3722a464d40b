import Foundation
import XCTest
@testable import NewsstandCore
import LocalHTTPServer
import Synchronization

final class DownloadQueueTests: XCTestCase {
    private typealias Harness = DownloadHarness

    /// Retries after a few milliseconds, so tests of backoff stay fast.
    static let quickRetries = DownloadHarness.quickRetries

    private func makeHarness(maxConcurrent: Int = 3, policy: DownloadPolicy = DownloadQueueTests.quickRetries,
                             freeSpace: @escaping @Sendable (URL) -> Int64? = { _ in nil }, diskSync: DiskSync = .fsync,
                             also: @escaping @Sendable (DownloadEvent) -> Void = { _ in }) throws -> Harness {
        var policy = policy
        policy.maxConcurrent = maxConcurrent
        return try DownloadHarness.make(for: self, policy: policy, freeSpace: freeSpace, diskSync: diskSync, also: also)
    }

    private func sampleFacts(_ name: String) throws -> (size: Int64, sha256: String) {
        let url = TestSupport.sampleIssue(name)
        return (try XCTUnwrap(FileSize.of(url)), try SHA256Digest.hexDigest(ofFile: url))
    }

    private func assertFailed(_ event: DownloadEvent?, mentioningAnyOf words: [String], file: StaticString = #filePath, line: UInt = #line) {
        guard case .failed(_, let reason)? = event else {
            return XCTFail("expected a failure, got \(String(describing: event))", file: file, line: line)
        }
        XCTAssertTrue(words.contains { reason.localizedCaseInsensitiveContains($0) }, "'\(reason)' should mention one of \(words)", file: file, line: line)
    }

    /// Nothing of a failed issue is left: no partial file, no issue folder, no staging folders.
    private func assertNothingInstalled(_ harness: Harness, _ issue: Issue, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertFalse(FileManager.default.fileExists(atPath: harness.folder(of: issue).path), "no issue folder", file: file, line: line)
        XCTAssertEqual(harness.partials, [], "no partial files", file: file, line: line)
        XCTAssertTrue(harness.installedItems.allSatisfy { !$0.contains(".staging-") && !$0.contains(".previous-") },
                      "\(harness.installedItems)", file: file, line: line)
    }

    // MARK: Success

    func testThrottledDownloadReportsProgressAndInstalls() throws {
        let harness = try makeHarness()
        let facts = try sampleFacts("2025-autumn")
        let url = try harness.serve(sample: "2025-autumn", as: "autumn.epub")
        let issue = try harness.addIssue("2025-autumn", content: [url], size: facts.size, sha256: facts.sha256)
        harness.server.bytesPerSecond = 150_000

        harness.queue.enqueue(issueID: issue.id)
        XCTAssertEqual(harness.outcome(of: issue.id), .installed(issueID: issue.id))

        let events = harness.events(of: issue.id)
        XCTAssertEqual(Array(events.prefix(2)), [.queued(issueID: issue.id, position: 1), .started(issueID: issue.id, resumedAt: nil)])
        XCTAssertEqual(events.last, .installed(issueID: issue.id))
        let progress = harness.progress(of: issue.id)
        XCTAssertGreaterThanOrEqual(progress.count, 3, "a throttled download reports several steps")
        for (earlier, later) in zip(progress, progress.dropFirst()) {
            XCTAssertLessThanOrEqual(earlier.fraction, later.fraction)
            XCTAssertLessThanOrEqual(earlier.received, later.received)
        }
        XCTAssertTrue(progress.allSatisfy { $0.fraction >= 0 && $0.fraction < 1 && $0.total == facts.size })
        XCTAssertLessThan(progress.first!.fraction, progress.last!.fraction)

        let folder = harness.folder(of: issue)
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.appendingPathComponent("META-INF/container.xml").path))
        XCTAssertFalse(try IssueContent.openBook(folder: folder).articles.isEmpty)
        let stored = try XCTUnwrap(try harness.store.issue(id: issue.id))
        XCTAssertEqual(stored.state, .available)
        XCTAssertEqual(stored.progress, 1)
        XCTAssertEqual(harness.partials, [], "the partial file is removed once installed")
        XCTAssertEqual(harness.server.settledLog().filter { $0.path == "/autumn.epub" }.map(\.status), [200])
    }

    func testACBZIssueDownloadsFromTheServerInstallsAndOpensAsABookOfPages() throws {
        let harness = try makeHarness()
        let archive = harness.www.appendingPathComponent("comic.cbz")
        try ComicBookFixture.write(archive, pages: ["page10.png", "page2.png", "page1.png"],
                                   extra: [ComicBookFixture.comicInfo(title: "Lights", pages: [(0, "FrontCover", nil)]), .file("scan.nfo", Data("x".utf8))])
        let issue = try harness.addIssue("comic", content: [harness.server.url(for: "/comic.cbz")], size: try XCTUnwrap(FileSize.of(archive)))

        harness.queue.enqueue(issueID: issue.id)
        XCTAssertEqual(harness.outcome(of: issue.id), .installed(issueID: issue.id))
        let book = try IssueContent.openBook(folder: harness.folder(of: issue))
        XCTAssertTrue(book.isComicBook)
        XCTAssertEqual(book.title, "Lights")
        XCTAssertEqual(book.articles.map(\.title), ["Page 1: Front cover", "Page 2", "Page 3"])
        XCTAssertEqual(book.articles.map(\.file.lastPathComponent), ["page1.png", "page2.png", "page10.png"])
        XCTAssertEqual(try XCTUnwrap(try harness.store.issue(id: issue.id)).state, .available)
        XCTAssertEqual(harness.partials, [])
        XCTAssertEqual(harness.server.settledLog().filter { $0.path == "/comic.cbz" }.map(\.status), [200])
    }

    func testAHostileCBZFailsAndLeavesNothingInstalled() throws {
        let harness = try makeHarness()
        try ComicBookFixture.write(harness.www.appendingPathComponent("evil.cbz"), pages: ["001.png"], extra: [.file("../../evil.png", Data("x".utf8))])
        let issue = try harness.addIssue("evil", content: [harness.server.url(for: "/evil.cbz")])

        harness.queue.enqueue(issueID: issue.id)
        assertFailed(harness.outcome(of: issue.id), mentioningAnyOf: ["would escape the issue folder"])
        assertNothingInstalled(harness, issue)
        XCTAssertFalse(TestFiles.listing(of: harness.paths.issuesDirectory.deletingLastPathComponent()).contains { $0.hasSuffix("evil.png") })
    }

    func testFastDownloadProgressEventsAreThrottled() throws {
        let harness = try makeHarness()
        let size = 20 << 20
        var data = Data("%PDF-1.4\n".utf8)
        data.append(Data(repeating: 0x41, count: size - data.count))
        try data.write(to: harness.www.appendingPathComponent("big.pdf"))
        let issue = try harness.addIssue("big", content: [harness.server.url(for: "/big.pdf")], size: Int64(size))

        harness.queue.enqueue(issueID: issue.id)
        XCTAssertEqual(harness.outcome(of: issue.id, timeout: 60), .installed(issueID: issue.id))
        let progress = harness.progress(of: issue.id)
        XCTAssertGreaterThan(progress.count, 0)
        // 20 MB arrives in well over a thousand pieces; half-percent steps allow about 200 reports.
        XCTAssertLessThan(progress.count, 250, "progress must be throttled at the source")
        XCTAssertEqual(FileSize.of(harness.folder(of: issue).appendingPathComponent("big.pdf")), Int64(size))
    }

    func testSeveralDownloadsRunAtOnceUpToTheLimitAndTheRestWait() throws {
        let harness = try makeHarness(maxConcurrent: 2)
        var issues: [Issue] = []
        for (index, sample) in ["2025-autumn", "2025-spring", "2025-summer", "2026-spring"].enumerated() {
            let url = try harness.serve(sample: sample, as: "issue-\(index).epub")
            issues.append(try harness.addIssue("issue-\(index)", content: [url]))
        }
        harness.server.bytesPerSecond = 120_000
        for issue in issues { harness.queue.enqueue(issueID: issue.id) }

        let ids = Set(issues.map(\.id))
        XCTAssertTrue(harness.events.wait(timeout: 60) { events in ids.allSatisfy { id in events.contains { $0.issueID == id && $0.isTerminal } } })
        for issue in issues {
            XCTAssertEqual(harness.events(of: issue.id).last, .installed(issueID: issue.id))
            XCTAssertEqual(try harness.store.issue(id: issue.id)?.state, .available)
        }

        // Replay the events: an issue is transferring from its first progress report until it finishes.
        var transferring: Set<Int64> = []
        var finished: Set<Int64> = []
        var mostAtOnce = 0
        for event in harness.events.all {
            switch event {
            case .progressed(let id, _, _, _, _) where !finished.contains(id): transferring.insert(id)
            case .installed(let id), .failed(let id, _):
                transferring.remove(id)
                finished.insert(id)
            default: break
            }
            mostAtOnce = max(mostAtOnce, transferring.count)
        }
        XCTAssertEqual(mostAtOnce, 2, "two transfers overlap, never more")
        // The server saw each issue exactly once.
        XCTAssertEqual(harness.server.settledLog().map(\.path).sorted(), (0..<4).map { "/issue-\($0).epub" })
        XCTAssertEqual(harness.partials, [])
    }

    func testFileURLsWork() throws {
        let harness = try makeHarness()
        let facts = try sampleFacts("2026-spring")
        let issue = try harness.addLocalIssue("local", content: [TestSupport.sampleIssue("2026-spring")], size: facts.size, sha256: facts.sha256)
        harness.queue.enqueue(issueID: issue.id)
        XCTAssertEqual(harness.outcome(of: issue.id), .installed(issueID: issue.id))
        XCTAssertTrue(FileManager.default.fileExists(atPath: harness.folder(of: issue).appendingPathComponent("META-INF/container.xml").path))
        XCTAssertTrue(FileManager.default.fileExists(atPath: TestSupport.sampleIssue("2026-spring").path), "the source is left alone")
        XCTAssertEqual(harness.server.requestLog, [])
    }

    func testMultiAssetContentInstallsEveryAsset() throws {
        let harness = try makeHarness()
        let epub = try harness.serve(sample: "2025-autumn", as: "issue.epub")
        let pdfData = Data("%PDF-1.4\n% supplement\n".utf8) + TestFiles.pseudoRandomData(count: 30_000)
        try pdfData.write(to: harness.www.appendingPathComponent("supplement.pdf"))
        let epubSize = try XCTUnwrap(FileSize.of(TestSupport.sampleIssue("2025-autumn")))
        let issue = try harness.addIssue("two-parts", content: [epub, harness.server.url(for: "/supplement.pdf")],
                                         size: epubSize + Int64(pdfData.count))
        harness.queue.enqueue(issueID: issue.id)
        XCTAssertEqual(harness.outcome(of: issue.id), .installed(issueID: issue.id))
        let folder = harness.folder(of: issue)
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.appendingPathComponent("META-INF/container.xml").path))
        XCTAssertEqual(FileManager.default.contents(atPath: folder.appendingPathComponent("supplement.pdf").path), pdfData)
        XCTAssertEqual(Set(harness.server.settledLog().map(\.path)), ["/issue.epub", "/supplement.pdf"])
        XCTAssertEqual(harness.partials, [])
        let fractions = harness.progress(of: issue.id).map(\.fraction)
        XCTAssertEqual(fractions, fractions.sorted(), "progress runs over both assets without going back")
    }

    func testResumeInterruptedDownloads() throws {
        let harness = try makeHarness()
        let url = try harness.serve(sample: "2025-autumn", as: "a.epub")
        let issue = try harness.addIssue("interrupted", content: [url])
        let untouched = try harness.addIssue("untouched", content: [url])
        try harness.store.setState(.downloading, issueID: issue.id, progress: 0.3)
        harness.queue.resumeInterrupted()
        XCTAssertEqual(harness.outcome(of: issue.id), .installed(issueID: issue.id))
        XCTAssertTrue(harness.queue.waitUntilIdle(timeout: 10))
        XCTAssertEqual(harness.events(of: untouched.id), [])
        XCTAssertEqual(try harness.store.interruptedDownloads(), [])
    }

    // MARK: Failures

    func testNotFoundFailsWithTheStatus() throws {
        let harness = try makeHarness()
        let issue = try harness.addIssue("missing", content: [harness.server.url(for: "/missing.epub")])
        harness.queue.enqueue(issueID: issue.id)
        let outcome = harness.outcome(of: issue.id)
        assertFailed(outcome, mentioningAnyOf: ["404"])
        guard case .failed(_, let reason)? = outcome else { return }
        XCTAssertEqual(try harness.store.issue(id: issue.id)?.state, .failed(reason: reason), "the store keeps the same reason")
        assertNothingInstalled(harness, issue)
    }

    func testHTMLErrorPageWithStatus200IsRejected() throws {
        let harness = try makeHarness()
        let issue = try harness.addIssue("portal", content: [try harness.serve(sample: "2025-autumn", as: "p.epub")])
        harness.server.faults = { var plan = FaultPlan(); plan.htmlErrorPageWith200 = true; return plan }()
        harness.queue.enqueue(issueID: issue.id)
        assertFailed(harness.outcome(of: issue.id), mentioningAnyOf: ["web page", "html"])
        XCTAssertNotEqual(try harness.store.issue(id: issue.id)?.state, .available)
        assertNothingInstalled(harness, issue)
    }

    func testWrongContentLengthFailsAfterItsAttempts() throws {
        let harness = try makeHarness(policy: DownloadPolicy(maxAttempts: 3, backoffBase: 0.01, backoffCap: 0.02))
        let issue = try harness.addIssue("short", content: [try harness.serve(sample: "2025-autumn", as: "s.epub")])
        harness.server.faults = { var plan = FaultPlan(); plan.wrongContentLength = true; return plan }()
        harness.queue.enqueue(issueID: issue.id)
        assertFailed(harness.outcome(of: issue.id), mentioningAnyOf: ["stopped early", "connection", "does not fit", "416"])
        XCTAssertTrue(harness.queue.waitUntilIdle(timeout: 10))
        XCTAssertEqual(harness.events(of: issue.id).filter { if case .retrying = $0 { true } else { false } }.count, 2)
        XCTAssertFalse(FileManager.default.fileExists(atPath: harness.folder(of: issue).path))
        XCTAssertNotEqual(try harness.store.issue(id: issue.id)?.state, .available)
    }

    func testSizeMismatchWithTheCatalogFails() throws {
        let harness = try makeHarness()
        let facts = try sampleFacts("2025-autumn")
        let issue = try harness.addIssue("wrong-size", content: [try harness.serve(sample: "2025-autumn", as: "w.epub")],
                                         size: facts.size + 1, sha256: facts.sha256)
        harness.queue.enqueue(issueID: issue.id)
        assertFailed(harness.outcome(of: issue.id), mentioningAnyOf: ["catalog says"])
        assertNothingInstalled(harness, issue)
    }

    func testDigestMismatchWithTheCatalogFails() throws {
        let harness = try makeHarness()
        let facts = try sampleFacts("2025-autumn")
        let issue = try harness.addIssue("wrong-digest", content: [try harness.serve(sample: "2025-autumn", as: "w.epub")],
                                         size: facts.size, sha256: String(facts.sha256.reversed()))
        harness.queue.enqueue(issueID: issue.id)
        assertFailed(harness.outcome(of: issue.id), mentioningAnyOf: ["damaged"])
        assertNothingInstalled(harness, issue)
        XCTAssertNotEqual(try harness.store.issue(id: issue.id)?.state, .available)
    }

    func testRedownloadAfterFailureSucceeds() throws {
        let harness = try makeHarness()
        let issue = try harness.addIssue("retry", content: [try harness.serve(sample: "2025-autumn", as: "r.epub")])
        harness.server.faults = { var plan = FaultPlan(); plan.failFirstRequests = (1, 403, nil); return plan }()
        harness.queue.enqueue(issueID: issue.id)
        assertFailed(harness.outcome(of: issue.id), mentioningAnyOf: ["403"])
        XCTAssertTrue(harness.queue.waitUntilIdle(timeout: 10))

        harness.queue.enqueue(issueID: issue.id)
        XCTAssertTrue(harness.events.wait { $0.contains(.installed(issueID: issue.id)) })
        XCTAssertEqual(try harness.store.issue(id: issue.id)?.state, .available)
        XCTAssertTrue(FileManager.default.fileExists(atPath: harness.folder(of: issue).appendingPathComponent("META-INF/container.xml").path))
        XCTAssertEqual(harness.server.settledLog().map(\.status), [403, 200])
    }

    func testCancelReturnsTheIssueToNotDownloadedAndRemovesThePartial() throws {
        let harness = try makeHarness()
        let issue = try harness.addIssue("cancelled", content: [try harness.serve(sample: "2025-winter", as: "c.epub")])
        harness.server.bytesPerSecond = 20_000 // about five seconds for the whole file
        harness.queue.enqueue(issueID: issue.id)
        XCTAssertTrue(harness.events.wait { $0.contains { if case .progressed(issue.id, _, _, _, _) = $0 { true } else { false } } })
        XCTAssertTrue(FileManager.default.fileExists(atPath: harness.paths.partialFile(issueID: issue.id, asset: 0).path),
                      "a partial file exists while transferring")

        harness.queue.cancel(issueID: issue.id)
        XCTAssertTrue(harness.queue.waitUntilIdle(timeout: 10))
        XCTAssertEqual(harness.queue.pendingIssueIDs, [])
        XCTAssertEqual(try harness.store.issue(id: issue.id)?.state, .notDownloaded)
        XCTAssertEqual(try harness.store.issue(id: issue.id)?.progress, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: harness.paths.partialFile(issueID: issue.id, asset: 0).path))
        assertNothingInstalled(harness, issue)
        XCTAssertFalse(harness.events(of: issue.id).contains(.installed(issueID: issue.id)))
        XCTAssertEqual(harness.events(of: issue.id).last, .cancelled(issueID: issue.id))
        XCTAssertFalse(harness.events(of: issue.id).contains { if case .failed = $0 { true } else { false } })

        // And it can be downloaded again afterwards.
        harness.server.bytesPerSecond = nil
        harness.queue.enqueue(issueID: issue.id)
        XCTAssertTrue(harness.events.wait { $0.contains(.installed(issueID: issue.id)) })
        XCTAssertEqual(try harness.store.issue(id: issue.id)?.state, .available)
    }

    func testCancellingAWaitingIssueLeavesTheOthersRunning() throws {
        let harness = try makeHarness(maxConcurrent: 1)
        let first = try harness.addIssue("first", content: [try harness.serve(sample: "2025-autumn", as: "1.epub")])
        let second = try harness.addIssue("second", content: [try harness.serve(sample: "2025-spring", as: "2.epub")])
        harness.server.bytesPerSecond = 100_000
        harness.queue.enqueue(issueID: first.id)
        harness.queue.enqueue(issueID: second.id)
        harness.queue.cancel(issueID: second.id)
        XCTAssertEqual(harness.outcome(of: first.id), .installed(issueID: first.id))
        XCTAssertTrue(harness.queue.waitUntilIdle(timeout: 10))
        XCTAssertEqual(try harness.store.issue(id: second.id)?.state, .notDownloaded)
        XCTAssertFalse(harness.server.requestLog.contains { $0.path == "/2.epub" })
    }

    func testEnqueueingTwiceDownloadsOnceAndAvailableIssuesAreLeftAlone() throws {
        let harness = try makeHarness()
        let issue = try harness.addIssue("once", content: [try harness.serve(sample: "2025-autumn", as: "o.epub")])
        harness.server.bytesPerSecond = 200_000
        harness.queue.enqueue(issueID: issue.id)
        harness.queue.enqueue(issueID: issue.id)
        XCTAssertEqual(harness.outcome(of: issue.id), .installed(issueID: issue.id))
        XCTAssertTrue(harness.queue.waitUntilIdle(timeout: 10))
        XCTAssertEqual(harness.events(of: issue.id).filter { $0 == .queued(issueID: issue.id, position: 1) }.count, 1)

        harness.queue.enqueue(issueID: issue.id)
        XCTAssertTrue(harness.queue.waitUntilIdle(timeout: 10))
        XCTAssertEqual(harness.server.requestLog.count, 1, "an available issue is not fetched again")
        XCTAssertEqual(try harness.store.issue(id: issue.id)?.state, .available)
    }

    func testRaisingTheLimitStartsWaitingDownloads() throws {
        let harness = try makeHarness(maxConcurrent: 1)
        let issues = try (0..<3).map { index in
            try harness.addIssue("w\(index)", content: [try harness.serve(sample: "2025-autumn", as: "w\(index).epub")])
        }
        harness.server.bytesPerSecond = 30_000 // each takes well over a second
        issues.forEach { harness.queue.enqueue(issueID: $0.id) }
        XCTAssertTrue(harness.events.wait { $0.contains { if case .progressed = $0 { true } else { false } } })
        XCTAssertEqual(Set(harness.events.all.compactMap { if case .progressed(let id, _, _, _, _) = $0 { id } else { nil } }).count, 1)
        XCTAssertEqual(harness.queue.pendingIssueIDs, Set(issues.map(\.id)))

        harness.queue.setMaxConcurrent(3)
        XCTAssertTrue(harness.events.wait { events in
            Set(events.compactMap { if case .progressed(let id, _, _, _, _) = $0 { id } else { nil } }).count == 3
        }, "the waiting downloads start without waiting for the first to finish")
        XCTAssertFalse(harness.events.all.contains { $0.isTerminal })
        harness.server.bytesPerSecond = nil
        XCTAssertTrue(harness.queue.waitUntilIdle(timeout: 30))
        XCTAssertTrue(issues.allSatisfy { harness.events(of: $0.id).last == .installed(issueID: $0.id) })
    }
}

// MARK: - Resuming, retrying, pausing, ordering, limits

extension DownloadQueueTests {
    /// `bytes=N-` → N.
    private func rangeStart(_ record: RequestRecord) -> Int? {
        guard let range = record.range, range.hasPrefix("bytes="), range.hasSuffix("-") else { return nil }
        return Int(range.dropFirst(6).dropLast())
    }

    func testDroppedConnectionResumesWithARangeAndInstallsTheSameBytes() throws {
        let harness = try makeHarness()
        let facts = try sampleFacts("2025-winter")
        let url = try harness.serve(sample: "2025-winter", as: "d.epub")
        let issue = try harness.addIssue("dropped", content: [url], size: facts.size, sha256: facts.sha256)
        harness.server.faults = { var plan = FaultPlan(); plan.dropConnectionAfterBytes = 20_000; return plan }()
        harness.queue.enqueue(issueID: issue.id)
        XCTAssertEqual(harness.outcome(of: issue.id), .installed(issueID: issue.id), "\(harness.events(of: issue.id))")

        let log = harness.requests("/d.epub")
        XCTAssertEqual(log.map(\.status), [200, 206])
        XCTAssertEqual(log.first?.bodyBytesSent, 20_000, "the fault really cut the body short")
        XCTAssertNil(log.first?.range)
        XCTAssertEqual(log.last.flatMap(rangeStart), 20_000, "the second request continues where the first stopped")
        XCTAssertNotNil(log.last?.headers["if-range"], "and is conditional on the same representation")
        XCTAssertEqual(log.last?.bodyBytesSent, Int(facts.size) - 20_000, "only the rest is fetched")
        XCTAssertEqual(harness.retries(of: issue.id).map(\.attempt), [2])
        // The catalog's SHA-256 was checked before installing: the appended file is byte for byte the original.
        XCTAssertEqual(try harness.store.issue(id: issue.id)?.state, .available)
        XCTAssertEqual(harness.partials, [])
        let received = harness.progress(of: issue.id).map(\.received)
        XCTAssertEqual(received, received.sorted(), "progress counts the bytes on disk and never goes back")
    }

    func testAFileThatChangedBetweenAttemptsIsFetchedAgainFromZero() throws {
        let old = try Data(contentsOf: TestSupport.sampleIssue("2025-winter"))
        let new = try Data(contentsOf: TestSupport.sampleIssue("2025-spring"))
        let newFacts = try sampleFacts("2025-spring")
        let box = ServerBox()
        let harness = try makeHarness(also: { event in
            // The publisher replaces the file while the download waits to retry (a new ETag).
            if case .retrying = event { box.server?.setResource("/changing.epub", data: new, contentType: "application/epub+zip") }
        })
        box.server = harness.server
        harness.server.setResource("/changing.epub", data: old, contentType: "application/epub+zip")
        let issue = try harness.addIssue("changing", content: [harness.server.url(for: "/changing.epub")], sha256: newFacts.sha256)
        harness.server.faults = { var plan = FaultPlan(); plan.dropConnectionAfterBytes = 30_000; return plan }()
        harness.queue.enqueue(issueID: issue.id)
        XCTAssertEqual(harness.outcome(of: issue.id), .installed(issueID: issue.id), "\(harness.events(of: issue.id))")

        let log = harness.requests("/changing.epub")
        XCTAssertEqual(log.map(\.status), [200, 200], "If-Range with the old ETag gets the whole new file")
        XCTAssertEqual(log.last.flatMap(rangeStart), 30_000)
        XCTAssertEqual(log.last?.bodyBytesSent, new.count)
        // Installed only because the SHA-256 of the new file matched: nothing of the old file was kept.
        XCTAssertEqual(try harness.store.issue(id: issue.id)?.state, .available)
    }

    func testAServerThatIgnoresRangeRestartsFromZeroAndStillInstalls() throws {
        let harness = try makeHarness()
        let facts = try sampleFacts("2025-winter")
        let issue = try harness.addIssue("no-ranges", content: [try harness.serve(sample: "2025-winter", as: "n.epub")],
                                         size: facts.size, sha256: facts.sha256)
        harness.server.faults = { var plan = FaultPlan(); plan.dropConnectionAfterBytes = 25_000; plan.ignoreRange = true; return plan }()
        harness.queue.enqueue(issueID: issue.id)
        XCTAssertEqual(harness.outcome(of: issue.id), .installed(issueID: issue.id), "\(harness.events(of: issue.id))")
        let log = harness.requests("/n.epub")
        XCTAssertEqual(log.map(\.status), [200, 200])
        XCTAssertEqual(log.last.flatMap(rangeStart), 25_000, "a range was asked for")
        XCTAssertEqual(log.last?.bodyBytesSent, Int(facts.size), "and the whole file came back")
        XCTAssertEqual(try harness.store.issue(id: issue.id)?.state, .available)
    }

    /// An interrupted download whose partial already holds every byte of `2025-autumn` served as `name`
    /// with ETag v1, its sidecar giving `storedLength`; resumed as at start-up and awaited.
    private func resumeACompletePartial(_ name: String, storedLength: Int64?) throws -> (harness: Harness, issue: Issue, size: Int) {
        let harness = try makeHarness()
        let facts = try sampleFacts("2025-autumn")
        let data = try Data(contentsOf: TestSupport.sampleIssue("2025-autumn"))
        harness.server.setResource("/" + name, data: data, contentType: "application/epub+zip", etag: "v1")
        let url = harness.server.url(for: "/" + name)
        let issue = try harness.addIssue(name, content: [url], size: facts.size, sha256: facts.sha256)
        let partial = harness.paths.partialFile(issueID: issue.id, asset: 0)
        try PartialDownload.write(PartialMetadata(url: url.absoluteString, validator: "\"v1\"", length: storedLength), of: partial)
        try data.write(to: partial)
        try harness.store.setState(.downloading, issueID: issue.id, progress: 0.99)
        harness.queue.resumeInterrupted()
        XCTAssertEqual(harness.outcome(of: issue.id), .installed(issueID: issue.id), "\(harness.events(of: issue.id))")
        return (harness, issue, data.count)
    }

    func testA416ForACompletePartialFinishesWithoutFetchingAgain() throws {
        // A previous run got every byte, then stopped before installing.
        let (harness, issue, size) = try resumeACompletePartial("complete.epub", storedLength: try sampleFacts("2025-autumn").size)
        let log = harness.requests("/complete.epub")
        XCTAssertEqual(log.map(\.status), [416])
        XCTAssertEqual(log.first.flatMap(rangeStart), size)
        guard case .started(_, let resumedAt?)? = harness.events(of: issue.id).first(where: { if case .started = $0 { true } else { false } }) else {
            return XCTFail("expected a resumed start: \(harness.events(of: issue.id))")
        }
        XCTAssertGreaterThan(resumedAt, 0.99)
        XCTAssertEqual(harness.partials, [])
    }

    func testFileURLsResumeByOffset() throws {
        let harness = try makeHarness()
        let source = TestSupport.sampleIssue("2025-winter")
        let facts = try sampleFacts("2025-winter")
        let issue = try harness.addLocalIssue("local-resume", content: [source], size: facts.size, sha256: facts.sha256)
        let attributes = try FileManager.default.attributesOfItem(atPath: source.path)
        let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        let partial = harness.paths.partialFile(issueID: issue.id, asset: 0)
        try PartialDownload.write(PartialMetadata(url: source.absoluteString, validator: "\(facts.size)-\(modified)", length: facts.size), of: partial)
        try Data(try Data(contentsOf: source).prefix(Int(facts.size) / 2)).write(to: partial)
        harness.queue.enqueue(issueID: issue.id)
        XCTAssertEqual(harness.outcome(of: issue.id), .installed(issueID: issue.id), "\(harness.events(of: issue.id))")
        guard case .started(_, let resumedAt?)? = harness.events(of: issue.id).first(where: { if case .started = $0 { true } else { false } }) else {
            return XCTFail("expected a resumed start")
        }
        XCTAssertEqual(resumedAt, 0.5, accuracy: 0.01)
        XCTAssertGreaterThanOrEqual(harness.progress(of: issue.id).first?.received ?? 0, facts.size / 2, "the first half was not copied again")
    }

    func testTwoServerErrorsAreRetriedWithBackoffThenItInstalls() throws {
        let harness = try makeHarness()
        let issue = try harness.addIssue("flaky", content: [try harness.serve(sample: "2025-autumn", as: "f.epub")])
        harness.server.faults = { var plan = FaultPlan(); plan.failFirstRequests = (2, 503, nil); return plan }()
        harness.queue.enqueue(issueID: issue.id)
        XCTAssertEqual(harness.outcome(of: issue.id), .installed(issueID: issue.id))
        XCTAssertEqual(harness.requests("/f.epub").map(\.status), [503, 503, 200])
        let retries = harness.retries(of: issue.id)
        XCTAssertEqual(retries.map(\.attempt), [2, 3])
        XCTAssertTrue(retries.allSatisfy { $0.delay >= 0 && $0.delay <= 0.05 }, "full jitter under the cap: \(retries.map(\.delay))")
        XCTAssertTrue(retries.allSatisfy { $0.reason.contains("503") })
    }

    func testBackoffGrowsExponentiallyWithFullJitterUnderTheCap() {
        let policy = DownloadPolicy(backoffBase: 1, backoffCap: 60)
        XCTAssertEqual(policy.backoff(afterFailures: 1, retryAfter: nil, random: 1), 1)
        XCTAssertEqual(policy.backoff(afterFailures: 3, retryAfter: nil, random: 1), 4)
        XCTAssertEqual(policy.backoff(afterFailures: 10, retryAfter: nil, random: 1), 60)
        XCTAssertEqual(policy.backoff(afterFailures: 3, retryAfter: nil, random: 0.5), 2)
        XCTAssertEqual(policy.backoff(afterFailures: 1, retryAfter: 7, random: 0.1), 7, "Retry-After wins over a shorter backoff")
        XCTAssertEqual(TransferFailure.retryAfter("120"), 120)
        let date = TransferFailure.retryAfter("Wed, 21 Oct 2015 07:28:00 GMT", now: Date(timeIntervalSince1970: 1_445_412_470))
        XCTAssertEqual(date ?? -1, 10, accuracy: 0.5, "an HTTP-date counts from now")
    }

    func testTooManyRequestsHonoursRetryAfter() throws {
        let harness = try makeHarness()
        let issue = try harness.addIssue("busy", content: [try harness.serve(sample: "2025-autumn", as: "b.epub")])
        harness.server.faults = { var plan = FaultPlan(); plan.failFirstRequests = (1, 429, 1); return plan }()
        harness.queue.enqueue(issueID: issue.id)
        XCTAssertEqual(harness.outcome(of: issue.id), .installed(issueID: issue.id))
        let retries = harness.retries(of: issue.id)
        XCTAssertEqual(retries.count, 1)
        XCTAssertGreaterThanOrEqual(retries.first?.delay ?? 0, 1, "Retry-After: 1 beats the 50 ms backoff cap")
        XCTAssertTrue(retries.first?.reason.contains("429") ?? false)
        XCTAssertEqual(harness.requests("/b.epub").map(\.status), [429, 200])
    }

    func testRefusedAndGoneFailAtOnceWithoutRetrying() throws {
        let harness = try makeHarness()
        let url = try harness.serve(sample: "2025-autumn", as: "x.epub")
        let cases: [(status: Int, reason: String)] = [
            (403, "the server refused access (403 Forbidden)"),
            (401, "the server refused access (401 Unauthorized)"),
            (410, "the issue is no longer on the server (410 Gone)"),
            (404, "the issue is no longer on the server (404 Not Found)"),
        ]
        for (index, (status, reason)) in cases.enumerated() {
            let issue = try harness.addIssue("refused-\(index)", content: [status == 404 ? harness.server.url(for: "/missing.epub") : url])
            harness.server.clearLog()
            harness.server.faults = { var plan = FaultPlan(); if status != 404 { plan.failFirstRequests = (5, status, nil) }; return plan }()
            harness.queue.enqueue(issueID: issue.id)
            XCTAssertEqual(harness.outcome(of: issue.id), .failed(issueID: issue.id, reason: reason))
            XCTAssertTrue(harness.queue.waitUntilIdle(timeout: 10))
            // The server records a request just after answering it: wait for the record, then count.
            XCTAssertEqual(harness.server.log(atLeast: 1).count, 1, "\(status): one request, no retry")
            XCTAssertEqual(harness.retries(of: issue.id).count, 0)
            XCTAssertEqual(try harness.store.issue(id: issue.id)?.state, .failed(reason: reason))
        }
    }

    func testRunningOutOfAttemptsFailsWithTheLastReason() throws {
        let harness = try makeHarness(policy: DownloadPolicy(maxAttempts: 3, backoffBase: 0.01, backoffCap: 0.02))
        let issue = try harness.addIssue("down", content: [try harness.serve(sample: "2025-autumn", as: "down.epub")])
        harness.server.faults = { var plan = FaultPlan(); plan.failFirstRequests = (10, 502, nil); return plan }()
        harness.queue.enqueue(issueID: issue.id)
        XCTAssertEqual(harness.outcome(of: issue.id), .failed(issueID: issue.id, reason: "127.0.0.1 answered 502 Bad Gateway"))
        XCTAssertEqual(harness.requests("/down.epub").map(\.status), [502, 502, 502])
        XCTAssertEqual(harness.retries(of: issue.id).map(\.attempt), [2, 3])
        XCTAssertEqual(try harness.store.issue(id: issue.id)?.state, .failed(reason: "127.0.0.1 answered 502 Bad Gateway"))
    }

    func testPauseKeepsThePartialAndIsNotResumedByItselfThenResumeContinuesWithARange() throws {
        let harness = try makeHarness()
        let facts = try sampleFacts("2025-winter")
        let issue = try harness.addIssue("paused", content: [try harness.serve(sample: "2025-winter", as: "p.epub")],
                                         size: facts.size, sha256: facts.sha256)
        harness.server.bytesPerSecond = 40_000
        harness.queue.enqueue(issueID: issue.id)
        XCTAssertTrue(harness.events.wait { $0.contains { if case .progressed(issue.id, let fraction, _, _, _) = $0 { fraction > 0.2 } else { false } } })
        harness.queue.pause(issueID: issue.id)
        XCTAssertTrue(harness.events.wait { $0.contains(.paused(issueID: issue.id)) })
        XCTAssertTrue(harness.queue.waitUntilIdle(timeout: 5))
        let stored = try XCTUnwrap(try harness.store.issue(id: issue.id))
        XCTAssertEqual(stored.state, .paused)
        XCTAssertGreaterThan(stored.progress, 0.1, "a paused issue keeps its progress")
        let partial = harness.paths.partialFile(issueID: issue.id, asset: 0)
        let kept = PartialDownload.size(of: partial)
        XCTAssertGreaterThan(kept, 0, "the partial is kept")
        XCTAssertNotNil(PartialDownload.metadata(of: partial), "with its sidecar")

        // A relaunch does not resume a paused issue.
        harness.queue.resumeInterrupted()
        Thread.sleep(forTimeInterval: 0.3)
        XCTAssertEqual(harness.queue.pendingIssueIDs, [])
        XCTAssertEqual(try harness.store.issue(id: issue.id)?.state, .paused)
        XCTAssertEqual(harness.events(of: issue.id).last, .paused(issueID: issue.id))

        harness.server.bytesPerSecond = nil
        harness.queue.resume(issueID: issue.id)
        XCTAssertEqual(harness.outcome(of: issue.id), .installed(issueID: issue.id))
        let log = harness.requests("/p.epub")
        XCTAssertEqual(log.last?.status, 206)
        XCTAssertEqual(log.last.flatMap(rangeStart), Int(kept), "resume asks for exactly what is missing")
        let started = harness.events(of: issue.id).compactMap { if case .started(_, let resumedAt) = $0 { resumedAt } else { nil } }
        XCTAssertEqual(started.count, 1)
        XCTAssertEqual(started.first ?? 0, Double(kept) / Double(facts.size), accuracy: 0.001)
    }

    func testMovingAWaitingIssueChangesWhichStartsNext() throws {
        let harness = try makeHarness(maxConcurrent: 1)
        let issues = try ["a", "b", "c"].map { name in
            try harness.addIssue(name, content: [try harness.serve(sample: "2025-autumn", as: "\(name).epub")])
        }
        harness.server.bytesPerSecond = 200_000
        issues.forEach { harness.queue.enqueue(issueID: $0.id) }
        harness.queue.move(issueID: issues[2].id, by: -1)   // c before b
        harness.queue.move(issueID: issues[0].id, by: 1)    // a is running, not waiting: nothing happens
        XCTAssertTrue(harness.queue.waitUntilIdle(timeout: 30))
        let startOrder = harness.events.all.compactMap { if case .started(let id, _) = $0 { id } else { nil } }
        XCTAssertEqual(startOrder, [issues[0].id, issues[2].id, issues[1].id])
        let moves = harness.events.all.filter { if case .queued = $0 { true } else { false } }
        XCTAssertTrue(moves.contains(.queued(issueID: issues[2].id, position: 1)))
        XCTAssertTrue(moves.contains(.queued(issueID: issues[1].id, position: 2)))
        XCTAssertEqual(harness.server.settledLog().map(\.path), ["/a.epub", "/c.epub", "/b.epub"])
    }

    func testTheRateLimitHoldsAllTransfersTogetherNearIt() throws {
        let timeline = TimedLog()
        let harness = try makeHarness(also: { timeline.append($0) })
        let first = try harness.addIssue("r1", content: [try harness.serve(sample: "2025-winter", as: "r1.epub")])
        let second = try harness.addIssue("r2", content: [try harness.serve(sample: "2025-summer", as: "r2.epub")])
        let limit = 100_000
        harness.queue.setRateLimit(bytesPerSecond: limit)
        harness.queue.enqueue(issueID: first.id)
        harness.queue.enqueue(issueID: second.id)
        XCTAssertTrue(harness.queue.waitUntilIdle(timeout: 30))
        XCTAssertEqual(harness.events(of: first.id).last, .installed(issueID: first.id))
        XCTAssertEqual(harness.events(of: second.id).last, .installed(issueID: second.id))

        let entries = timeline.all
        let bytes = [first.id, second.id].map { id in
            entries.compactMap { if case .progressed(id, _, let received, _, _) = $0.event { received } else { nil } }.max() ?? 0
        }.reduce(0, +)
        XCTAssertGreaterThan(bytes, 150_000)
        let start = try XCTUnwrap(entries.first { if case .started = $0.event { true } else { false } }?.time)
        let end = try XCTUnwrap(entries.last { if case .progressed = $0.event { true } else { false } }?.time)
        let minimum = Double(bytes) / Double(limit) * 0.8
        XCTAssertGreaterThanOrEqual(end - start, minimum, "\(bytes) bytes at \(limit) B/s cannot arrive sooner")
        // Both transfers ran at the same time, sharing the limit: each started before the other was installed.
        // (Progress events are throttled, so comparing their times could see a small file's last one early.)
        func time(_ id: Int64, _ matches: (DownloadEvent) -> Bool) -> Double? {
            entries.first { $0.event.issueID == id && matches($0.event) }?.time
        }
        let started = { (event: DownloadEvent) in if case .started = event { true } else { false } }
        let installed = { (event: DownloadEvent) in if case .installed = event { true } else { false } }
        let (firstStart, secondStart) = (try XCTUnwrap(time(first.id, started)), try XCTUnwrap(time(second.id, started)))
        let (firstEnd, secondEnd) = (try XCTUnwrap(time(first.id, installed)), try XCTUnwrap(time(second.id, installed)))
        XCTAssertLessThan(secondStart, firstEnd, "the transfers overlap")
        XCTAssertLessThan(firstStart, secondEnd, "the transfers overlap")
    }

    /// The rate limit the slicing tests set: 64 KiB/s, which makes slices of 64 KiB.
    private static let sliceTestLimit = 64 << 10

    /// `2026-autumn` served as `name` (three slices' worth), downloaded under `sliceTestLimit` with
    /// `faults`; the harness, the issue, the server's log of the file, its size and the slice length.
    private func downloadInSlices(_ name: String, faults: FaultPlan = FaultPlan())
        throws -> (harness: Harness, issue: Issue, log: [RequestRecord], size: Int, slice: Int) {
        let harness = try makeHarness()
        let facts = try sampleFacts("2026-autumn")
        let issue = try harness.addIssue(name, content: [try harness.serve(sample: "2026-autumn", as: name)], size: facts.size, sha256: facts.sha256)
        harness.server.faults = faults
        harness.queue.setRateLimit(bytesPerSecond: Self.sliceTestLimit)
        harness.queue.enqueue(issueID: issue.id)
        XCTAssertEqual(harness.outcome(of: issue.id), .installed(issueID: issue.id), "\(harness.events(of: issue.id))")
        return (harness, issue, harness.requests("/" + name), Int(facts.size), Int(ResumePlan.sliceLength(bytesPerSecond: Self.sliceTestLimit)))
    }

    /// Under a rate limit the network itself is held back: the file is asked for in slices, each asked for
    /// only after the one before was written at the limit's pace, and the server never sends more than a slice.
    func testUnderARateLimitTheServerIsAskedForOneSliceAtATime() throws {
        let (harness, issue, log, size, slice) = try downloadInSlices("s.epub")
        XCTAssertLessThan(slice, size, "the file needs several slices")
        let expected = stride(from: 0, to: size, by: slice).map { "bytes=\($0)-\($0 + slice - 1)" }
        XCTAssertEqual(log.map(\.range), expected, "contiguous slices of \(slice) bytes")
        XCTAssertEqual(log.map(\.status), Array(repeating: 206, count: expected.count))
        XCTAssertEqual(log.map(\.bodyBytesSent).reduce(0, +), size, "nothing was sent twice or beyond the file")
        XCTAssertNil(log.first?.headers["if-range"], "the first slice has nothing to be conditional on")
        XCTAssertTrue(log.dropFirst().allSatisfy { $0.headers["if-range"] != nil }, "later slices belong to the same representation")
        let received = harness.progress(of: issue.id).map(\.received)
        XCTAssertEqual(received, received.sorted())
        XCTAssertEqual(try harness.store.issue(id: issue.id)?.state, .available, "installed after the catalog's SHA-256 matched")
    }

    func testASliceCutShortResumesFromWhereItStopped() throws {
        var faults = FaultPlan()
        faults.dropConnectionAfterBytes = 40_000
        let (_, _, log, size, slice) = try downloadInSlices("sd.epub", faults: faults)
        XCTAssertEqual(log.first?.bodyBytesSent, 40_000, "the fault cut the first slice short")
        XCTAssertEqual(log.dropFirst().first?.range, "bytes=40000-\(40_000 + slice - 1)", "the retry continues from byte 40000")
        XCTAssertEqual(log.map(\.bodyBytesSent).reduce(0, +), size)
    }

    /// Serves `2026-autumn` as `name` from a server sending 100 KB/s, downloads it, and sets the rate limit
    /// to `limit` at the first progress report; the server's log of that file once it is installed.
    private func downloadWithALimitSetMidTransfer(_ limit: Int, name: String, faults: FaultPlan = FaultPlan()) throws -> (log: [RequestRecord], size: Int) {
        let queueBox = QueueBox()
        let harness = try makeHarness(also: { event in
            if case .progressed = event, let queue = queueBox.takeOnce() { queue.setRateLimit(bytesPerSecond: limit) }
        })
        queueBox.set(harness.queue)
        let facts = try sampleFacts("2026-autumn")
        let issue = try harness.addIssue(name, content: [try harness.serve(sample: "2026-autumn", as: name)], size: facts.size, sha256: facts.sha256)
        harness.server.faults = faults
        harness.server.bytesPerSecond = 100_000
        harness.queue.enqueue(issueID: issue.id)
        XCTAssertEqual(harness.outcome(of: issue.id), .installed(issueID: issue.id), "\(harness.events(of: issue.id))")
        XCTAssertEqual(try harness.store.issue(id: issue.id)?.state, .available, "installed after the catalog's SHA-256 matched")
        return (harness.requests("/" + name), Int(facts.size))
    }

    /// A limit set while a download runs slows the network at once: the request for the whole rest of the
    /// file is dropped and the transfer goes on from its partial in slices.
    func testALimitSetMidTransferContinuesInSlicesAtOnce() throws {
        let (log, size) = try downloadWithALimitSetMidTransfer(64 << 10, name: "ll.epub")
        let first = try XCTUnwrap(log.first)
        XCTAssertNil(first.range, "no limit yet: the whole file was asked for")
        XCTAssertLessThan(first.bodyBytesSent, size, "and dropped before it all came")
        let slices = log.dropFirst().compactMap(\.range)
        XCTAssertEqual(slices.count, log.count - 1)
        XCTAssertFalse(slices.isEmpty)
        XCTAssertTrue(slices.allSatisfy { !$0.hasSuffix("-") }, "the rest came in closed slices: \(slices)")
        XCTAssertEqual(log.dropFirst().map(\.status), Array(repeating: 206, count: slices.count))
        XCTAssertNotNil(log.dropFirst().first?.headers["if-range"], "conditional on the same representation")
    }

    /// From a server that does not take ranges, a running reply is not dropped when a limit is set: the
    /// rest would start over from zero. It goes on, paced as it is written.
    func testALimitSetMidTransferLeavesAReplyFromAServerWithoutRangesAlone() throws {
        var faults = FaultPlan()
        faults.ignoreRange = true
        let (log, size) = try downloadWithALimitSetMidTransfer(256 << 10, name: "lnr.epub", faults: faults)
        XCTAssertEqual(log.map(\.status), [200])
        XCTAssertEqual(log.first?.bodyBytesSent, size, "one whole reply, nothing fetched twice")
    }

    /// A server that keeps the length to itself (`bytes N-M/*`): the slice that comes back shorter than
    /// asked for is the last, so the download ends there instead of asking past the end.
    func testUnderARateLimitSlicesOfUnknownTotalEndAtTheShortOne() throws {
        var faults = FaultPlan()
        faults.unknownTotalInRanges = true
        let (harness, _, log, size, slice) = try downloadInSlices("su.epub", faults: faults)
        XCTAssertEqual(log.map(\.range), stride(from: 0, to: size, by: slice).map { "bytes=\($0)-\($0 + slice - 1)" })
        XCTAssertEqual(log.map(\.status), Array(repeating: 206, count: log.count), "nothing asked past the end, nothing restarted")
        XCTAssertEqual(log.map(\.bodyBytesSent).reduce(0, +), size)

        let small = try sampleFacts("2025-autumn")
        XCTAssertLessThan(small.size, Int64(slice))
        let one = try harness.addIssue("sliced-unknown-small", content: [try harness.serve(sample: "2025-autumn", as: "sus.epub")],
                                       size: small.size, sha256: small.sha256)
        harness.queue.enqueue(issueID: one.id)
        XCTAssertEqual(harness.outcome(of: one.id), .installed(issueID: one.id), "\(harness.events(of: one.id))")
        XCTAssertEqual(harness.requests("/sus.epub").map(\.status), [206], "a first slice that ends short is the whole file")
    }

    func testA416ThatGivesTheLengthAtLastFinishesACompletePartial() throws {
        // A previous run got every byte from a server that never said the length, then stopped.
        let (harness, _, _) = try resumeACompletePartial("unknown.epub", storedLength: nil)
        XCTAssertEqual(harness.requests("/unknown.epub").map(\.status), [416], "bytes */N says the partial is whole")
    }

    func testUnderARateLimitAServerThatIgnoresRangesStillInstalls() throws {
        let harness = try makeHarness()
        let facts = try sampleFacts("2026-autumn")
        let issue = try harness.addIssue("sliced-ignored", content: [try harness.serve(sample: "2026-autumn", as: "si.epub")],
                                         size: facts.size, sha256: facts.sha256)
        harness.server.faults = { var plan = FaultPlan(); plan.ignoreRange = true; return plan }()
        harness.queue.setRateLimit(bytesPerSecond: 256 << 10)
        harness.queue.enqueue(issueID: issue.id)
        XCTAssertEqual(harness.outcome(of: issue.id), .installed(issueID: issue.id), "\(harness.events(of: issue.id))")
        let log = harness.requests("/si.epub")
        XCTAssertEqual(log.map(\.status), [200], "one whole reply, paced as it is written")
        XCTAssertEqual(log.first?.bodyBytesSent, Int(facts.size))
    }

    /// A finished partial is forced to disk only when nothing would notice a power cut's damage: a PDF
    /// without the catalog's SHA-256. An EPUB (checked entry by entry as it is unpacked) and a PDF with a
    /// digest are not; what is installed is synced in every case.
    func testOnlyAPartialThatNothingChecksIsForcedToDisk() throws {
        let synced = SyncedPaths()
        let harness = try makeHarness(diskSync: DiskSync { synced.add($0) })
        let pdf = Data("%PDF-1.4\n%%EOF\n".utf8)
        let pdfDigest: String = try { let digest = try SHA256Digest(); digest.update(pdf); return digest.finalizeHex() }()
        harness.server.setResource("/plain.pdf", data: pdf, contentType: "application/pdf")
        harness.server.setResource("/hashed.pdf", data: pdf, contentType: "application/pdf")
        let plain = try harness.addIssue("plain-pdf", content: [harness.server.url(for: "/plain.pdf")])
        let hashed = try harness.addIssue("hashed-pdf", content: [harness.server.url(for: "/hashed.pdf")], sha256: pdfDigest)
        let epub = try harness.addIssue("epub", content: [try harness.serve(sample: "2025-spring", as: "e.epub")])
        for issue in [plain, hashed, epub] {
            harness.queue.enqueue(issueID: issue.id)
            XCTAssertEqual(harness.outcome(of: issue.id), .installed(issueID: issue.id), "\(harness.events(of: issue.id))")
        }
        let partials = synced.all.filter { $0.deletingLastPathComponent().standardizedFileURL == harness.paths.partialDownloadsDirectory.standardizedFileURL }
        XCTAssertEqual(partials.map(\.lastPathComponent), [harness.paths.partialFile(issueID: plain.id, asset: 0).lastPathComponent],
                       "only the PDF without a digest")
        for issue in [plain, hashed, epub] {
            let folder = harness.folder(of: issue).lastPathComponent
            XCTAssertTrue(synced.all.contains { $0.path.contains(IssueInstaller.stagingPrefix + folder) }, "\(issue.name) was synced as installed")
        }
    }

    func testNotEnoughFreeSpaceFailsBeforeWriting() throws {
        let harness = try makeHarness(freeSpace: { _ in 10_000 })
        let issue = try harness.addIssue("big", content: [try harness.serve(sample: "2025-autumn", as: "big.epub")])
        harness.queue.enqueue(issueID: issue.id)
        XCTAssertEqual(harness.outcome(of: issue.id), .failed(issueID: issue.id, reason: "not enough free space: need 0.1 MB, have 0.0 MB"))
        XCTAssertEqual(harness.retries(of: issue.id).count, 0)
        assertNothingInstalled(harness, issue)
    }

    func testAnAvailableIssueWithoutItsFolderGoesBackToNotDownloaded() throws {
        let harness = try makeHarness()
        let url = try harness.serve(sample: "2025-autumn", as: "gone.epub")
        let lost = try harness.addIssue("lost", content: [url])
        let kept = try harness.addIssue("kept", content: [url])
        let stray = try harness.addIssue("stray", content: [url])
        try harness.store.setState(.available, issueID: lost.id)
        try harness.store.setState(.available, issueID: kept.id)
        try FileManager.default.createDirectory(at: harness.folder(of: kept), withIntermediateDirectories: true)
        // A partial of an issue that is not downloading any more, and an install that crashed half way.
        try Data("x".utf8).write(to: harness.paths.partialFile(issueID: stray.id, asset: 0))
        let staging = harness.folder(of: kept).deletingLastPathComponent().appendingPathComponent(".staging-99-x-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)

        XCTAssertEqual(try harness.store.reconcile(paths: harness.paths, leftoverAge: 0), [lost.id])
        XCTAssertEqual(try harness.store.issue(id: lost.id)?.state, .notDownloaded)
        XCTAssertEqual(try harness.store.issue(id: kept.id)?.state, .available)
        XCTAssertEqual(harness.partials, [])
        XCTAssertFalse(FileManager.default.fileExists(atPath: staging.path))

        // The queue reconciles when it resumes interrupted downloads at start-up.
        try harness.store.setState(.available, issueID: stray.id)
        harness.queue.resumeInterrupted()
        XCTAssertTrue(harness.queue.waitUntilIdle(timeout: 10))
        XCTAssertEqual(try harness.store.issue(id: stray.id)?.state, .notDownloaded)
        XCTAssertEqual(try harness.store.integrityCheck(), ["ok"])
    }
}

/// Lets an event handler reach the server, which exists only after the harness is made.
private final class ServerBox: Sendable {
    private let held = Mutex<LocalHTTPServer?>(nil)
    var server: LocalHTTPServer? {
        get { held.withLock { $0 } }
        set { held.withLock { $0 = newValue } }
    }
}

/// The paths a `DiskSync` was asked to sync.
private final class SyncedPaths: Sendable {
    private let paths = Mutex<[URL]>([])
    var all: [URL] { paths.withLock { $0 } }
    func add(_ url: URL) { paths.withLock { $0.append(url) } }
}

/// The harness's queue, handed out once (to act on the first of many events).
private final class QueueBox: Sendable {
    private let state = Mutex((queue: DownloadQueue?.none, taken: false))
    func set(_ queue: DownloadQueue) { state.withLock { $0.queue = queue } }
    func takeOnce() -> DownloadQueue? {
        state.withLock { state in
            guard !state.taken, let queue = state.queue else { return nil }
            state.taken = true
            return queue
        }
    }
}

/// Events with the monotonic time they arrived.
private final class TimedLog: Sendable {
    private let entries = Mutex<[(time: TimeInterval, event: DownloadEvent)]>([])

    func append(_ event: DownloadEvent) {
        let now = Double(DispatchTime.now().uptimeNanoseconds) / 1e9
        entries.withLock { $0.append((now, event)) }
    }

    var all: [(time: TimeInterval, event: DownloadEvent)] { entries.withLock { $0 } }
}
