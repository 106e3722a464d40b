import Foundation
import LocalHTTPServer
import NewsstandTestSupport
import XCTest

/// A feed behind a login, end to end: `subscribe` says plainly that the server asks for a login (at once,
/// never hanging) and changes nothing; after `newsstand login` the same command subscribes; and the same
/// against a real calibre content server.
final class ServerLoginEndToEndTests: EndToEndTestCase {
    private let password = "Tr0ub4dor&3-never-shown"

    private func publicationCount(_ environment: [String: String]) throws -> Int {
        let subscriptions = try TestEnvironment.run(["subscriptions", "--json"], environment: environment)
        XCTAssertEqual(subscriptions.status, 0, subscriptions.errors)
        XCTAssertFalse(subscriptions.output.contains(password))
        let rows = try JSONSerialization.jsonObject(with: Data(subscriptions.output.utf8)) as? [Any]
        return try XCTUnwrap(rows, subscriptions.output).count
    }

    func testSubscribingToAFeedBehindALoginAsksForOneThenWorksAfterLogin() throws {
        let server = try startSampleServer()
        server.faults.requiredLogin = RequiredLogin(scheme: .digest, realm: "Members", user: "reader", password: password)
        let environment = TestEnvironment.environment(home: home)
        let feed = server.url(for: "catalog.plist").absoluteString

        let started = Date()
        let refused = try TestEnvironment.run(["subscribe", feed], environment: environment)
        XCTAssertEqual(refused.status, 1)
        XCTAssertLessThan(Date().timeIntervalSince(started), 30, "a 401 is an answer, never a hang")
        XCTAssertTrue(refused.errors.contains("asks for a login"), refused.errors)
        XCTAssertTrue(refused.errors.contains("newsstand login \(feed)"), "the way out is named: \(refused.errors)")
        XCTAssertEqual(try publicationCount(environment), 0, "nothing was subscribed")

        let login = try TestEnvironment.run(["login", feed, "--user", "reader", "--password-stdin"], input: password + "\n", environment: environment)
        XCTAssertEqual(login.status, 0, login.errors)
        let subscribed = try TestEnvironment.run(["subscribe", feed], environment: environment)
        XCTAssertEqual(subscribed.status, 0, subscribed.errors)
        XCTAssertTrue(subscribed.output.contains("Subscribed to Kettle & Compass"), subscribed.output)
        XCTAssertEqual(try publicationCount(environment), 1)
        XCTAssertTrue(server.settledLog().contains { $0.status == 200 && $0.headers["authorization"]?.hasPrefix("Digest ") == true })
        for output in [refused.output, refused.errors, login.output, login.errors, subscribed.output, subscribed.errors] {
            XCTAssertFalse(output.contains(password))
        }
    }

    func testACalibreLibraryBehindALogin() throws {
        let books = try FileManager.default.contentsOfDirectory(at: TestEnvironment.sampleLibrary.appendingPathComponent("issues"),
                                                                includingPropertiesForKeys: nil).filter { $0.pathExtension == "epub" }.sorted { $0.path < $1.path }
        XCTAssertGreaterThanOrEqual(books.count, 2)
        let calibre = try CalibreServer(for: self, books: Array(books.prefix(2)), login: (user: "reader", password: password))
        let environment = TestEnvironment.environment(home: home)
        let feed = calibre.newestFeed.absoluteString

        let refused = try TestEnvironment.run(["subscribe", feed], environment: environment)
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.errors.contains("127.0.0.1 asks for a login (“calibre”)"), refused.errors)
        XCTAssertEqual(try publicationCount(environment), 0)

        let login = try TestEnvironment.run(["login", calibre.opdsRoot.absoluteString, "--user", "reader", "--password-stdin"],
                                            input: password + "\n", environment: environment)
        XCTAssertEqual(login.status, 0, login.errors)
        let subscribed = try TestEnvironment.run(["subscribe", feed], environment: environment)
        XCTAssertEqual(subscribed.status, 0, subscribed.errors)
        XCTAssertTrue(subscribed.output.contains(": 2 issues"), subscribed.output)
        let list = try TestEnvironment.run(["list", "--json"], environment: environment)
        XCTAssertEqual(list.status, 0, list.errors)
        XCTAssertFalse(list.output.contains(password))

        // An issue downloads from behind the login too, and installs.
        let issues = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(list.output.utf8)) as? [[String: Any]], list.output)
        let name = try XCTUnwrap(issues.first?["name"] as? String)
        let download = try TestEnvironment.run(["download", name], environment: environment)
        XCTAssertEqual(download.status, 0, download.errors)
        let after = try TestEnvironment.run(["list", "--json"], environment: environment)
        let states = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(after.output.utf8)) as? [[String: Any]])
        XCTAssertEqual(states.first { $0["name"] as? String == name }?["state"] as? String, "available", after.output)
        XCTAssertFalse(download.output.contains(password) || download.errors.contains(password))
    }
}
