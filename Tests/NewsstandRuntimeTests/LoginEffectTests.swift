import Foundation
import XCTest
import NewsstandCore
import NewsstandTestSupport
import NewsstandUI
@testable import NewsstandRuntime

/// The runner's side of logins: `.saveLogin` (saved, or kept for the session) and a login typed in a feed URL.
final class LoginEffectTests: XCTestCase {
    var paths: LibraryPaths!
    var store: LibraryStore!
    let inbox = MessageInbox()

    override func setUpWithError() throws {
        try super.setUpWithError()
        let library = try TemporaryLibrary(for: self)
        paths = library.paths
        store = library.store
    }

    func makeRunner() -> EffectRunner {
        let inbox = inbox
        return EffectRunner(store: store, paths: paths) { inbox.append($0) }
    }

    func wait(until description: String, _ condition: () -> Bool) {
        let deadline = Date().addingTimeInterval(10)
        while !condition() && Date() < deadline { usleep(20_000) }
        XCTAssertTrue(condition(), "timed out waiting for \(description)")
    }

    let alice = Credentials(user: "alice", password: "hunter2")

    func testASavedLoginIsThereForTheRetryAtOnceAndOnDiskBeforeQuitting() throws {
        let runner = makeRunner()
        runner.perform(.saveLogin(host: "127.0.0.1:8080", realm: "Library", credentials: alice, remember: true))
        XCTAssertEqual(runner.credentials.credentials(forHost: "127.0.0.1", port: 8080, realm: "Library"), alice, "found by the work retried right after")
        runner.perform(.quit)
        XCTAssertEqual(CredentialStore(paths: paths).credentials(forHost: "127.0.0.1", port: 8080, realm: "Library"), alice)
        XCTAssertNil(CredentialStore(paths: paths).credentials(forHost: "127.0.0.1", port: 8080, realm: "Other"), "saved for its realm")
        wait(until: "the report") { !inbox.reports.isEmpty }
        XCTAssertEqual(inbox.reports, [StatusMessage("Saved the login for alice at 127.0.0.1:8080.")])
        XCTAssertEqual(inbox.happenings, [.loginSaved(user: "alice", host: "127.0.0.1:8080")], "said as a fact; the interface words it")
        XCTAssertEqual(try mode(paths.credentialsFile), 0o600)
    }

    func testALoginNotToBeSavedIsKeptInMemoryOnly() throws {
        let runner = makeRunner()
        runner.perform(.saveLogin(host: "example.com", realm: nil, credentials: alice, remember: false))
        runner.perform(.quit)
        XCTAssertEqual(runner.credentials.credentials(forHost: "example.com", port: nil, realm: "any"), alice)
        XCTAssertFalse(FileManager.default.fileExists(atPath: paths.credentialsFile.path))
        XCTAssertEqual(inbox.reports, [StatusMessage("Using the login for alice at example.com until Newsstand quits.")])
    }

    func testALoginThatCannotBeSavedIsUsedForTheSessionAndSaysWhy() throws {
        let credentials = CredentialStore(paths: paths)
        try credentials.save(Credentials(user: "old", password: "older"), for: CredentialHost(host: "elsewhere.example"))
        XCTAssertEqual(chmod(paths.credentialsFile.path, 0o644), 0)
        let runner = makeRunner()
        runner.perform(.saveLogin(host: "example.com", realm: nil, credentials: alice, remember: true))
        runner.perform(.quit)
        XCTAssertEqual(runner.credentials.credentials(forHost: "example.com", port: nil, realm: nil), alice)
        wait(until: "the report") { !inbox.reports.isEmpty }
        let report = try XCTUnwrap(inbox.reports.first)
        XCTAssertTrue(report.isError)
        XCTAssertTrue(report.text.hasPrefix("The login for alice at example.com is used until Newsstand quits but was not saved: the saved logins in "), report.text)
        XCTAssertFalse(report.text.contains("hunter2"))
    }

    func testSubscribingToAURLWithALoginMovesTheLoginToTheStore() throws {
        let runner = makeRunner()
        let catalog = TestFiles.sampleLibrary.appendingPathComponent("catalog.plist")
        runner.perform(.subscribe(url: "file://alice:hunter%32@localhost" + catalog.path))
        wait(until: "the subscription") { !inbox.subscriptions.isEmpty }
        XCTAssertEqual(inbox.subscriptions.first.map { (try? $0.get()) ?? "failed" }, "Kettle & Compass")
        XCTAssertEqual(try store.publications().map(\.feedURL.absoluteString), ["file://localhost" + catalog.path])
        XCTAssertEqual(CredentialStore(paths: paths).credentials(forHost: "localhost", port: nil, realm: nil), alice)
        XCTAssertEqual(runner.credentials.credentials(forHost: "localhost", port: nil, realm: nil), alice)
    }

    func testAFailedSubscriptionNamesTheURLWithoutItsLogin() throws {
        let runner = makeRunner()
        let missing = paths.dataDirectory.appendingPathComponent("missing.plist")
        runner.perform(.subscribe(url: "file://alice:hunter2@localhost" + missing.path))
        wait(until: "the subscription") { !inbox.subscriptions.isEmpty }
        guard case .failure(let failure) = inbox.subscriptions.first else { return XCTFail("subscribed to a missing file") }
        XCTAssertTrue(failure.reason.hasPrefix("cannot subscribe to file://localhost\(missing.path): "), failure.reason)
        XCTAssertFalse(failure.reason.contains("hunter2"))
    }

    private func mode(_ url: URL) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int) ?? -1
    }
}
