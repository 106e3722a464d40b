import Foundation
import XCTest
import LocalHTTPServer
import NewsstandCore
import NewsstandTestSupport
import NewsstandUI
@testable import NewsstandRuntime

/// The interface's login loop against a real server that asks for one: the runner answers a 401 with
/// `.loginRequired` (never a hang, never a failure message first), and after `.saveLogin` the retried
/// work succeeds with it; a refresh that meets a 401 asks too.
final class ServerLoginTests: XCTestCase {
    private func wait(until description: String, _ condition: () -> Bool) {
        let deadline = Date().addingTimeInterval(20)
        while !condition() && Date() < deadline { usleep(20_000) }
        XCTAssertTrue(condition(), "timed out waiting for \(description)")
    }

    func testA401AsksForALoginAndTheRetrySucceedsWithIt() throws {
        let library = try TemporaryLibrary(for: self)
        let (paths, store) = (library.paths, library.store)
        let server = LocalHTTPServer(root: TestFiles.sampleLibrary)
        try server.start()
        addTeardownBlock { server.stop() }
        let login = Credentials(user: "reader", password: "s3cret-for-tests")
        server.faults.requiredLogin = RequiredLogin(scheme: .basic, realm: "Members", user: login.user, password: login.password)
        let inbox = MessageInbox()
        let runner = EffectRunner(store: store, paths: paths) { inbox.append($0) }
        let feed = server.url(for: "catalog.plist")

        runner.perform(.subscribe(url: feed.absoluteString))
        wait(until: "a login to be asked for") { !inbox.logins.isEmpty }
        let asked = try XCTUnwrap(inbox.logins.first)
        XCTAssertEqual(asked.host, "127.0.0.1:\(server.port)")
        XCTAssertEqual(asked.realm, "Members")
        XCTAssertEqual(asked.retry, .subscribe(url: feed.absoluteString))
        XCTAssertTrue(inbox.subscriptions.isEmpty, "no failure is reported while the login is asked for")

        runner.perform([.saveLogin(host: asked.host, realm: asked.realm, credentials: login, remember: false), asked.retry])
        wait(until: "the subscription") { !inbox.subscriptions.isEmpty }
        XCTAssertEqual(inbox.subscriptions.first, .success("Kettle & Compass"))

        // Without the login (a new session), a refresh of that feed asks for it again, naming the publication to retry.
        let secondInbox = MessageInbox()
        let second = EffectRunner(store: store, paths: paths) { secondInbox.append($0) }
        let publication = try XCTUnwrap(try store.publications().first)
        second.perform(.refreshPublication(publicationID: publication.id))
        wait(until: "the refresh's login request") { !secondInbox.logins.isEmpty }
        XCTAssertEqual(secondInbox.logins.first?.retry, .refreshPublication(publicationID: publication.id))
        XCTAssertEqual(secondInbox.refreshes.first?.first?.loginRequired, LoginChallenge(host: "127.0.0.1:\(server.port)", realm: "Members"))
    }
}
