import Foundation
import XCTest
import LocalHTTPServer
import NewsstandContent
import NewsstandCore
import NewsstandTestSupport
import NewsstandUI
@testable import NewsstandRuntime

/// Progress sync in the running shelf, against the test kosync server on 127.0.0.1: the place fetched on opening
/// (offered, from another device), places sent, and a server that is down, failing or refusing the login.
final class ProgressSyncWorkTests: XCTestCase {
    private let key = try! KOSyncClient.key(forPassword: "hunter2")  // libcrypto is a test dependency (make test installs it)

    private struct Setup {
        let library: TemporaryLibrary
        let issue: Issue
        let document: String
        let server: KOSyncServer
        let inbox: MessageInbox
        let runner: EffectRunner
    }

    private func makeSetup(forward: ProgressSyncSettings.Forward = .ask) throws -> Setup {
        let library = try TemporaryLibrary(for: self)
        let server = KOSyncServer()
        try server.start()
        addTeardownBlock { server.stop() }
        server.addUser("alice", key: key)
        let publication = try library.store.addPublication(title: "Kettle", feedURL: URL(string: "https://example.com/feed")!)
        let issue = try XCTUnwrap(try library.store.upsertIssues([CatalogEntry(name: "autumn", title: "Autumn", date: Date(),
                                                                              contentURLs: [URL(string: "https://example.com/autumn.epub")!])],
                                                                 publicationID: publication.id).first)
        let archive = TestFiles.sampleLibrary.appendingPathComponent("issues/2025-autumn.epub")
        let identity = try XCTUnwrap(try IssueInstaller.install(assets: [archive], sourceURLs: [archive], for: issue,
                                                                into: library.paths.folder(for: issue, of: publication)))
        try library.store.setDownloadedFileIdentity(identity, issueID: issue.id)
        try library.store.setState(.available, issueID: issue.id)
        let credentials = CredentialStore(paths: library.paths)
        try credentials.save(Credentials(user: "alice", password: key), for: CredentialHost(url: server.baseURL)!, realm: CredentialEntry.progressSyncRealm)
        var configuration = Configuration()
        configuration.progressSync.server = server.baseURL
        configuration.progressSync.device = "laptop"
        configuration.progressSync.forward = forward
        let inbox = MessageInbox()
        let runner = EffectRunner(store: library.store, paths: library.paths, configuration: configuration, credentialStore: credentials) { inbox.append($0) }
        return Setup(library: library, issue: issue, document: identity.partialMD5, server: server, inbox: inbox, runner: runner)
    }

    private func wait(_ what: String, timeout: TimeInterval = 15, until condition: () -> Bool) {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition() && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        XCTAssertTrue(condition(), what)
    }

    /// Kobo wrote a place in the second chapter the way KOReader does: opening offers it, and the offer resolves there.
    func testOpeningOffersAnotherDevicesPlace() throws {
        let setup = try makeSetup()
        setup.server.store("alice", document: setup.document, progress: "/body/DocFragment[2]/body/p[3]/text().11", percentage: 0.62,
                           device: "Kobo", deviceID: "KOBO1")
        setup.runner.perform(.openIssue(issueID: setup.issue.id))
        wait("the place is offered") { !setup.inbox.progressOffers.isEmpty }
        let offer = try XCTUnwrap(setup.inbox.progressOffers.first)
        XCTAssertEqual(offer.device, "Kobo")
        XCTAssertEqual(offer.position.articleIndex, 1)
        XCTAssertEqual(offer.articleTitle, "Saturday at the Repair Café")
        XCTAssertFalse(offer.jump)
        XCTAssertEqual(offer.question, "Kobo is at 62%, “Saturday at the Repair Café”: go there? y/n")
    }

    func testOurOwnPlaceIsNotOfferedAndForwardJumpJumps() throws {
        let setup = try makeSetup(forward: .jump)
        let service = ProgressSyncService(settings: setup.runner.configuration.progressSync, store: setup.library.store, paths: setup.library.paths,
                                          credentials: setup.runner.credentialStore)
        setup.server.store("alice", document: setup.document, progress: "/body/DocFragment[3]", percentage: 0.9, device: "laptop",
                           deviceID: service.deviceID())
        setup.runner.perform(.openIssue(issueID: setup.issue.id))
        Thread.sleep(forTimeInterval: 1)
        XCTAssertTrue(setup.inbox.progressOffers.isEmpty, "a place written by this device is ignored")
        setup.server.store("alice", document: setup.document, progress: "/body/DocFragment[3]", percentage: 0.9, device: "Kobo", deviceID: "K")
        setup.runner.perform(.openIssue(issueID: setup.issue.id))
        wait("offered") { !setup.inbox.progressOffers.isEmpty }
        XCTAssertEqual(setup.inbox.progressOffers.first?.jump, true)
        XCTAssertEqual(setup.inbox.progressOffers.first?.position.articleIndex, 2)
    }

    /// Places saved are sent (a new article at once); with the server down one is kept, said plainly, and sent later.
    func testPlacesAreSentAndKeptWhileTheServerIsDown() throws {
        let setup = try makeSetup()
        setup.runner.perform(.openIssue(issueID: setup.issue.id))
        Thread.sleep(forTimeInterval: 0.5)
        setup.runner.perform(.saveReadingPosition(issueID: setup.issue.id, ReadingPosition(articleIndex: 1, blockIndex: 3)))
        wait("sent") { setup.server.record(user: "alice", document: setup.document) != nil }
        let record = try XCTUnwrap(setup.server.record(user: "alice", document: setup.document))
        XCTAssertEqual(record.device, "laptop")
        XCTAssertTrue(record.progress.hasPrefix("/body/DocFragment[2]/body/p[3]"), record.progress)

        setup.server.failure = 500
        setup.runner.perform(.saveReadingPosition(issueID: setup.issue.id, ReadingPosition(articleIndex: 2, blockIndex: 0)))
        wait("the failure is said") { setup.inbox.reports.contains { $0.text.contains("kept and sent later") } }
        XCTAssertTrue(try setup.library.store.queuedProgressPush(issueID: setup.issue.id)?.progress.hasPrefix("/body/DocFragment[3]") == true)
        setup.server.failure = nil
        setup.runner.perform(.pushProgress(issueID: setup.issue.id))
        wait("sent later") { setup.server.record(user: "alice", document: setup.document)?.progress.hasPrefix("/body/DocFragment[3]") == true }
        wait("the queue is empty") { (try? setup.library.store.queuedProgressPush(issueID: setup.issue.id)) == .some(nil) }
        XCTAssertTrue(setup.inbox.reports.contains { $0.text.contains("works again") })
    }

    /// A slow server never holds up opening or saving; quitting waits two seconds at most, and the place stays queued.
    func testASlowServerNeverHoldsUpReading() throws {
        let setup = try makeSetup()
        setup.server.delay = 6
        let started = Date()
        setup.runner.perform(.openIssue(issueID: setup.issue.id))
        setup.runner.perform(.saveReadingPosition(issueID: setup.issue.id, ReadingPosition(articleIndex: 1, blockIndex: 1)))
        setup.runner.finishPendingSaves()
        XCTAssertLessThan(Date().timeIntervalSince(started), 1, "nothing waited for the server")
        setup.runner.perform(.quit)
        XCTAssertLessThan(Date().timeIntervalSince(started), 4, "quitting waits a bounded time")
        XCTAssertNotNil(try setup.library.store.queuedProgressPush(issueID: setup.issue.id), "kept to send later")
    }

    /// A refused login (401) asks for the login in the program and stops trying; a wrong one given there is said and
    /// saves nothing; the right one is checked, saved as the key (never the password), and the places kept are sent.
    func testA401AsksForTheLoginAndStopsTryingUntilOneIsGiven() throws {
        let setup = try makeSetup()
        let newPassword = "a new password"
        setup.server.addUser("alice", key: try KOSyncClient.key(forPassword: newPassword))
        setup.runner.perform(.openIssue(issueID: setup.issue.id))
        let host = CredentialHost(url: setup.server.baseURL)!.description
        wait("the login is asked for") { !setup.inbox.progressSyncLoginRequests.isEmpty }
        XCTAssertEqual(setup.inbox.progressSyncLoginRequests.first?.host, host)
        XCTAssertEqual(setup.inbox.progressSyncLoginRequests.first?.retry, .resumeProgressSync)
        let requests = setup.server.http.settledLog().count
        setup.runner.perform(.saveReadingPosition(issueID: setup.issue.id, ReadingPosition(articleIndex: 1, blockIndex: 1)))
        setup.runner.perform(.pushProgress(issueID: setup.issue.id))
        Thread.sleep(forTimeInterval: 0.5)
        XCTAssertEqual(setup.server.http.settledLog().count, requests, "not retried blindly")

        let credentials = CredentialStore(paths: setup.library.paths)
        setup.runner.perform([.saveLogin(host: host, realm: CredentialEntry.progressSyncRealm,
                                         credentials: Credentials(user: "alice", password: "wrong"), remember: true), .resumeProgressSync])
        wait("a wrong login is said") { setup.inbox.reports.contains { $0.isError && $0.text.hasPrefix("Progress sync did not log in as alice") } }
        XCTAssertNil(setup.server.record(user: "alice", document: setup.document), "nothing sent with a refused login")
        XCTAssertEqual(ProgressSyncService.savedLogin(for: setup.server.baseURL, in: credentials)?.password, key, "the old key is left as it was")

        setup.runner.perform([.saveLogin(host: host, realm: CredentialEntry.progressSyncRealm,
                                         credentials: Credentials(user: "alice", password: newPassword), remember: true), .resumeProgressSync])
        wait("the kept place is sent") { setup.server.record(user: "alice", document: setup.document)?.progress.hasPrefix("/body/DocFragment[2]") == true }
        XCTAssertEqual(ProgressSyncService.savedLogin(for: setup.server.baseURL, in: credentials)?.password,
                       try KOSyncClient.key(forPassword: newPassword), "saved as the key")
        let saved = try String(contentsOf: setup.library.paths.credentialsFile, encoding: .utf8)
        XCTAssertFalse(saved.contains(newPassword), "the password itself is never saved")
        XCTAssertFalse(setup.inbox.reports.contains { $0.text.contains(newPassword) || $0.text.contains("wrong") || $0.text.contains(key) })
    }
}

extension MessageInbox {
    /// The logins asked for by progress sync (its realm), with the work to retry.
    var progressSyncLoginRequests: [(host: String, retry: Effect)] {
        all.compactMap {
            if case .loginRequired(let host, CredentialEntry.progressSyncRealm?, let retry) = $0 { (host, retry) } else { nil }
        }
    }

    var progressOffers: [ProgressSyncOffer] {
        all.compactMap { if case .progressSyncOffered(let offer) = $0 { offer } else { nil } }
    }
}
