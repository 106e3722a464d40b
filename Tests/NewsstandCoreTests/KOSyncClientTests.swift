import Foundation
import XCTest
@testable import NewsstandCore
import NewsstandContent
import LocalHTTPServer

/// The kosync client against the test server over real HTTP on 127.0.0.1, and positions in kosync's terms.
final class KOSyncClientTests: XCTestCase {
    private func server() throws -> KOSyncServer {
        let server = KOSyncServer()
        try server.start()
        addTeardownBlock { server.stop() }
        return server
    }

    private let key = try! KOSyncClient.key(forPassword: "hunter2")  // libcrypto is a test dependency (make test installs it)

    func testRegisterAuthorizePushAndPull() throws {
        let server = try server()
        let client = KOSyncClient(server: server.baseURL, user: "alice", key: key)
        XCTAssertEqual(key, "2ab96390c7dbe3439de74d0c9b0b1767")
        XCTAssertThrowsError(try client.authorize()) { XCTAssertEqual($0 as? KOSyncClient.Failure, .unauthorized(server: "127.0.0.1:\(server.http.port)")) }
        try client.register()
        XCTAssertThrowsError(try client.register()) { XCTAssertEqual($0 as? KOSyncClient.Failure, .nameTaken("alice")) }
        try client.authorize()
        XCTAssertNil(try client.pull(document: "0123456789abcdef0123456789abcdef"), "an unknown document is no position, not an error")

        server.now = { 1_790_000_000 }
        let position = ProgressSyncPosition(document: "0123456789abcdef0123456789abcdef", progress: "/body/DocFragment[2]/body/p[3]/text().4",
                                            percentage: 0.123456)
        XCTAssertEqual(try client.push(position, device: "laptop", deviceID: "D1"), 1_790_000_000)
        let stored = try XCTUnwrap(server.record(user: "alice", document: position.document))
        XCTAssertEqual(stored.progress, position.progress)
        XCTAssertEqual(stored.percentage, 0.1235, "rounded to four places as KOReader does")
        XCTAssertEqual(stored.deviceID, "D1")
        let pulled = try XCTUnwrap(try client.pull(document: position.document))
        XCTAssertEqual(pulled, .init(progress: position.progress, percentage: 0.1235, device: "laptop", deviceID: "D1", timestamp: 1_790_000_000))
        // Every request said which API it wants and sent no password.
        let log = server.http.settledLog()
        XCTAssertFalse(log.isEmpty)
        for record in log {
            XCTAssertEqual(record.headers["accept"], KOSyncClient.acceptType, record.path)
            XCTAssertNil(record.headers["authorization"], record.path)
            XCTAssertFalse(record.headers.values.contains { $0.contains("hunter2") })
        }
    }

    func testRegistrationClosedIsSaidSo() throws {
        let server = try server()
        server.registrationEnabled = false
        XCTAssertThrowsError(try KOSyncClient(server: server.baseURL, user: "bob", key: key).register()) { error in
            XCTAssertEqual(error as? KOSyncClient.Failure, .registrationClosed(server: "127.0.0.1:\(server.http.port)"))
            XCTAssertTrue("\(error)".contains("registration is off"), "\(error)")
        }
    }

    /// A progress that is a number (a page) comes back a string; a server that sends it as a JSON number works too.
    func testPageNumbersStayStrings() throws {
        let server = try server()
        server.addUser("alice", key: key)
        server.store("alice", document: "doc_1", progress: "56", percentage: 0.5, device: "Kobo", deviceID: "K")
        let pulled = try KOSyncClient(server: server.baseURL, user: "alice", key: key).pull(document: "doc_1")
        XCTAssertEqual(pulled?.progress, "56")
        XCTAssertNil(pulled?.deviceID == "K" ? nil : "device id lost")
    }

    func testFaultsAreFailuresWorthRetryingOrNot() throws {
        let server = try server()
        server.addUser("alice", key: key)
        let client = KOSyncClient(server: server.baseURL, user: "alice", key: key)
        let position = ProgressSyncPosition(document: "abc", progress: "1", percentage: 0.1)
        server.failure = 500
        XCTAssertThrowsError(try client.push(position, device: "d", deviceID: "i")) { error in
            XCTAssertEqual((error as? KOSyncClient.Failure)?.isWorthRetrying, true, "\(error)")
        }
        server.failure = nil
        server.malformedBodies = true
        XCTAssertThrowsError(try client.pull(document: "abc")) { error in
            XCTAssertEqual((error as? KOSyncClient.Failure)?.isWorthRetrying, true)
            XCTAssertTrue("\(error)".contains("not kosync's JSON"), "\(error)")
        }
        server.malformedBodies = false
        XCTAssertThrowsError(try KOSyncClient(server: server.baseURL, user: "alice", key: "wrong").push(position, device: "d", deviceID: "i")) { error in
            XCTAssertEqual((error as? KOSyncClient.Failure)?.isWorthRetrying, false, "a 401 is never retried blindly")
        }
        // An id the server cannot give back is not asked for.
        XCTAssertThrowsError(try client.pull(document: "has-a-hyphen")) { XCTAssertEqual(($0 as? KOSyncClient.Failure)?.isWorthRetrying, false) }
        let port = server.http.port
        server.stop()
        XCTAssertThrowsError(try KOSyncClient(server: URL(string: "http://127.0.0.1:\(port)")!, user: "alice", key: key).pull(document: "abc")) { error in
            XCTAssertEqual((error as? KOSyncClient.Failure)?.isWorthRetrying, true, "a server that is down: later")
        }
    }

    // MARK: Positions in kosync's terms

    private func sampleBook() throws -> EPUBBook {
        let folder = try TestFiles.scratchFolder(for: self).appendingPathComponent("autumn")
        try ArchiveExtractor.extract(archive: TestSupport.sampleIssue("2025-autumn"), into: folder)
        return try IssueContent.openBook(folder: folder)
    }

    func testAnEPUBPositionGoesThereAndBack() throws {
        let place = ProgressSyncPlace(book: try sampleBook())
        let position = ReadingPosition(articleIndex: 1, blockIndex: 5, characterOffset: 20)
        let (progress, percentage) = place.progress(of: position)
        XCTAssertTrue(progress.hasPrefix("/body/DocFragment[2]/body/p[4]/text()"), progress)
        XCTAssertGreaterThan(percentage, 0.3)
        XCTAssertLessThan(percentage, 0.7)
        XCTAssertEqual(place.position(progress: progress, percentage: percentage), position)
        // Percentages grow through the issue.
        let later = place.progress(of: ReadingPosition(articleIndex: 2, blockIndex: 0)).percentage
        XCTAssertGreaterThan(later, percentage)
        XCTAssertEqual(place.progress(of: ReadingPosition(articleIndex: 0, blockIndex: 0)).percentage, 0)
    }

    /// A pointer whose element is not in the chapter goes to that chapter (by percentage when it falls in it); one that
    /// is not a pointer at all goes by the percentage.
    func testAnUnresolvedPointerFallsBackToChapterAndPercentage() throws {
        let place = ProgressSyncPlace(book: try sampleBook())
        XCTAssertEqual(place.position(progress: "/body/DocFragment[3]/body/div[9]/p[2]/text().0", percentage: 0.01).articleIndex, 2)
        XCTAssertEqual(place.position(progress: "/body/DocFragment[3]/body/div[9]/p[2]/text().0", percentage: 0.01).blockIndex, 0)
        XCTAssertEqual(place.position(progress: "garbage", percentage: 0.99).articleIndex, 2)
        XCTAssertEqual(place.position(progress: "garbage", percentage: 0).articleIndex, 0)
    }

    func testPagedIssuesUseThePageNumber() throws {
        let pages = (1...10).map { EPUBArticle(title: "Page \($0)", file: URL(fileURLWithPath: "/x.pdf"), mediaType: IssueContent.pdfMediaType) }
        let book = EPUBBook(title: "PDF", creator: nil, language: nil, version: "pdf", articles: pages, tableOfContents: [], coverImage: nil)
        let place = ProgressSyncPlace(book: book) { _ in [] }
        XCTAssertEqual(place.progress(of: ReadingPosition(articleIndex: 3, blockIndex: 2)).progress, "4")
        XCTAssertEqual(place.progress(of: ReadingPosition(articleIndex: 3, blockIndex: 2)).percentage, 0.4)
        XCTAssertEqual(place.position(progress: "7", percentage: 0.1), ReadingPosition(articleIndex: 6, blockIndex: 0))
        XCTAssertEqual(place.position(progress: "99", percentage: 0.1).articleIndex, 9)
        XCTAssertEqual(place.position(progress: "/body/DocFragment[2]", percentage: 0.5).articleIndex, 4)
    }
}

/// What to do with the server's place: ours or the same place, nothing; ahead, as progress-sync-forward says; behind,
/// as progress-sync-backward says.
final class ProgressSyncDecisionTests: XCTestCase {
    private func service(forward: ProgressSyncSettings.Forward, backward: ProgressSyncSettings.Backward) throws -> ProgressSyncService {
        let (store, paths) = try TestSupport.store(for: self)
        var settings = ProgressSyncSettings()
        settings.server = URL(string: "http://127.0.0.1:9")
        settings.forward = forward
        settings.backward = backward
        return ProgressSyncService(settings: settings, store: store, paths: paths, credentials: CredentialStore(paths: paths))
    }

    private func remote(_ percentage: Double, progress: String = "/body/DocFragment[2]", ours: Bool = false) -> ProgressSyncService.Remote {
        .init(position: ReadingPosition(articleIndex: 1, blockIndex: 0), percentage: percentage, device: "Kobo", articleTitle: "Two",
              timestamp: 1, isOurs: ours, progress: progress)
    }

    func testDirectionsFollowTheSettings() throws {
        let local = ProgressSyncPosition(document: "d", progress: "/body/DocFragment[1]", percentage: 0.4)
        let defaults = try service(forward: .ask, backward: .ignore)
        XCTAssertEqual(defaults.decide(remote(0.6), local: local), .ask)
        XCTAssertEqual(defaults.decide(remote(0.2), local: local), .ignore, "behind: ignored by default")
        XCTAssertEqual(defaults.decide(remote(0.6, ours: true), local: local), .ignore, "this device's own place")
        XCTAssertEqual(defaults.decide(remote(0.40001), local: local), .ignore, "the same place, rounded as KOReader does")
        XCTAssertEqual(defaults.decide(remote(0.9, progress: "/body/DocFragment[1]"), local: local), .ignore, "the same progress")
        XCTAssertEqual(defaults.decide(remote(0.6), local: nil), .ask, "nothing read here yet")
        let other = try service(forward: .jump, backward: .ask)
        XCTAssertEqual(other.decide(remote(0.6), local: local), .jump)
        XCTAssertEqual(other.decide(remote(0.2), local: local), .ask)
        XCTAssertEqual(try service(forward: .ignore, backward: .ask).decide(remote(0.6), local: local), .ignore)
    }

    func testTheDeviceIDIsMadeOnceAndKept() throws {
        let service = try service(forward: .ask, backward: .ignore)
        let id = service.deviceID()
        XCTAssertEqual(id.count, 32)
        XCTAssertEqual(service.deviceID(), id)
        XCTAssertEqual(try service.store.setting("progress_sync_device_id"), id)
    }
}
