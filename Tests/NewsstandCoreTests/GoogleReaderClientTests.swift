import Foundation
import LocalHTTPServer
import XCTest
@testable import NewsstandCore

/// The Google Reader API client against bad servers (a ``LocalHTTPServer`` answering what a real one would not): every
/// answer bounded, said plainly, nothing in the library lost. The real server's side is `FreshRSSAccountTests`.
final class GoogleReaderClientTests: XCTestCase {
    private var server: LocalHTTPServer!

    override func setUpWithError() throws {
        server = LocalHTTPServer()
        try server.start()
        let server = server!
        addTeardownBlock { server.stop() }
    }

    private var api: URL { server.url(for: "api/greader.php") }
    private let contents = "/api/greader.php/reader/api/0/stream/contents/user/-/state/com.google/reading-list"

    private func client(limits: HTTPLimits = GoogleReaderClient.defaultLimits) -> GoogleReaderClient {
        GoogleReaderClient(baseURL: api, authToken: "reader/token", limits: limits)
    }

    /// A page of `stream/contents` with items `ids` of stream `feed/1`, and a continuation when given.
    private func page(_ ids: [Int64], continuation: String?) -> Data {
        let items = ids.map { id in
            #"{"id":"\#(ServerItemID(id).longForm)","timestampUsec":"\#(id)","published":1793700000,"title":"Item \#(id)","origin":{"streamId":"feed/1"},"summary":{"content":"<p>text</p>"}}"#
        }
        let tail = continuation.map { #","continuation":"\#($0)""# } ?? ""
        return Data(#"{"items":[\#(items.joined(separator: ","))]\#(tail)}"#.utf8)
    }

    func testItemIDsAreReadInBothSpellings() {
        let id = ServerItemID(1_795_691_087_253_642)
        XCTAssertEqual(id.longForm, "tag:google.com,2005:reader/item/0006612be961d08a")
        XCTAssertEqual(ServerItemID("tag:google.com,2005:reader/item/0006612be961d08a"), id)
        XCTAssertEqual(ServerItemID("1795691087253642"), id)
        // Google's own ids use all 64 bits: the short form is the signed decimal.
        let high = ServerItemID("tag:google.com,2005:reader/item/f7b2c9a3d1e40a55")
        XCTAssertEqual(high?.shortForm, String(Int64(bitPattern: 0xf7b2c9a3d1e40a55)))
        XCTAssertEqual(high.flatMap { ServerItemID($0.shortForm) }, high)
        XCTAssertEqual(high?.longForm, "tag:google.com,2005:reader/item/f7b2c9a3d1e40a55")
        XCTAssertNil(ServerItemID("tag:google.com,2005:reader/item/xyz"))
        XCTAssertNil(ServerItemID("feed/1"))
    }

    func testAnAccountSessionIsNeverOfferedToAServerAsALogin() {
        let host = CredentialHost(host: "news.example")
        let session = CredentialEntry(host: host, realm: CredentialEntry.accountSessionRealmPrefix + "/api/greader.php",
                                      credentials: Credentials(user: "reader", password: "reader/token"))
        XCTAssertTrue(session.isAccountSession)
        XCTAssertNil(CredentialEntry.best(in: [session], host: "news.example", port: nil, realm: nil))
        // Not even to a server that names the session's realm in its challenge.
        XCTAssertNil(CredentialEntry.best(in: [session], host: "news.example", port: nil, realm: session.realm))
        let login = CredentialEntry(host: host, realm: nil, credentials: Credentials(user: "alice", password: "secret"))
        XCTAssertEqual(CredentialEntry.best(in: [login, session], host: "news.example", port: nil, realm: nil), login)
    }

    func testAServerAnsweringHTMLIsSaidToBeNotTheAPI() throws {
        server.setResource("/api/greader.php/reader/api/0/subscription/list", data: Data("<!DOCTYPE html><html><body>Welcome</body></html>".utf8),
                           contentType: "text/html")
        XCTAssertThrowsError(try client().subscriptions()) { error in
            XCTAssertEqual(error as? AccountError, .notTheAPI(server: "127.0.0.1:\(server.port)", detail: "an HTML page instead of JSON"))
            XCTAssertTrue("\(error)".contains("give the API's address, like https://host/api/greader.php"), "\(error)")
        }
        // A web server that takes no POST there (LocalHTTPServer answers 405) is no login API either.
        server.setResource("/api/greader.php/accounts/ClientLogin", data: Data("<html><body>Log in</body></html>".utf8), contentType: "text/html")
        XCTAssertThrowsError(try GoogleReaderClient.logIn(baseURL: api, user: "reader", password: "pw")) { error in
            XCTAssertEqual(error as? AccountError, .notTheAPI(server: "127.0.0.1:\(server.port)", detail: "it answered 405 to a login"))
        }
        // Nothing there at all.
        XCTAssertThrowsError(try GoogleReaderClient(baseURL: server.url(for: "nothing"), authToken: "t").subscriptions()) { error in
            XCTAssertEqual(error as? AccountError, .notTheAPI(server: "127.0.0.1:\(server.port)", detail: "404 Not Found"))
        }
    }

    func testASlowServerIsStoppedByTheLimits() throws {
        server.setResource("/api/greader.php/reader/api/0/subscription/list", data: Data(#"{"subscriptions":[]}"#.utf8), contentType: "application/json")
        server.faults.stallAfterBytes = 5
        var limits = GoogleReaderClient.defaultLimits
        limits.lowSpeed = HTTPLimits.LowSpeed(bytesPerSecond: 1, seconds: 1)
        limits.deadline = 10
        let started = Date()
        XCTAssertThrowsError(try client(limits: limits).subscriptions()) { error in
            guard case .transfer(let transfer)? = error as? AccountError, case .stalled = transfer else {
                return XCTFail("expected a stall, got \(error)")
            }
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 8)
    }

    func testAContinuationThatComesBackStops() throws {
        server.setResource(contents + "?output=json&n=1000&r=o", data: page([5, 4], continuation: "4"), contentType: "application/json")
        server.setResource(contents + "?output=json&n=1000&r=o&c=4", data: page([3, 2], continuation: "4"), contentType: "application/json")
        let batch = try client().items(since: nil)
        XCTAssertEqual(batch.items.map(\.id.value), [5, 4, 3, 2])
        XCTAssertEqual(batch.problems, ["127.0.0.1:\(server.port) repeated a continuation after 2 pages; stopped there"])
        XCTAssertEqual(server.settledLog().count, 2)
    }

    func testAnItemListThatRepeatsStops() throws {
        server.setResource(contents + "?output=json&n=1000&r=o", data: page([5, 4], continuation: "4"), contentType: "application/json")
        server.setResource(contents + "?output=json&n=1000&r=o&c=4", data: page([5, 4], continuation: "3"), contentType: "application/json")
        let batch = try client().items(since: nil)
        XCTAssertEqual(batch.items.map(\.id.value), [5, 4])
        XCTAssertEqual(batch.problems, ["127.0.0.1:\(server.port) listed the same items again on page 2; stopped there"])
    }

    func testAContinuationThatNeverEndsStopsAtThePageLimit() throws {
        for (index, token) in ["", "a", "b", "c", "d", "e"].enumerated() {
            let query = token.isEmpty ? "" : "&c=\(token)"
            let next = ["a", "b", "c", "d", "e", "f"][index]
            server.setResource(contents + "?output=json&n=1000&r=o\(query)", data: page([Int64(100 - index)], continuation: next), contentType: "application/json")
        }
        let client = client()
        client.maxPages = 4
        let batch = try client.items(since: nil)
        XCTAssertEqual(batch.items.count, 4)
        XCTAssertEqual(batch.problems, ["127.0.0.1:\(server.port) had more than 4 pages of items; the rest waits for the next sync"])
        XCTAssertEqual(client.requestCount, 4)
    }

    func testAFailedSyncLosesNothingAndSaysWhy() throws {
        let (store, _) = try TestSupport.store(for: self)
        let account = try store.addAccount(kind: .googleReader, url: api, user: "reader")
        server.setResource("/api/greader.php/reader/api/0/subscription/list",
                           data: Data(#"{"subscriptions":[{"id":"feed/1","title":"Alpha","url":"http://127.0.0.1:1/alpha.xml","categories":[]}]}"#.utf8),
                           contentType: "application/json")
        server.setResource(contents + "?output=json&n=1000&r=o", data: page([5, 4], continuation: nil), contentType: "application/json")
        server.setResource("/api/greader.php/reader/api/0/stream/items/ids?output=json&s=user%2F-%2Fstate%2Fcom.google%2Freading-list&xt=user%2F-%2Fstate%2Fcom.google%2Fread&n=100000",
                           data: Data(#"{"itemRefs":[{"id":"5"},{"id":"4"}]}"#.utf8), contentType: "application/json")
        server.setResource("/api/greader.php/reader/api/0/stream/items/ids?output=json&s=user%2F-%2Fstate%2Fcom.google%2Fstarred&n=100000",
                           data: Data(#"{"itemRefs":[]}"#.utf8), contentType: "application/json")
        let api = api
        let sync = AccountSync(store: store) { _ in GoogleReaderClient(baseURL: api, authToken: "reader/token") }
        let first = sync.sync(account)
        XCTAssertNil(first.problem)
        XCTAssertEqual(first.requests, 5, "subscriptions, unread counts (this server has none: 404), items, unread ids, starred ids")
        XCTAssertEqual(first.readCheck, .compared)
        let alpha = try XCTUnwrap(try store.publications(accountID: account.id).first)
        XCTAssertEqual(alpha.title, "Alpha")
        XCTAssertEqual(try store.headlines(publicationID: alpha.id).map(\.title), ["Item 5", "Item 4"])

        // Now the server answers HTML where the items were: the sync fails, says why, and the library is as it was.
        // Synced to the server's time (its Date) less the settling margin, past the newest item (5 µs).
        let synced = try XCTUnwrap(try store.accounts().first)
        let syncedTo = try XCTUnwrap(synced.syncedToMicroseconds)
        XCTAssertEqual(Double(syncedTo) / 1_000_000, Date().timeIntervalSince1970 - sync.crawlSettlingSeconds, accuracy: 5)
        server.setResource(contents + "?output=json&n=1000&r=o&ot=\(syncedTo / 1_000_000)", data: Data("<html>maintenance</html>".utf8), contentType: "text/html")
        let second = sync.sync(synced)
        XCTAssertEqual(second.problem, "127.0.0.1:\(server.port) did not answer as the Google Reader API (an HTML page instead of JSON); give the API's address, like https://host/api/greader.php")
        XCTAssertEqual(try store.headlines(publicationID: alpha.id).map(\.title), ["Item 5", "Item 4"])
        XCTAssertEqual(try store.accounts().first?.lastError, second.problem)
        XCTAssertEqual(try store.accounts().first?.syncedToMicroseconds, syncedTo, "where the last good sync got")
    }
}
