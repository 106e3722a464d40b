import Foundation
import XCTest
@testable import NewsstandCore
import LocalHTTPServer

final class DownloadQueueTests: XCTestCase {
    /// One library, a served folder, a download queue and the events it reports.
    private struct Harness {
        let store: LibraryStore
        let paths: LibraryPaths
        let publication: Publication
        let server: LocalHTTPServer
        let www: URL
        let events: EventLog<DownloadEvent>
        let queue: DownloadQueue

        /// Copies a sample issue into the served folder as `name` and returns its URL on the server.
        func serve(sample: String, as name: String) throws -> URL {
            try FileManager.default.copyItem(at: TestSupport.sampleIssue(sample), to: www.appendingPathComponent(name))
            return server.url(for: "/\(name)")
        }

        func addIssue(_ name: String, content: [URL], size: Int64? = nil, sha256: String? = nil) throws -> Issue {
            let issues = try store.upsertIssues([TestSupport.entry(name, content: content, size: size, sha256: sha256)],
                                                publicationID: publication.id)
            return try XCTUnwrap(issues.first { $0.name == name })
        }

        /// Waits for the issue's installed or failed event.
        func outcome(of issueID: Int64, timeout: TimeInterval = 30) -> DownloadEvent? {
            events.wait(timeout: timeout) { $0.contains { $0.issueID == issueID && $0.isTerminal } }
            return events.all.last { $0.issueID == issueID && $0.isTerminal }
        }

        func folder(of issue: Issue) -> URL { paths.folder(for: issue, of: publication) }

        func events(of issueID: Int64) -> [DownloadEvent] { events.all.filter { $0.issueID == issueID } }

        func progress(of issueID: Int64) -> [(fraction: Double, received: Int64, total: Int64?)] {
            events(of: issueID).compactMap {
                if case let .progressed(_, fraction, received, total) = $0 { return (fraction, received, total) }
                return nil
            }
        }

        /// Files left in the partial-downloads folder.
        var partials: [String] { (try? FileManager.default.contentsOfDirectory(atPath: paths.partialDownloadsDirectory.path)) ?? [] }

        /// Everything in the issues folder (to see that nothing half-installed is left behind).
        var installedItems: [String] { TestFiles.listing(of: paths.issuesDirectory) }
    }

    private func makeHarness(maxConcurrent: Int = 3) throws -> Harness {
        let (store, paths) = try TestSupport.store(for: self)
        let www = try TestFiles.scratchFolder(for: self)
        let server = try TestSupport.server(for: self, root: www)
        let publication = try store.addPublication(title: "Kettle & Compass", feedURL: server.url(for: "/catalog.plist"))
        let events = EventLog<DownloadEvent>()
        let queue = DownloadQueue(store: store, paths: paths, maxConcurrent: maxConcurrent) { events.append($0) }
        // Runs before the server stops (teardown blocks run last-added first), so no transfer outlives the test.
        addTeardownBlock {
            server.stop()
            _ = queue.waitUntilIdle(timeout: 15)
        }
        return Harness(store: store, paths: paths, publication: publication, server: server, www: www, events: events, queue: queue)
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
        XCTAssertEqual(events.first, .queued(issueID: issue.id))
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
        XCTAssertEqual(harness.server.requestLog.filter { $0.path == "/autumn.epub" }.map(\.status), [200])
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
            case .progressed(let id, _, _, _) where !finished.contains(id): transferring.insert(id)
            case .installed(let id), .failed(let id, _):
                transferring.remove(id)
                finished.insert(id)
            default: break
            }
            mostAtOnce = max(mostAtOnce, transferring.count)
        }
        XCTAssertEqual(mostAtOnce, 2, "two transfers overlap, never more")
        // The server saw each issue exactly once.
        XCTAssertEqual(harness.server.requestLog.map(\.path).sorted(), (0..<4).map { "/issue-\($0).epub" })
        XCTAssertEqual(harness.partials, [])
    }

    func testFileURLsWork() throws {
        let harness = try makeHarness()
        let facts = try sampleFacts("2026-spring")
        let issue = try harness.addIssue("local", content: [TestSupport.sampleIssue("2026-spring")], size: facts.size, sha256: facts.sha256)
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
        XCTAssertEqual(Set(harness.server.requestLog.map(\.path)), ["/issue.epub", "/supplement.pdf"])
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

    func testDroppedConnectionFailsCleanly() throws {
        let harness = try makeHarness()
        let issue = try harness.addIssue("dropped", content: [try harness.serve(sample: "2025-winter", as: "d.epub")])
        harness.server.faults = { var plan = FaultPlan(); plan.dropConnectionAfterBytes = 20_000; return plan }()
        harness.queue.enqueue(issueID: issue.id)
        assertFailed(harness.outcome(of: issue.id), mentioningAnyOf: ["stopped early", "connection"])
        XCTAssertTrue(harness.queue.waitUntilIdle(timeout: 10))
        if case .failed? = try harness.store.issue(id: issue.id)?.state {} else { XCTFail("the store says failed") }
        assertNothingInstalled(harness, issue)
        XCTAssertEqual(harness.server.requestLog.first?.bodyBytesSent, 20_000, "the fault really cut the body short")
    }

    func testWrongContentLengthFails() throws {
        let harness = try makeHarness()
        let issue = try harness.addIssue("short", content: [try harness.serve(sample: "2025-autumn", as: "s.epub")])
        harness.server.faults = { var plan = FaultPlan(); plan.wrongContentLength = true; return plan }()
        harness.queue.enqueue(issueID: issue.id)
        assertFailed(harness.outcome(of: issue.id), mentioningAnyOf: ["stopped early", "connection"])
        assertNothingInstalled(harness, issue)
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
        harness.server.faults = { var plan = FaultPlan(); plan.failFirstRequests = (1, 503, nil); return plan }()
        harness.queue.enqueue(issueID: issue.id)
        assertFailed(harness.outcome(of: issue.id), mentioningAnyOf: ["503"])
        XCTAssertTrue(harness.queue.waitUntilIdle(timeout: 10))

        harness.queue.enqueue(issueID: issue.id)
        XCTAssertTrue(harness.events.wait { $0.contains(.installed(issueID: issue.id)) })
        XCTAssertEqual(try harness.store.issue(id: issue.id)?.state, .available)
        XCTAssertTrue(FileManager.default.fileExists(atPath: harness.folder(of: issue).appendingPathComponent("META-INF/container.xml").path))
        XCTAssertEqual(harness.server.requestLog.map(\.status), [503, 200])
    }

    func testCancelReturnsTheIssueToNotDownloadedAndRemovesThePartial() throws {
        let harness = try makeHarness()
        let issue = try harness.addIssue("cancelled", content: [try harness.serve(sample: "2025-winter", as: "c.epub")])
        harness.server.bytesPerSecond = 20_000 // about five seconds for the whole file
        harness.queue.enqueue(issueID: issue.id)
        XCTAssertTrue(harness.events.wait { $0.contains { if case .progressed(issue.id, _, _, _) = $0 { true } else { false } } })
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
        XCTAssertEqual(harness.events(of: issue.id).filter { $0 == .queued(issueID: issue.id) }.count, 1)

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
        XCTAssertEqual(Set(harness.events.all.compactMap { if case .progressed(let id, _, _, _) = $0 { id } else { nil } }).count, 1)
        XCTAssertEqual(harness.queue.pendingIssueIDs, Set(issues.map(\.id)))

        harness.queue.setMaxConcurrent(3)
        XCTAssertTrue(harness.events.wait { events in
            Set(events.compactMap { if case .progressed(let id, _, _, _) = $0 { id } else { nil } }).count == 3
        }, "the waiting downloads start without waiting for the first to finish")
        XCTAssertFalse(harness.events.all.contains { $0.isTerminal })
        harness.server.bytesPerSecond = nil
        XCTAssertTrue(harness.queue.waitUntilIdle(timeout: 30))
        XCTAssertTrue(issues.allSatisfy { harness.events(of: $0.id).last == .installed(issueID: $0.id) })
    }
}
