import Foundation
import XCTest
@testable import NewsstandCore
import LocalHTTPServer

/// One library, a server on 127.0.0.1 (serving a scratch folder, and whatever resources a test sets), a download
/// queue and the events it reports: what the download tests share. Every wait has a deadline.
struct DownloadHarness {
    let store: LibraryStore
    let paths: LibraryPaths
    let publication: Publication
    let server: LocalHTTPServer
    /// The folder the server serves.
    let www: URL
    let events: EventLog<DownloadEvent>
    let queue: DownloadQueue

    /// Retries after a few milliseconds, so tests of backoff stay fast.
    static let quickRetries = DownloadPolicy(maxAttempts: 5, backoffBase: 0.01, backoffCap: 0.05)

    /// A harness whose queue and server stop when `testCase` ends (the server first, so no transfer outlives it).
    static func make(for testCase: XCTestCase, policy: DownloadPolicy = quickRetries, client: HTTPClient = .shared,
                     freeSpace: @escaping @Sendable (URL) -> Int64? = { _ in nil }, diskSync: DiskSync = .fsync,
                     blockSize: Int = AssetTransfer.writeBufferSize, beforeWrite: @escaping @Sendable (Int) -> Void = { _ in },
                     also: @escaping @Sendable (DownloadEvent) -> Void = { _ in }) throws -> DownloadHarness {
        let (store, paths) = try TestSupport.store(for: testCase)
        let www = try TestFiles.scratchFolder(for: testCase)
        let server = try TestSupport.server(for: testCase, root: www)
        let publication = try store.addPublication(title: "Kettle & Compass", feedURL: server.url(for: "/catalog.plist"))
        let events = EventLog<DownloadEvent>()
        let queue = DownloadQueue(store: store, paths: paths, policy: policy, client: client, freeSpace: freeSpace, diskSync: diskSync,
                                  blockSize: blockSize, beforeWrite: beforeWrite) { event in
            events.append(event)
            also(event)
        }
        // Runs before the server's own teardown (teardown blocks run last-added first).
        testCase.addTeardownBlock {
            server.stop()
            _ = queue.waitUntilIdle(timeout: 15)
        }
        return DownloadHarness(store: store, paths: paths, publication: publication, server: server, www: www, events: events, queue: queue)
    }

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

    /// The issue's installed or failed event, waiting at most `timeout` seconds.
    func outcome(of issueID: Int64, timeout: TimeInterval = 30) -> DownloadEvent? {
        events.wait(timeout: timeout) { $0.contains { $0.issueID == issueID && $0.isTerminal } }
        return events.all.last { $0.issueID == issueID && $0.isTerminal }
    }

    /// Adds an issue to a publication subscribed from the sample library's folder: a local catalog, whose files
    /// (`TestSupport.sampleIssue`) it may copy, where the harness's own publication, from the server, may not.
    func addLocalIssue(_ name: String, content: [URL], size: Int64? = nil, sha256: String? = nil) throws -> Issue {
        let local = try store.publications().first { $0.feedURL == TestSupport.sampleCatalog }
            ?? store.addPublication(title: "Sample", feedURL: TestSupport.sampleCatalog)
        let issues = try store.upsertIssues([TestSupport.entry(name, content: content, size: size, sha256: sha256)], publicationID: local.id)
        return try XCTUnwrap(issues.first { $0.name == name })
    }

    /// Where `issue` is installed (under its own publication's folder).
    func folder(of issue: Issue) -> URL {
        let owner = (try? store.publication(id: issue.publicationID)).flatMap { $0 } ?? publication
        return paths.folder(for: issue, of: owner)
    }

    func events(of issueID: Int64) -> [DownloadEvent] { events.all.filter { $0.issueID == issueID } }

    func progress(of issueID: Int64) -> [(fraction: Double, received: Int64, total: Int64?)] {
        events(of: issueID).compactMap {
            if case let .progressed(_, fraction, received, total, _) = $0 { return (fraction, received, total) }
            return nil
        }
    }

    func receivedBytes(of issueID: Int64) -> [Int64] { progress(of: issueID).map(\.received) }

    func retries(of issueID: Int64) -> [(attempt: Int, delay: TimeInterval, reason: String)] {
        events(of: issueID).compactMap {
            if case let .retrying(_, attempt, delay, reason) = $0 { return (attempt, delay, reason) }
            return nil
        }
    }

    /// The requests for `path` the server answered so far.
    func requests(_ path: String) -> [RequestRecord] { server.requestLog.filter { $0.path == path } }

    /// The issue's first asset's partial file.
    func partial(of issue: Issue) -> URL { paths.partialFile(issueID: issue.id, asset: 0) }

    /// Files left in the partial-downloads folder.
    var partials: [String] { (try? FileManager.default.contentsOfDirectory(atPath: paths.partialDownloadsDirectory.path)) ?? [] }

    /// Everything in the issues folder (to see that nothing half-installed is left behind).
    var installedItems: [String] { TestFiles.listing(of: paths.issuesDirectory) }
}
