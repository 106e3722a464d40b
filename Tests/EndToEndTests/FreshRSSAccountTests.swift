import Foundation
import LocalHTTPServer
import NewsstandCore
import NewsstandTestSupport
import XCTest

/// Accounts against a real FreshRSS (issue 23): its Google Reader API through ``GoogleReaderClient``, with feeds
/// FreshRSS fetches from a ``LocalHTTPServer`` on 127.0.0.1.
final class FreshRSSAccountTests: EndToEndTestCase {
    /// A feed of two items: an issue (an EPUB enclosure, the sample's) and a headline.
    static func feed(on server: LocalHTTPServer, title: String, prefix: String) -> Data {
        let epub = server.url(for: "issues/2025-spring.epub").absoluteString
        return Data("""
        <?xml version="1.0"?><rss version="2.0"><channel><title>\(title)</title><link>\(server.baseURL.absoluteString)</link><description>d</description>
        <item><title>\(prefix) issue</title><link>\(server.url(for: "\(prefix)-issue.html").absoluteString)</link><guid>\(prefix)-1</guid>
        <pubDate>Mon, 02 Nov 2026 10:00:00 GMT</pubDate><description>&lt;p&gt;The \(prefix) issue's text&lt;/p&gt;</description>
        <enclosure url="\(epub)" type="application/epub+zip" length="1234"/></item>
        <item><title>\(prefix) headline</title><link>\(server.url(for: "\(prefix)-headline.html").absoluteString)</link><guid>\(prefix)-2</guid>
        <pubDate>Tue, 03 Nov 2026 10:00:00 GMT</pubDate><description>&lt;p&gt;The \(prefix) headline's text&lt;/p&gt;</description></item>
        </channel></rss>
        """.utf8)
    }

    /// FreshRSS, the feeds' server with `feeds` (path → title), and a client logged in as FreshRSS's reader.
    func start(feeds: [String: String]) throws -> (freshRSS: FreshRSSServer, feeds: LocalHTTPServer, client: GoogleReaderClient) {
        let freshRSS = try FreshRSSServer(for: self)
        let server = try startSampleServer()
        for (path, title) in feeds {
            server.setResource(path, data: Self.feed(on: server, title: title, prefix: (path as NSString).deletingPathExtension.replacingOccurrences(of: "/", with: "")),
                               contentType: "application/rss+xml")
        }
        let token = try GoogleReaderClient.logIn(baseURL: freshRSS.apiURL, user: freshRSS.user, password: freshRSS.apiPassword)
        return (freshRSS, server, GoogleReaderClient(baseURL: freshRSS.apiURL, authToken: token))
    }

    func testTheClientReadsAndWritesFreshRSS() throws {
        let started = Date()
        let (freshRSS, server, client) = try start(feeds: ["/alpha.xml": "Alpha Weekly"])
        print("FreshRSS started in \(String(format: "%.2f", Date().timeIntervalSince(started))) s")
        let stream = try client.subscribe(to: server.url(for: "alpha.xml"))
        let subscriptions = try client.subscriptions()
        let alpha = try XCTUnwrap(subscriptions.first { $0.streamID == stream }, "\(subscriptions)")
        XCTAssertEqual(alpha.title, "Alpha Weekly")
        XCTAssertEqual(alpha.feedURL, server.url(for: "alpha.xml"))

        let batch = try client.items(since: nil)
        XCTAssertEqual(batch.problems, [])
        let items = batch.items.filter { $0.streamID == stream }
        XCTAssertEqual(items.map(\.title).sorted(), ["alpha headline", "alpha issue"])
        let issue = try XCTUnwrap(items.first { $0.title == "alpha issue" })
        XCTAssertEqual(issue.enclosures.first?.url, server.url(for: "issues/2025-spring.epub"))
        XCTAssertTrue(issue.content.contains("The alpha issue's text"), issue.content)
        XCTAssertFalse(issue.isRead)

        // Read with the long id, starred with the short one: both spellings are taken.
        XCTAssertEqual(try client.itemIDs(.unread), ServerItemIDs(ids: Set(items.map(\.id)), isComplete: true))
        try client.set(.read, true, items: [issue.id])
        XCTAssertEqual(try client.itemIDs(.unread).ids, Set(items.map(\.id)).subtracting([issue.id]))
        let headline = try XCTUnwrap(items.first { $0.title == "alpha headline" })
        try client.set(.starred, true, items: [ServerItemID(headline.id.shortForm)!])
        XCTAssertEqual(try client.itemIDs(.starred).ids, [headline.id])
        try client.set(.read, false, items: [issue.id])
        XCTAssertEqual(try client.itemIDs(.unread).ids, Set(items.map(\.id)))

        // Nothing new since the newest item: an empty batch.
        let newest = try XCTUnwrap(items.compactMap(\.crawledMicroseconds).max())
        XCTAssertEqual(try client.items(since: newest + 2_000_000).items, [])

        try client.rename(streamID: stream, to: "Alpha Renamed")
        XCTAssertEqual(try client.subscriptions().first { $0.streamID == stream }?.title, "Alpha Renamed")
        try client.unsubscribe(streamID: stream)
        XCTAssertNil(try client.subscriptions().first { $0.streamID == stream })

        XCTAssertThrowsError(try GoogleReaderClient.logIn(baseURL: freshRSS.apiURL, user: freshRSS.user, password: "wrong-password")) { error in
            XCTAssertEqual(error as? AccountError, .loginRejected(server: "127.0.0.1:\(freshRSS.port)", user: "reader"))
            XCTAssertTrue("\(error)".contains("did not accept the user or password"), "\(error)")
            XCTAssertFalse("\(error)".contains("wrong-password"))
        }
        // A session the server does not know (expired): said so, for reads and writes.
        let stale = GoogleReaderClient(baseURL: freshRSS.apiURL, authToken: "reader/0123456789abcdef")
        XCTAssertThrowsError(try stale.subscriptions()) { XCTAssertEqual($0 as? AccountError, .sessionExpired(server: "127.0.0.1:\(freshRSS.port)")) }
        XCTAssertThrowsError(try stale.set(.read, true, items: [issue.id])) { XCTAssertEqual($0 as? AccountError, .sessionExpired(server: "127.0.0.1:\(freshRSS.port)")) }
    }
}
