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

    /// FreshRSS, the feeds' server with `feeds` (path → title) beside the sample library, and a client logged in as
    /// FreshRSS's reader; all stopped when `test` ends.
    static func start(in test: EndToEndTestCase, feeds: [String: String]) throws -> (freshRSS: FreshRSSServer, feeds: LocalHTTPServer, client: GoogleReaderClient) {
        let freshRSS = try FreshRSSServer(for: test)
        let server = try test.startSampleServer()
        for (path, title) in feeds {
            server.setResource(path, data: Self.feed(on: server, title: title, prefix: (path as NSString).deletingPathExtension.replacingOccurrences(of: "/", with: "")),
                               contentType: "application/rss+xml")
        }
        let token = try GoogleReaderClient.logIn(baseURL: freshRSS.apiURL, user: freshRSS.user, password: freshRSS.apiPassword)
        return (freshRSS, server, GoogleReaderClient(baseURL: freshRSS.apiURL, authToken: token))
    }

    /// A library in the test's home (closed when the test ends) with an account on `freshRSS`, and a session for it.
    static func library(in test: EndToEndTestCase, on freshRSS: FreshRSSServer) throws -> FreshRSSLibrary {
        let store = try LibraryStore(file: test.home.appendingPathComponent("library.sqlite"))
        test.addTeardownBlock { store.close() }
        let token = try GoogleReaderClient.logIn(baseURL: freshRSS.apiURL, user: freshRSS.user, password: freshRSS.apiPassword)
        let account = try store.addAccount(kind: .googleReader, url: freshRSS.apiURL, user: freshRSS.user)
        return FreshRSSLibrary(store: store, account: account, apiURL: freshRSS.apiURL, token: token)
    }

    func testTheClientReadsAndWritesFreshRSS() throws {
        let started = Date()
        let (freshRSS, server, client) = try Self.start(in: self, feeds: ["/alpha.xml": "Alpha Weekly"])
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

/// AccountSync against a real FreshRSS, in the library directly: what an unchanged sync costs, and renaming.
final class FreshRSSAccountSyncTests: EndToEndTestCase {
    func testAnUnchangedSyncCostsTwoRequestsWhateverTheFeedsAndRenamingHappensOnTheServer() throws {
        let feeds = Dictionary(uniqueKeysWithValues: (1...6).map { ("/feed\($0).xml", "Feed \($0)") })
        let (freshRSS, server, client) = try FreshRSSAccountTests.start(in: self, feeds: feeds)
        for path in feeds.keys.sorted() { _ = try client.subscribe(to: server.url(for: String(path.dropFirst()))) }
        let library = try FreshRSSAccountTests.library(in: self, on: freshRSS)
        let (store, account) = (library.store, library.account)
        let sync = AccountSync(store: store) { _ in library.client() }
        let first = sync.sync(account)
        XCTAssertNil(first.problem)
        XCTAssertEqual(first.subscriptions, 7, "six feeds and FreshRSS's own")
        XCTAssertEqual(first.newItems, 12)
        XCTAssertFalse(first.subscriptionsAndItemsSkipped)
        server.clearLog()
        let again = sync.sync(try XCTUnwrap(try store.accounts().first))
        XCTAssertNil(again.problem)
        XCTAssertEqual(again.newItems, 0)
        XCTAssertEqual(again.requests, 2, "unread counts (nothing new: no subscriptions, items or unread ids), starred ids")
        XCTAssertTrue(again.subscriptionsAndItemsSkipped)
        XCTAssertEqual(again.readCheck, .countsUnchanged)
        XCTAssertEqual(again.subscriptions, 7)
        XCTAssertEqual(again.outcomes.count, 7)
        XCTAssertTrue(again.outcomes.allSatisfy { $0.outcome.notModified && $0.outcome.problem == nil })
        XCTAssertEqual(server.settledLog().filter { $0.path.hasSuffix(".xml") && !($0.headers["user-agent"] ?? "").contains("FreshRSS") }.count, 0,
                       "no feed fetched by Newsstand")

        let feed1 = try XCTUnwrap(try store.publications(accountID: account.id).first { $0.title == "Feed 1" })
        try sync.rename(feed1, to: "Feed One")
        XCTAssertEqual(try store.publication(id: feed1.id)?.title, "Feed One")
        XCTAssertEqual(try client.subscriptions().first { $0.streamID == feed1.accountStream }?.title, "Feed One")
    }
}

/// The account commands and `sync` against a real FreshRSS.
final class FreshRSSAccountCommandTests: EndToEndTestCase {
    private func rows(_ command: [String], _ environment: [String: String]) throws -> [[String: Any]] {
        let result = try TestEnvironment.run(command, environment: environment)
        XCTAssertEqual(result.status, 0, result.errors)
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String: Any]], result.output)
    }

    func testAnAccountsSubscriptionsItemsAndReadStatesArriveWithoutFetchingItsFeeds() throws {
        let (freshRSS, server, client) = try FreshRSSAccountTests.start(in: self, feeds: ["/alpha.xml": "Alpha Weekly", "/beta.xml": "Beta Monthly",
                                                                                          "/gamma.xml": "Gamma Daily", "/delta.xml": "Delta Digest"])
        let alphaStream = try client.subscribe(to: server.url(for: "alpha.xml"))
        _ = try client.subscribe(to: server.url(for: "beta.xml"))
        let environment = TestEnvironment.environment(home: home)
        // A feed of one's own beside the account.
        let own = try TestEnvironment.run(["subscribe", server.url(for: "catalog.plist").absoluteString], environment: environment)
        XCTAssertEqual(own.status, 0, own.errors)

        // A wrong password says so and adds nothing.
        let wrong = try TestEnvironment.run(["account", "add", freshRSS.apiURL.absoluteString, "--user", "reader", "--password-stdin"],
                                            input: "not-the-password\n", environment: environment)
        XCTAssertNotEqual(wrong.status, 0)
        XCTAssertTrue(wrong.errors.contains("did not accept the user or password of reader"), wrong.errors)
        XCTAssertFalse(wrong.errors.contains("not-the-password") || wrong.output.contains("not-the-password"))
        XCTAssertEqual(try rows(["account", "list", "--json"], environment).count, 0)

        let added = try TestEnvironment.run(["account", "add", freshRSS.apiURL.absoluteString, "--user", "reader", "--password-stdin"],
                                            input: "\(freshRSS.apiPassword)\n", environment: environment)
        XCTAssertEqual(added.status, 0, added.errors)
        XCTAssertTrue(added.output.contains("Added the account reader at 127.0.0.1:\(freshRSS.port): 3 subscriptions, 4 items."), added.output)

        // The account's subscriptions are publications marked as coming from it; one's own feed stays as it was.
        let subscriptions = try rows(["subscriptions", "--json"], environment)
        let byTitle = Dictionary(uniqueKeysWithValues: subscriptions.map { ($0["title"] as? String ?? "", $0) })
        XCTAssertEqual(byTitle["Alpha Weekly"]?["account"] as? String, freshRSS.apiURL.absoluteString, "\(subscriptions)")
        XCTAssertEqual(byTitle["Beta Monthly"]?["account"] as? String, freshRSS.apiURL.absoluteString)
        XCTAssertEqual(byTitle["Beta Monthly"]?["issues"] as? Int, 1)
        let ownRow = try XCTUnwrap(subscriptions.first { ($0["url"] as? String)?.hasSuffix("catalog.plist") == true })
        XCTAssertNil(ownRow["account"])

        // Items with an EPUB are issues, the rest headlines, with the server's text.
        let paths = LibraryPaths.fromEnvironment(environment)
        let store = try LibraryStore(file: paths.databaseFile)
        let alpha = try XCTUnwrap(try store.publications().first { $0.title == "Alpha Weekly" })
        let alphaIssues = try store.issues(publicationID: alpha.id)
        XCTAssertEqual(alphaIssues.map(\.title), ["alpha issue"])
        XCTAssertEqual(alphaIssues.first?.contentURLs, [server.url(for: "issues/2025-spring.epub")])
        XCTAssertTrue(alphaIssues.first?.summary.hasPrefix("The alpha issue's text") == true, "\(alphaIssues)")
        XCTAssertEqual(try store.headlines(publicationID: alpha.id).map(\.title), ["alpha headline"])
        XCTAssertTrue(try store.headline(publicationID: alpha.id, at: 0)?.body.contains("<p>The alpha headline's text</p>") == true)
        store.close()

        // New feeds on the server; one of their issues is read in FreshRSS before Newsstand syncs.
        _ = try client.subscribe(to: server.url(for: "gamma.xml"))
        _ = try client.subscribe(to: server.url(for: "delta.xml"))
        let gammaIssue = try XCTUnwrap(try client.items(since: nil).items.first { $0.title == "gamma issue" })
        try client.set(.read, true, items: [gammaIssue.id])
        server.clearLog()
        let synced = try TestEnvironment.run(["sync"], environment: environment)
        XCTAssertEqual(synced.status, 0, synced.output + synced.errors)
        XCTAssertTrue(synced.output.contains("Account reader at 127.0.0.1:\(freshRSS.port): 4 new items"), synced.output)
        // Newsstand fetched none of the account's feeds itself (FreshRSS does; its requests say FreshRSS).
        let fetchedByNewsstand = server.settledLog().filter { $0.path.hasSuffix(".xml") && !($0.headers["user-agent"] ?? "").contains("FreshRSS") }
        XCTAssertEqual(fetchedByNewsstand.map(\.path), [], "the account's feeds come from the server")

        let issues = try rows(["list", "--json"], environment)
        func issue(_ title: String) -> [String: Any]? { issues.first { $0["title"] as? String == title } }
        XCTAssertEqual(issue("delta issue")?["new"] as? Bool, true, "\(issues)")
        XCTAssertEqual(issue("gamma issue")?["new"] as? Bool, false, "read in FreshRSS, so not NEW here: \(issues)")

        // Read on the server after it arrived: read here at the next sync too.
        let deltaIssue = try XCTUnwrap(try client.items(since: nil).items.first { $0.title == "delta issue" })
        try client.set(.read, true, items: [deltaIssue.id])
        let again = try TestEnvironment.run(["sync"], environment: environment)
        XCTAssertTrue(again.output.contains("up to date, 1 read elsewhere"), again.output)
        XCTAssertEqual(try rows(["list", "--json"], environment).first { $0["title"] as? String == "delta issue" }?["new"] as? Bool, false)

        // Neither the password nor the session is in the library; the session is in the credentials file (0600) only.
        let database = try Data(contentsOf: paths.databaseFile)
        XCTAssertNil(database.range(of: Data(freshRSS.apiPassword.utf8)))
        let credentials = try String(contentsOf: paths.credentialsFile, encoding: .utf8)
        XCTAssertFalse(credentials.contains(freshRSS.apiPassword))
        XCTAssertTrue(credentials.contains("newsstand account session"), credentials)
        let logins = try TestEnvironment.run(["logins"], environment: environment)
        XCTAssertFalse(logins.output.contains("reader/"), "the token is never printed: \(logins.output)")

        let listed = try rows(["account", "list", "--json"], environment)
        XCTAssertEqual(listed.first?["user"] as? String, "reader")
        XCTAssertEqual((listed.first?["subscriptions"] as? [String])?.count, 5)

        // Removing the account keeps its publications as feeds of one's own.
        let removed = try TestEnvironment.run(["account", "remove", freshRSS.apiURL.absoluteString], environment: environment)
        XCTAssertEqual(removed.status, 0, removed.errors)
        XCTAssertTrue(removed.output.contains("its 5 subscriptions stay as feeds of your own"), removed.output)
        XCTAssertEqual(try rows(["account", "list", "--json"], environment).count, 0)
        XCTAssertNil(try rows(["subscriptions", "--json"], environment).first { $0["title"] as? String == "Alpha Weekly" }?["account"])
        XCTAssertFalse(try String(contentsOf: paths.credentialsFile, encoding: .utf8).contains("newsstand account session"))
        _ = alphaStream
    }

    func testReadAndStarredGoBothWaysQueuedWhileTheServerIsAway() throws {
        let (freshRSS, server, client) = try FreshRSSAccountTests.start(in: self, feeds: ["/alpha.xml": "Alpha Weekly"])
        _ = try client.subscribe(to: server.url(for: "alpha.xml"))
        let environment = TestEnvironment.environment(home: home)
        let added = try TestEnvironment.run(["account", "add", freshRSS.apiURL.absoluteString, "--user", "reader", "--password-stdin"],
                                            input: "\(freshRSS.apiPassword)\n", environment: environment)
        XCTAssertEqual(added.status, 0, added.errors)
        let item = try XCTUnwrap(try client.items(since: nil).items.first { $0.title == "alpha issue" })
        let row = try XCTUnwrap(try rows(["list", "--json"], environment).first { $0["id"] as? String == item.id.longForm })
        let issue = "\(row["publication"] as? String ?? "")/\(row["name"] as? String ?? "")"

        // Read here: read on the server at once.
        let read = try TestEnvironment.run(["mark", issue, "--read"], environment: environment)
        XCTAssertEqual(read.status, 0, read.errors)
        XCTAssertEqual(read.output, "Marked \(issue) read.\n")
        XCTAssertFalse(try client.itemIDs(.unread).ids.contains(item.id), "read in FreshRSS")
        _ = try TestEnvironment.run(["mark", issue, "--unread"], environment: environment)
        XCTAssertTrue(try client.itemIDs(.unread).ids.contains(item.id), "unread in FreshRSS again")

        // Starred on the server: starred here after a sync, and kept.
        try client.set(.starred, true, items: [item.id])
        XCTAssertEqual(try TestEnvironment.run(["sync"], environment: environment).status, 0)
        XCTAssertEqual(try rows(["list", "--json"], environment).first { $0["id"] as? String == item.id.longForm }?["starred"] as? Bool, true)
        _ = try TestEnvironment.run(["mark", issue, "--unstar"], environment: environment)
        XCTAssertEqual(try client.itemIDs(.starred).ids, [])

        // While the server is away, marks wait; the next sync sends them.
        freshRSS.stop()
        let offline = try TestEnvironment.run(["mark", issue, "--read", "--star"], environment: environment)
        XCTAssertEqual(offline.status, 0, offline.errors)
        XCTAssertTrue(offline.output.contains("Not sent to 127.0.0.1:\(freshRSS.port) yet"), offline.output)
        XCTAssertTrue(offline.output.contains("the next sync sends it"), offline.output)
        try freshRSS.start()
        XCTAssertTrue(try client.itemIDs(.unread).ids.contains(item.id), "not sent yet")
        let synced = try TestEnvironment.run(["sync"], environment: environment)
        XCTAssertEqual(synced.status, 0, synced.output + synced.errors)
        XCTAssertFalse(try client.itemIDs(.unread).ids.contains(item.id), "the queued read arrived")
        XCTAssertEqual(try client.itemIDs(.starred).ids, [item.id], "the queued star arrived")
        let after = try XCTUnwrap(try rows(["list", "--json"], environment).first { $0["id"] as? String == item.id.longForm })
        XCTAssertEqual(after["read"] as? Bool, true)
        XCTAssertEqual(after["starred"] as? Bool, true)
    }

    func testSubscribingAndUnsubscribingInNewsstandChangesTheServersList() throws {
        let (freshRSS, server, client) = try FreshRSSAccountTests.start(in: self, feeds: ["/alpha.xml": "Alpha Weekly", "/beta.xml": "Beta Monthly"])
        let environment = TestEnvironment.environment(home: home)
        let added = try TestEnvironment.run(["account", "add", freshRSS.apiURL.absoluteString, "--user", "reader", "--password-stdin"],
                                            input: "\(freshRSS.apiPassword)\n", environment: environment)
        XCTAssertEqual(added.status, 0, added.errors)

        let subscribed = try TestEnvironment.run(["subscribe", server.url(for: "beta.xml").absoluteString], environment: environment)
        XCTAssertEqual(subscribed.status, 0, subscribed.errors)
        XCTAssertTrue(subscribed.output.contains("Subscribed to Beta Monthly (beta-monthly) on the account reader at 127.0.0.1:\(freshRSS.port): 1 issue."),
                      subscribed.output)
        XCTAssertTrue(try client.subscriptions().contains { $0.feedURL == server.url(for: "beta.xml") }, "on FreshRSS's list")
        // --local keeps a feed of one's own beside the account.
        let local = try TestEnvironment.run(["subscribe", "--local", server.url(for: "alpha.xml").absoluteString], environment: environment)
        XCTAssertEqual(local.status, 0, local.errors)
        XCTAssertFalse(try client.subscriptions().contains { $0.feedURL == server.url(for: "alpha.xml") })
        XCTAssertNil(try rows(["subscriptions", "--json"], environment).first { $0["title"] as? String == "Alpha Weekly" }?["account"])

        let unsubscribed = try TestEnvironment.run(["unsubscribe", "beta-monthly"], environment: environment)
        XCTAssertEqual(unsubscribed.status, 0, unsubscribed.errors)
        XCTAssertFalse(try client.subscriptions().contains { $0.feedURL == server.url(for: "beta.xml") }, "gone from FreshRSS's list")

        // When the server cannot be reached, unsubscribing changes nothing here either.
        let gamma = try TestEnvironment.run(["subscribe", server.url(for: "beta.xml").absoluteString], environment: environment)
        XCTAssertEqual(gamma.status, 0, gamma.errors)
        freshRSS.stop()
        let refused = try TestEnvironment.run(["unsubscribe", "beta-monthly"], environment: environment)
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue(refused.errors.contains("nothing was changed"), refused.errors)
        XCTAssertEqual(try rows(["subscriptions", "--json"], environment).first { $0["name"] as? String == "beta-monthly" }?["subscribed"] as? Bool, true)
    }

    func testTheAccountsScreenAddsAnAccountAndItsSubscriptionsAppear() throws {
        let (freshRSS, server, client) = try FreshRSSAccountTests.start(in: self, feeds: ["/alpha.xml": "Alpha Weekly"])
        _ = try client.subscribe(to: server.url(for: "alpha.xml"))
        let environment = TestEnvironment.environment(home: home)
        let session = try TmuxSession(command: try TestEnvironment.binary().path, width: 110, height: 32, environment: environment)
        try session.send("s")
        try session.waitFor(text: "SUBSCRIPTIONS")
        try session.send("A")
        try session.waitFor(text: "No accounts. Press a to add one")
        try session.send("a")
        try session.waitFor(text: "Account's API URL")
        try session.send("-l", freshRSS.apiURL.absoluteString)
        try session.send("Enter")
        try session.waitFor(text: " User:")
        try session.send("-l", "reader")
        try session.send("Enter")
        try session.send("-l", "wrong-password")
        let typed = try session.waitFor(text: "••••••••••••••")
        XCTAssertFalse(typed.contains("wrong-password"), "the password is never drawn")
        try session.send("Enter")
        try session.waitFor(text: "did not accept the user or password of reader")

        try session.send("a")
        try session.waitFor(text: "Account's API URL")
        try session.send("-l", freshRSS.apiURL.absoluteString)
        try session.send("Enter")
        try session.waitFor(text: " User:")
        try session.send("-l", "reader")
        try session.send("Enter")
        try session.send("-l", freshRSS.apiPassword)
        try session.send("Enter")
        let added = try session.waitFor(text: "Added the account reader: 2 subscriptions.")
        XCTAssertTrue(added.contains("reader at \(freshRSS.apiURL.absoluteString)"), added)
        XCTAssertFalse(added.contains(freshRSS.apiPassword))
        // Back on the subscriptions screen, the account's feed is there, marked as coming from it.
        try session.send("Escape")
        try session.waitFor("the account's subscription") { $0.contains("Alpha Weekly") && $0.contains("from an account") }
        try session.send("q")
    }
}

/// A library with an account on a FreshRSS (``FreshRSSAccountTests/library(in:on:)``): its store, the account, and
/// clients with the account's session.
struct FreshRSSLibrary {
    let store: LibraryStore
    let account: Account
    let apiURL: URL
    let token: String

    func client() -> GoogleReaderClient { GoogleReaderClient(baseURL: apiURL, authToken: token) }
}
