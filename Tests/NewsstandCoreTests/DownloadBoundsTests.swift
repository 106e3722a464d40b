import Foundation
import XCTest
@testable import NewsstandCore
import LocalHTTPServer
import Synchronization

/// Downloads over `HTTPClient` keep to their bounds while data arrives (issue #11): the catalog's size plus a
/// margin or `max-download-size`, `disk-reserve`, `stall-timeout`, logins from the client's credential source,
/// and memory bounded by back-pressure when the disk is slower than the network. Every wait has a deadline.
final class DownloadBoundsTests: XCTestCase {
    private typealias Harness = DownloadHarness

    private func makeHarness(policy: DownloadPolicy = DownloadHarness.quickRetries,
                             client: HTTPClient = .shared, freeSpace: @escaping @Sendable (URL) -> Int64? = { _ in nil },
                             blockSize: Int = AssetTransfer.writeBufferSize, beforeWrite: @escaping @Sendable (Int) -> Void = { _ in },
                             also: @escaping @Sendable (DownloadEvent) -> Void = { _ in }) throws -> Harness {
        try DownloadHarness.make(for: self, policy: policy, client: client, freeSpace: freeSpace, blockSize: blockSize,
                                 beforeWrite: beforeWrite, also: also)
    }

    private func failureReason(_ event: DownloadEvent?, file: StaticString = #filePath, line: UInt = #line) -> String {
        guard case .failed(_, let reason)? = event else {
            XCTFail("expected a failure, got \(String(describing: event))", file: file, line: line)
            return ""
        }
        return reason
    }

    private static func digest(_ data: Data) throws -> String {
        let digest = try SHA256Digest()
        digest.update(data)
        return digest.finalizeHex()
    }

    // MARK: Size

    /// A server that sends without end, for an issue the catalog gives no size: stopped at `max-download-size`
    /// as the bytes arrive, never holding more on disk, with a message naming the setting.
    func testAnEndlessIssueWithoutASizeStopsAtMaxDownloadSize() throws {
        let limit: Int64 = 2 << 20
        let blockSize = 64 << 10
        let written = ByteCount()
        var policy = DownloadPolicy(maxAttempts: 3, backoffBase: 0.01, backoffCap: 0.05)
        policy.maxDownloadSize = limit
        let harness = try makeHarness(policy: policy, blockSize: blockSize, beforeWrite: { written.add($0) })
        harness.server.faults = { var plan = FaultPlan(); plan.endlessBody = true; return plan }()
        let issue = try harness.addIssue("endless", content: [harness.server.url(for: "/endless.epub")])
        harness.queue.enqueue(issueID: issue.id)

        let reason = failureReason(harness.outcome(of: issue.id))
        XCTAssertEqual(reason, "the issue is larger than 2 MB (max-download-size); raise max-download-size in the config file to download it")
        XCTAssertEqual(harness.retries(of: issue.id).map(\.reason), [], "a body without end is not tried again")
        // Blocks reach the file in order, so the bytes written are the partial file's size.
        XCTAssertLessThanOrEqual(written.value, limit, "never more than the limit on disk")
        XCTAssertGreaterThan(written.value, limit - Int64(3 * blockSize), "it got up to the limit (less what was held in memory)")
        XCTAssertLessThanOrEqual(harness.receivedBytes(of: issue.id).max() ?? 0, limit)
        XCTAssertEqual(harness.requests("/endless.epub").count, 1)
        XCTAssertFalse(FileManager.default.fileExists(atPath: harness.partial(of: issue).path), "a refused body is not kept")
        XCTAssertEqual(try harness.store.issue(id: issue.id)?.state, .failed(reason: reason))
    }

    /// The same body for an issue whose catalog gives a size: stopped at that size plus the margin (1 MiB here).
    func testAnEndlessIssueIsStoppedAtTheCatalogsSizeAndAMargin() throws {
        let size: Int64 = 512 << 10
        let bound = size + DownloadPolicy.sizeMargin(for: size)
        let blockSize = 64 << 10
        let written = ByteCount()
        let harness = try makeHarness(blockSize: blockSize, beforeWrite: { written.add($0) })
        harness.server.faults = { var plan = FaultPlan(); plan.endlessBody = true; return plan }()
        let issue = try harness.addIssue("too-long", content: [harness.server.url(for: "/too-long.epub")], size: size)
        harness.queue.enqueue(issueID: issue.id)

        let reason = failureReason(harness.outcome(of: issue.id))
        XCTAssertEqual(reason, "the server sent more than the catalog's size of the issue (512 KB): stopped at 1.5 MB")
        XCTAssertEqual(harness.retries(of: issue.id).map(\.reason), [])
        XCTAssertLessThanOrEqual(written.value, bound)
        XCTAssertGreaterThan(written.value, bound - Int64(3 * blockSize), "more than the catalog's size got through, within the margin")
        XCTAssertLessThanOrEqual(harness.receivedBytes(of: issue.id).max() ?? 0, bound)
    }

    /// A file that announces more than the catalog's size and margin is refused before its body.
    func testAnAnnouncedLengthOverTheCatalogsSizeIsRefusedBeforeTheBody() throws {
        let harness = try makeHarness()
        let data = Data("%PDF-1.4\n".utf8) + TestFiles.pseudoRandomData(count: 3 << 20)
        harness.server.setResource("/big.pdf", data: data, contentType: "application/pdf")
        let issue = try harness.addIssue("big", content: [harness.server.url(for: "/big.pdf")], size: 1 << 20)
        harness.queue.enqueue(issueID: issue.id)
        let reason = failureReason(harness.outcome(of: issue.id))
        XCTAssertEqual(reason, "the server sent more than the catalog's size of the issue (1 MB): stopped at 2 MB")
        XCTAssertEqual(harness.receivedBytes(of: issue.id).max() ?? 0, 0, "nothing of the body was taken")
        XCTAssertEqual(harness.requests("/big.pdf").count, 1)
    }

    // MARK: Disk reserve

    /// Free space that shrinks while an issue downloads (another program fills the disk): writing stops before
    /// the reserve is reached, the partial is kept, and once there is room again the download continues from it.
    func testTheDiskReserveStopsATransferMidwayAndKeepsThePartialForLater() throws {
        let reserve: Int64 = 1 << 20
        let disk = ShrinkingDisk(reserve: reserve, shrinksAfter: 300_000)
        var policy = DownloadPolicy(maxAttempts: 3, backoffBase: 0.01, backoffCap: 0.05)
        policy.diskReserve = reserve
        let harness = try makeHarness(policy: policy, freeSpace: { _ in disk.free() }, blockSize: 32 << 10)
        let data = Data("%PDF-1.4\n".utf8) + TestFiles.pseudoRandomData(count: 1 << 20)
        harness.server.setResource("/filling.pdf", data: data, contentType: "application/pdf")
        let issue = try harness.addIssue("filling", content: [harness.server.url(for: "/filling.pdf")], size: Int64(data.count),
                                         sha256: Self.digest(data))
        disk.partial = harness.partial(of: issue)
        harness.queue.enqueue(issueID: issue.id)

        let reason = failureReason(harness.outcome(of: issue.id))
        XCTAssertTrue(reason.hasPrefix("stopped with "), reason)
        XCTAssertTrue(reason.contains("downloads keep 1 MB free (disk-reserve)"), reason)
        XCTAssertTrue(reason.contains("lower disk-reserve in the config file"), reason)
        XCTAssertEqual(harness.retries(of: issue.id).map(\.reason), [], "a full disk is not retried by itself")
        let kept = PartialDownload.size(of: harness.partial(of: issue))
        XCTAssertGreaterThanOrEqual(kept, 300_000, "what was written before is kept")
        XCTAssertLessThan(kept, Int64(data.count))
        XCTAssertNotNil(PartialDownload.metadata(of: harness.partial(of: issue)), "with its sidecar")
        XCTAssertEqual(try harness.store.issue(id: issue.id)?.state, .failed(reason: reason))

        // Space is freed; downloading again continues from the partial.
        disk.makeRoom()
        harness.server.clearLog()
        harness.queue.enqueue(issueID: issue.id)
        XCTAssertTrue(harness.events.wait(timeout: 30) { $0.contains(.installed(issueID: issue.id)) }, "\(harness.events(of: issue.id))")
        let log = harness.requests("/filling.pdf")
        XCTAssertEqual(log.map(\.status), [206])
        XCTAssertEqual(log.first?.range, "bytes=\(kept)-", "it asks for exactly what is missing")
        XCTAssertEqual(try harness.store.issue(id: issue.id)?.state, .available, "the catalog's SHA-256 matched")
    }

    func testTheDiskReserveIsCheckedBeforeTheFirstByte() throws {
        var policy = DownloadPolicy(maxAttempts: 3, backoffBase: 0.01, backoffCap: 0.05)
        policy.diskReserve = 10 << 20
        let harness = try makeHarness(policy: policy, freeSpace: { _ in 10 << 20 })
        let data = Data("%PDF-1.4\n".utf8) + TestFiles.pseudoRandomData(count: 100_000)
        harness.server.setResource("/small.pdf", data: data, contentType: "application/pdf")
        let issue = try harness.addIssue("small", content: [harness.server.url(for: "/small.pdf")])
        harness.queue.enqueue(issueID: issue.id)
        XCTAssertEqual(failureReason(harness.outcome(of: issue.id)),
                       "not enough free space: need 0.1 MB and downloads keep 10 MB free (disk-reserve), have 10.0 MB; "
                       + "free some space or lower disk-reserve in the config file")
        XCTAssertEqual(PartialDownload.size(of: harness.partial(of: issue)), 0, "nothing was written")
    }

    // MARK: Stalls

    /// A server that stops sending mid-body: the attempt fails as transient after `stall-timeout` (libcurl
    /// measures the speed over its last few seconds, so a little more), and the next one continues from the partial.
    func testAStalledServerFailsTheAttemptAsTransientAndTheNextOneResumes() throws {
        var policy = DownloadPolicy(maxAttempts: 3, backoffBase: 0.01, backoffCap: 0.05)
        policy.stallTimeout = 1
        let harness = try makeHarness(policy: policy)
        let data = try Data(contentsOf: TestSupport.sampleIssue("2025-winter"))
        harness.server.setResource("/stall.epub", data: data, contentType: "application/epub+zip")
        harness.server.faults = { var plan = FaultPlan(); plan.stallAfterBytes = 60_000; return plan }()
        let issue = try harness.addIssue("stalling", content: [harness.server.url(for: "/stall.epub")], size: Int64(data.count),
                                         sha256: Self.digest(data))
        harness.queue.enqueue(issueID: issue.id)
        XCTAssertEqual(harness.outcome(of: issue.id, timeout: 40), .installed(issueID: issue.id), "\(harness.events(of: issue.id))")

        XCTAssertEqual(harness.retries(of: issue.id).map(\.reason), ["127.0.0.1 stopped sending for 1 s"])
        let log = harness.server.log(atLeast: 2).filter { $0.path == "/stall.epub" }
        XCTAssertEqual(log.map(\.status), [200, 206])
        XCTAssertEqual(log.first?.bodyBytesSent, 60_000)
        XCTAssertEqual(log.last?.range, "bytes=60000-", "the retry continues where the stall left off")
        XCTAssertEqual(try harness.store.issue(id: issue.id)?.state, .available)
    }

    // MARK: Logins

    func testAnIssueBehindALoginDownloadsWithTheClientsCredentials() throws {
        let login = RequiredLogin(scheme: .digest, realm: "Subscribers", user: "reader", password: "s3cret:pw")
        let source = FixedCredentials([nil: Credentials(user: "reader", password: "s3cret:pw")])
        let harness = try makeHarness(client: HTTPTestSupport.client(credentials: source))
        let data = try Data(contentsOf: TestSupport.sampleIssue("2025-autumn"))
        harness.server.setResource("/members.epub", data: data, contentType: "application/epub+zip")
        harness.server.faults = { var plan = FaultPlan(); plan.requiredLogin = login; return plan }()
        let issue = try harness.addIssue("members", content: [harness.server.url(for: "/members.epub")], sha256: Self.digest(data))
        harness.queue.enqueue(issueID: issue.id)
        XCTAssertEqual(harness.outcome(of: issue.id), .installed(issueID: issue.id), "\(harness.events(of: issue.id))")
        XCTAssertEqual(harness.requests("/members.epub").map(\.status), [401, 200])
        XCTAssertFalse(harness.server.requestLog.contains { $0.target.contains("reader") }, "the login is never in the URL")
    }

    func testAnIssueBehindALoginFailsAtOnceWithoutOne() throws {
        let harness = try makeHarness(client: HTTPTestSupport.client())
        harness.server.setResource("/members.epub", data: try Data(contentsOf: TestSupport.sampleIssue("2025-autumn")),
                                   contentType: "application/epub+zip")
        harness.server.faults = { var plan = FaultPlan(); plan.requiredLogin = RequiredLogin(realm: "Subscribers", user: "reader", password: "pw"); return plan }()
        let issue = try harness.addIssue("members", content: [harness.server.url(for: "/members.epub")])
        harness.queue.enqueue(issueID: issue.id)
        XCTAssertEqual(harness.outcome(of: issue.id), .failed(issueID: issue.id, reason: "127.0.0.1 asks for a login (\u{201C}Subscribers\u{201D})"))
        XCTAssertEqual(harness.retries(of: issue.id).map(\.reason), [], "a login is not something a retry brings")
        XCTAssertEqual(harness.requests("/members.epub").map(\.status), [401])
        XCTAssertFalse(FileManager.default.fileExists(atPath: harness.partial(of: issue).path))
    }

    // MARK: Memory

    /// A disk slower than the network: the transfer holds at most two blocks (one being written, one filling)
    /// however much arrives, pausing the transfer rather than gathering more; the client's network thread is
    /// not held up meanwhile (another request on it answers at once), and every byte arrives.
    func testASlowDiskHoldsAtMostTwoBlocksInMemoryAndNeverHoldsTheNetworkUp() throws {
        let server = try TestSupport.server(for: self)
        let payload = Data("%PDF-1.4\n".utf8) + TestFiles.pseudoRandomData(count: 4 << 20)
        server.setResource("/slow-disk.pdf", data: payload, contentType: "application/pdf")
        server.setResource("/small.txt", data: Data("small".utf8), contentType: "application/octet-stream")
        let folder = try TestFiles.scratchFolder(for: self)
        let destination = folder.appendingPathComponent("slow-disk.part")
        let client = HTTPTestSupport.client()
        let blockSize = 64 << 10
        var environment = AssetTransfer.Environment(limiter: RateLimiter(bytesPerSecond: nil), freeSpace: { _ in nil }, client: client)
        environment.blockSize = blockSize
        environment.beforeWrite = { _ in usleep(20_000) }  // about 3 MB/s: far below loopback
        let outcome = EventLog<Result<Void, TransferFailure>>()
        let transfer = AssetTransfer(url: server.url(for: "/slow-disk.pdf"), from: .network, destination: destination, environment: environment,
                                     onProgress: { _, _ in }, onCompletion: { outcome.append($0) })
        transfer.start()
        addTeardownBlock { transfer.cancel() }

        // While the slow disk holds the download back, the same client answers another request at once.
        usleep(100_000)
        let start = Date()
        let small = try client.fetch(HTTPTestSupport.request(server.url(for: "/small.txt")))
        XCTAssertEqual(small.body, Data("small".utf8))
        XCTAssertLessThan(Date().timeIntervalSince(start), 1, "the network thread does not wait for the disk")
        XCTAssertTrue(outcome.all.isEmpty, "the download was still running meanwhile")

        XCTAssertTrue(outcome.wait(timeout: 30) { !$0.isEmpty }, "the download ended")
        guard case .success? = outcome.all.first else { return XCTFail("\(outcome.all)") }
        XCTAssertEqual(try Data(contentsOf: destination), payload, "every byte, in order")
        XCTAssertGreaterThan(transfer.timesPaused, 0, "the disk was slower than the network")
        XCTAssertLessThanOrEqual(transfer.peakHeldBytes, 2 * blockSize, "one block being written, one filling")
    }

    /// Cancelling while the disk holds the transfer back returns at once and leaves a partial that is a prefix.
    func testCancellingWhileTheDiskHoldsTheTransferBackKeepsAPrefix() throws {
        let server = try TestSupport.server(for: self)
        let payload = Data("%PDF-1.4\n".utf8) + TestFiles.pseudoRandomData(count: 2 << 20)
        server.setResource("/cancel.pdf", data: payload, contentType: "application/pdf")
        let destination = try TestFiles.scratchFolder(for: self).appendingPathComponent("cancel.part")
        var environment = AssetTransfer.Environment(limiter: RateLimiter(bytesPerSecond: nil), freeSpace: { _ in nil },
                                                    client: HTTPTestSupport.client())
        environment.blockSize = 64 << 10
        environment.beforeWrite = { _ in usleep(20_000) }
        let outcome = EventLog<Result<Void, TransferFailure>>()
        let progress = EventLog<Int64>()
        let transfer = AssetTransfer(url: server.url(for: "/cancel.pdf"), from: .network, destination: destination, environment: environment,
                                     onProgress: { received, _ in progress.append(received) }, onCompletion: { outcome.append($0) })
        transfer.start()
        XCTAssertTrue(progress.wait(timeout: 10) { ($0.last ?? 0) > 200_000 })
        let start = Date()
        transfer.cancel()
        XCTAssertLessThan(Date().timeIntervalSince(start), 1)
        let kept = try Data(contentsOf: destination)
        usleep(200_000)
        XCTAssertEqual(try Data(contentsOf: destination), kept, "once cancel() returns the partial is not touched again")
        XCTAssertGreaterThan(kept.count, 200_000)
        XCTAssertEqual(kept, payload.prefix(kept.count), "a prefix of the file")
        XCTAssertTrue(outcome.wait(timeout: 10) { !$0.isEmpty })
        XCTAssertEqual(outcome.all.first.map { if case .failure(let failure) = $0 { failure.kind == .cancelled } else { false } }, true)
    }

    // MARK: Settings

    func testTheBoundsAreReadFromTheConfigFile() {
        let defaults = Configuration.parse("")
        XCTAssertEqual(defaults.maxDownloadSize, 4 << 30)
        XCTAssertEqual(defaults.diskReserve, 1 << 30)
        XCTAssertEqual(defaults.stallTimeout, 30)
        let set = Configuration.parse("max-download-size 8G\ndisk-reserve 500M\nstall-timeout 90\n")
        XCTAssertEqual(set.warnings, [])
        XCTAssertEqual(set.maxDownloadSize, 8 << 30)
        XCTAssertEqual(set.diskReserve, 500 << 20)
        XCTAssertEqual(set.stallTimeout, 90)
        let policy = DownloadPolicy(configuration: set)
        XCTAssertEqual(policy.maxDownloadSize, 8 << 30)
        XCTAssertEqual(policy.diskReserve, 500 << 20)
        XCTAssertEqual(policy.stallTimeout, 90)
        XCTAssertEqual(Configuration.parse("disk-reserve 0").diskReserve, 0)
        let bad = Configuration.parse("max-download-size 10K\ndisk-reserve lots\nstall-timeout 0", source: "config")
        XCTAssertEqual(bad.warnings, ["config, line 1: max-download-size takes a size of at least 1M, such as 500M or 8G",
                                      "config, line 2: disk-reserve takes a size such as 500M or 2G, or 0",
                                      "config, line 3: stall-timeout takes seconds from 1 to 3600"])
        XCTAssertEqual(bad.maxDownloadSize, 4 << 30, "a bad value leaves the default")
        XCTAssertEqual(DownloadPolicy.sizeMargin(for: 10 << 20), 1 << 20, "1 MiB for an issue under 100 MiB")
        XCTAssertEqual(DownloadPolicy.sizeMargin(for: 500 << 20), 5 << 20, "1% above")
    }
}

/// Bytes counted from several threads.
private final class ByteCount: Sendable {
    private let total = Mutex<Int64>(0)
    func add(_ count: Int) { total.withLock { $0 += Int64(count) } }
    var value: Int64 { total.withLock { $0 } }
}

/// Free space that is ample until the partial file passes `shrinksAfter` bytes, then just above `reserve`
/// (another program filled the disk), until `makeRoom()`.
private final class ShrinkingDisk: Sendable {
    private let reserve: Int64
    private let shrinksAfter: Int64
    private let state = Mutex((roomy: false, file: URL?.none))

    init(reserve: Int64, shrinksAfter: Int64) {
        self.reserve = reserve
        self.shrinksAfter = shrinksAfter
    }

    var partial: URL? {
        get { state.withLock { $0.file } }
        set { state.withLock { $0.file = newValue } }
    }

    func makeRoom() { state.withLock { $0.roomy = true } }

    func free() -> Int64 {
        let (roomy, file) = state.withLock { ($0.roomy, $0.file) }
        let plenty: Int64 = 100 << 30
        guard !roomy, let file, PartialDownload.size(of: file) >= shrinksAfter else { return plenty }
        return reserve + 10_000
    }
}
