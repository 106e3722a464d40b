import Foundation
import XCTest
@testable import NewsstandCore
@_exported import NewsstandTestSupport
import LocalHTTPServer
import Synchronization

/// Shared helpers: scratch folders, the package's sample library, the shared corpora, and small builders.
enum TestSupport {
    /// A sample issue EPUB (`SampleLibrary/issues/NAME.epub`).
    static func sampleIssue(_ name: String = "2025-autumn") -> URL {
        TestFiles.sampleLibrary.appendingPathComponent("issues/\(name).epub")
    }

    /// The sample library's catalog as a local subscription: its issues (`sampleIssue`) and covers are below its
    /// folder, so a publication subscribed to it may copy them (`DocumentOrigin`).
    static var sampleCatalog: URL { TestFiles.sampleLibrary.appendingPathComponent("catalog.plist") }

    /// Library paths (data, config, cache) inside a fresh scratch folder.
    static func paths(for testCase: XCTestCase) throws -> LibraryPaths {
        let root = try TestFiles.scratchFolder(for: testCase)
        let paths = LibraryPaths(dataDirectory: root.appendingPathComponent("data", isDirectory: true),
                                 configDirectory: root.appendingPathComponent("config", isDirectory: true),
                                 cacheDirectory: root.appendingPathComponent("cache", isDirectory: true))
        try paths.createDirectories()
        return paths
    }

    /// A library store on a fresh SQLite file, closed when the test finishes.
    static func store(for testCase: XCTestCase, paths: LibraryPaths? = nil) throws -> (LibraryStore, LibraryPaths) {
        let paths = try paths ?? Self.paths(for: testCase)
        let store = try LibraryStore(file: paths.databaseFile)
        testCase.addTeardownBlock { store.close() }
        return (store, paths)
    }

    /// A started server on 127.0.0.1, stopped when the test finishes.
    static func server(for testCase: XCTestCase, root: URL? = nil) throws -> LocalHTTPServer {
        let server = LocalHTTPServer(root: root)
        try server.start()
        testCase.addTeardownBlock { server.stop() }
        return server
    }

    /// A catalog entry with sensible defaults.
    static func entry(_ name: String, title: String? = nil, date: Date = Date(timeIntervalSince1970: 1_700_000_000),
                      content: [URL]? = nil, cover: URL? = nil, size: Int64? = nil, sha256: String? = nil) -> CatalogEntry {
        CatalogEntry(name: name, title: title ?? "Issue \(name)", date: date, coverURL: cover,
                     contentURLs: content ?? [URL(string: "https://example.com/\(name).epub")!],
                     expectedSize: size, expectedSHA256: sha256)
    }

    /// An XML property list of `object`.
    static func xmlPlist(_ object: Any) throws -> Data {
        try PropertyListSerialization.data(fromPropertyList: object, format: .xml, options: 0)
    }

    /// An issue dictionary as a catalog writes it.
    static func catalogItem(_ name: String, content: Any, title: String? = nil, date: Any = "2025-03-01T12:00:00Z",
                            cover: String? = nil, size: Int? = nil, sha256: String? = nil) -> [String: Any] {
        var item: [String: Any] = ["Name": name, "Title": title ?? "Issue \(name)", "Date": date, "Content": content]
        if let cover { item["Cover"] = cover }
        if let size { item["Size"] = size }
        if let sha256 { item["SHA256"] = sha256 }
        return item
    }

}

/// Collects events from a background queue and lets a test wait for a condition on them.
final class EventLog<Event: Sendable>: Sendable {
    private let events = Mutex<[Event]>([])
    /// Wakes the waiters when an event arrives; held while one is added, so a waiter never misses it.
    private let arrivals = NSCondition()

    func append(_ event: Event) {
        arrivals.withLock {
            events.withLock { $0.append(event) }
            arrivals.broadcast()
        }
    }

    var all: [Event] { events.withLock { $0 } }

    /// Waits until `predicate` holds for the events so far; false on timeout.
    @discardableResult
    func wait(timeout: TimeInterval = 30, until predicate: ([Event]) -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        return arrivals.withLock {
            while !predicate(all) {
                if !arrivals.wait(until: deadline) { return predicate(all) }
            }
            return true
        }
    }
}

extension DownloadEvent {
    var issueID: Int64 {
        switch self {
        case .queued(let id, _), .started(let id, _), .progressed(let id, _, _, _, _), .paused(let id),
             .retrying(let id, _, _, _), .installing(let id), .installed(let id), .failed(let id, _), .cancelled(let id),
             .waiting(let id, _): id
        }
    }

    /// Installed, failed or cancelled.
    var isTerminal: Bool {
        switch self {
        case .installed, .failed, .cancelled: true
        default: false
        }
    }
}
