import Foundation
import LocalHTTPServer
import NewsstandCore
import NewsstandTestSupport
import XCTest

/// Headlines' read and starred states against a real FreshRSS: both ways, through `newsstand headlines` and `mark`, the
/// headlines screen's `N` and `*`, queued while the server is away; a feed of one's own keeps them here only; and
/// subscribing with several accounts (two FreshRSS servers).
final class FreshRSSHeadlineTests: EndToEndTestCase {
    private func rows(_ command: [String], _ environment: [String: String]) throws -> [[String: Any]] {
        let result = try TestEnvironment.run(command, environment: environment)
        XCTAssertEqual(result.status, 0, result.errors)
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String: Any]], result.output)
    }

    private func addAccount(_ freshRSS: FreshRSSServer, _ environment: [String: String]) throws {
        let added = try TestEnvironment.run(["account", "add", freshRSS.apiURL.absoluteString, "--user", freshRSS.user, "--password-stdin"],
                                            input: "\(freshRSS.apiPassword)\n", environment: environment)
        XCTAssertEqual(added.status, 0, added.errors)
    }

    func testHeadlinesAreReadAndStarredBothWaysAndQueuedWhileTheServerIsAway() throws {
        let (freshRSS, server, client) = try FreshRSSAccountTests.start(in: self, feeds: ["/alpha.xml": "Alpha Weekly", "/own.xml": "Own Daily"])
        _ = try client.subscribe(to: server.url(for: "alpha.xml"))
        let environment = TestEnvironment.environment(home: home)
        try addAccount(freshRSS, environment)
        let item = try XCTUnwrap(try client.items(since: nil).items.first { $0.title == "alpha headline" })

        var listed = try rows(["headlines", "alpha-weekly", "--json"], environment)
        XCTAssertEqual(listed.count, 1, "\(listed)")
        XCTAssertEqual(listed[0]["name"] as? String, "alpha-weekly/headline-1")
        XCTAssertEqual(listed[0]["id"] as? String, item.id.longForm)
        XCTAssertEqual(listed[0]["read"] as? Bool, false)
        XCTAssertEqual(listed[0]["new"] as? Bool, false, "arrived with the first sync")
        let text = try TestEnvironment.run(["headlines", "alpha-weekly"], environment: environment)
        XCTAssertEqual(text.output, "alpha-weekly/headline-1\t2026-11-03\tunread\talpha headline\n")

        // Read in FreshRSS: read here after a sync.
        try client.set(.read, true, items: [item.id])
        let synced = try TestEnvironment.run(["sync"], environment: environment)
        XCTAssertTrue(synced.output.contains("1 read elsewhere"), synced.output)
        XCTAssertEqual(try rows(["headlines", "alpha-weekly", "--json"], environment).first?["read"] as? Bool, true)

        // Unread and starred here: on FreshRSS at once.
        let marked = try TestEnvironment.run(["mark", "alpha-weekly/headline-1", "--unread", "--star"], environment: environment)
        XCTAssertEqual(marked.status, 0, marked.errors)
        XCTAssertEqual(marked.output, "Marked alpha-weekly/headline-1 unread and starred.\n")
        XCTAssertTrue(try client.itemIDs(.unread).ids.contains(item.id), "unread in FreshRSS")
        XCTAssertEqual(try client.itemIDs(.starred).ids, [item.id], "starred in FreshRSS")
        // Named by its item id, as `headlines --json` gives it.
        let byID = try TestEnvironment.run(["mark", item.id.longForm, "--read"], environment: environment)
        XCTAssertEqual(byID.output, "Marked alpha-weekly/headline-1 read.\n", byID.errors)
        XCTAssertFalse(try client.itemIDs(.unread).ids.contains(item.id))

        // Unstarred in FreshRSS: unstarred here.
        try client.set(.starred, false, items: [item.id])
        XCTAssertEqual(try TestEnvironment.run(["sync"], environment: environment).status, 0)
        XCTAssertEqual(try rows(["headlines", "alpha-weekly", "--json"], environment).first?["starred"] as? Bool, false)

        // While FreshRSS is away the marks wait; the next sync sends them before it reads the server's lists.
        freshRSS.stop()
        let offline = try TestEnvironment.run(["mark", "alpha-weekly/headline-1", "--unread", "--star"], environment: environment)
        XCTAssertEqual(offline.status, 0, offline.errors)
        XCTAssertTrue(offline.output.contains("Not sent to 127.0.0.1:\(freshRSS.port) yet"), offline.output)
        try freshRSS.start()
        XCTAssertFalse(try client.itemIDs(.unread).ids.contains(item.id), "not sent yet")
        XCTAssertEqual(try TestEnvironment.run(["sync"], environment: environment).status, 0)
        XCTAssertTrue(try client.itemIDs(.unread).ids.contains(item.id), "the queued unread arrived")
        XCTAssertEqual(try client.itemIDs(.starred).ids, [item.id], "the queued star arrived")
        listed = try rows(["headlines", "alpha-weekly", "--json"], environment)
        XCTAssertEqual(listed.first?["read"] as? Bool, false)
        XCTAssertEqual(listed.first?["starred"] as? Bool, true)

        // A wrong name changes nothing and says so.
        let wrong = try TestEnvironment.run(["mark", "alpha-weekly/headline-9", "--read"], environment: environment)
        XCTAssertNotEqual(wrong.status, 0)
        XCTAssertTrue(wrong.errors.contains("alpha-weekly has no headline 9"), wrong.errors)

        // A feed of one's own beside the account: the same states, kept here only.
        let own = try TestEnvironment.run(["subscribe", "--no-account", server.url(for: "own.xml").absoluteString], environment: environment)
        XCTAssertEqual(own.status, 0, own.errors)
        XCTAssertFalse(try client.subscriptions().contains { $0.feedURL == server.url(for: "own.xml") }, "not on FreshRSS")
        let ownMarked = try TestEnvironment.run(["mark", "own-daily/headline-1", "--read", "--star"], environment: environment)
        XCTAssertEqual(ownMarked.output, "Marked own-daily/headline-1 read and starred.\n", ownMarked.errors)
        let ownRow = try XCTUnwrap(try rows(["headlines", "own-daily", "--json"], environment).first)
        XCTAssertEqual(ownRow["read"] as? Bool, true)
        XCTAssertEqual(ownRow["starred"] as? Bool, true)
        XCTAssertTrue(ownRow["id"] is NSNull || ownRow["id"] == nil, "no server item")
        // Refreshed again, the feed's headline keeps its states.
        XCTAssertEqual(try TestEnvironment.run(["sync"], environment: environment).status, 0)
        XCTAssertEqual(try rows(["headlines", "own-daily", "--json"], environment).first?["read"] as? Bool, true)
        // And `search` names headlines as `mark` takes them.
        let search = try TestEnvironment.run(["search", "own", "headline"], environment: environment)
        XCTAssertTrue(search.output.hasPrefix("own-daily/headline-1  own headline\n"), search.output)
    }

    /// After the first sync: a headline arriving is NEW until read in FreshRSS; a subscription renamed there is renamed here.
    func testLaterHeadlinesAreNewUntilReadOnTheServerAndARenameThereComesHere() throws {
        let (freshRSS, server, client) = try FreshRSSAccountTests.start(in: self, feeds: ["/alpha.xml": "Alpha Weekly", "/beta.xml": "Beta Monthly"])
        let stream = try client.subscribe(to: server.url(for: "alpha.xml"))
        let environment = TestEnvironment.environment(home: home)
        try addAccount(freshRSS, environment)
        _ = try client.subscribe(to: server.url(for: "beta.xml"))
        try client.rename(streamID: stream, to: "Alpha Renamed")
        XCTAssertEqual(try TestEnvironment.run(["sync"], environment: environment).status, 0)
        let subscriptions = try rows(["subscriptions", "--json"], environment)
        XCTAssertEqual(subscriptions.filter { ($0["title"] as? String)?.hasPrefix("Alpha") == true }.map { $0["title"] as? String }, ["Alpha Renamed"],
                       "\(subscriptions)")
        XCTAssertEqual(try rows(["headlines", "alpha-weekly", "--json"], environment).first?["new"] as? Bool, false, "from the first sync")
        XCTAssertEqual(try rows(["headlines", "beta-monthly", "--json"], environment).first?["new"] as? Bool, true, "arrived later")
        XCTAssertEqual(try TestEnvironment.run(["headlines", "beta-monthly"], environment: environment).output,
                       "beta-monthly/headline-1\t2026-11-03\tNEW\tbeta headline\n")

        let beta = try XCTUnwrap(try client.items(since: nil).items.first { $0.title == "beta headline" })
        try client.set(.read, true, items: [beta.id])
        let synced = try TestEnvironment.run(["sync"], environment: environment)
        XCTAssertTrue(synced.output.contains("1 read elsewhere"), synced.output)
        let row = try XCTUnwrap(try rows(["headlines", "beta-monthly", "--json"], environment).first)
        XCTAssertEqual(row["new"] as? Bool, false, "read in FreshRSS: not NEW here")
        XCTAssertEqual(row["read"] as? Bool, true)
    }

    /// The headlines screen in tmux: `N` and `*` on an account's headline reach FreshRSS; reading one reads it there.
    func testTheHeadlinesScreenMarksReachTheServer() throws {
        let (freshRSS, server, client) = try FreshRSSAccountTests.start(in: self, feeds: ["/alpha.xml": "Alpha Weekly"])
        _ = try client.subscribe(to: server.url(for: "alpha.xml"))
        let environment = TestEnvironment.environment(home: home)
        try addAccount(freshRSS, environment)
        let item = try XCTUnwrap(try client.items(since: nil).items.first { $0.title == "alpha headline" })
        let session = try TmuxSession(command: try TestEnvironment.binary().path, width: 110, height: 32, environment: environment)
        try session.send("s")
        try session.waitFor(text: "SUBSCRIPTIONS")
        try select("Alpha Weekly", in: session)
        try session.send("H")
        try session.waitFor(text: "alpha headline")
        try session.send("*")
        try session.waitFor(text: "Starred “alpha headline”")
        try waitUntil("FreshRSS has the star") { try client.itemIDs(.starred).ids == [item.id] }
        try session.send("Enter")
        try session.waitFor(text: "headline 1/1")
        try waitUntil("FreshRSS has it read") { !(try client.itemIDs(.unread).ids.contains(item.id)) }
        try session.send("Escape")
        try session.waitFor(text: "HEADLINES")
        try session.send("N")
        try session.waitFor(text: "Marked “alpha headline” unread.")
        try waitUntil("FreshRSS has it unread") { try client.itemIDs(.unread).ids.contains(item.id) }
        try session.send("q")
    }

    /// Two accounts (two FreshRSS servers): `--account` chooses, `--no-account` keeps the feed one's own, no choice
    /// names the accounts and subscribes nothing; the subscriptions screen asks which.
    func testWithSeveralAccountsTheUserSaysWhichToSubscribeOn() throws {
        let (first, server, firstClient) = try FreshRSSAccountTests.start(in: self, feeds: ["/alpha.xml": "Alpha Weekly", "/beta.xml": "Beta Monthly",
                                                                                          "/gamma.xml": "Gamma Daily"])
        let second = try FreshRSSServer(for: self)
        let secondClient = GoogleReaderClient(baseURL: second.apiURL,
                                              authToken: try GoogleReaderClient.logIn(baseURL: second.apiURL, user: second.user, password: second.apiPassword))
        let environment = TestEnvironment.environment(home: home)
        try addAccount(first, environment)
        try addAccount(second, environment)

        let unchosen = try TestEnvironment.run(["subscribe", server.url(for: "alpha.xml").absoluteString], environment: environment)
        XCTAssertNotEqual(unchosen.status, 0)
        XCTAssertTrue(unchosen.errors.contains("there are 2 accounts: say which to subscribe on with --account \(first.apiURL.absoluteString) (reader), --account \(second.apiURL.absoluteString) (reader), or --no-account"),
                      unchosen.errors)
        XCTAssertTrue(unchosen.errors.contains("nothing was subscribed"), unchosen.errors)
        XCTAssertNil(try rows(["subscriptions", "--json"], environment).first { $0["title"] as? String == "Alpha Weekly" })

        let onSecond = try TestEnvironment.run(["subscribe", server.url(for: "alpha.xml").absoluteString, "--account", second.apiURL.absoluteString + "/"],
                                               environment: environment)
        XCTAssertEqual(onSecond.status, 0, onSecond.errors)
        XCTAssertTrue(onSecond.output.contains("on the account reader at 127.0.0.1:\(second.port)"), onSecond.output)
        XCTAssertTrue(try secondClient.subscriptions().contains { $0.feedURL == server.url(for: "alpha.xml") }, "on the second server")
        XCTAssertFalse(try firstClient.subscriptions().contains { $0.feedURL == server.url(for: "alpha.xml") }, "not on the first")
        let alphaRow = try rows(["subscriptions", "--json"], environment).first { $0["title"] as? String == "Alpha Weekly" }
        XCTAssertEqual(alphaRow?["account"] as? String, second.apiURL.absoluteString)

        let own = try TestEnvironment.run(["subscribe", "--no-account", server.url(for: "beta.xml").absoluteString], environment: environment)
        XCTAssertEqual(own.status, 0, own.errors)
        XCTAssertFalse(try firstClient.subscriptions().contains { $0.feedURL == server.url(for: "beta.xml") })
        XCTAssertFalse(try secondClient.subscriptions().contains { $0.feedURL == server.url(for: "beta.xml") })

        let unknown = try TestEnvironment.run(["subscribe", server.url(for: "beta.xml").absoluteString, "--account", "http://127.0.0.1:9/api/greader.php"],
                                              environment: environment)
        XCTAssertNotEqual(unknown.status, 0)
        XCTAssertTrue(unknown.errors.contains("no account for http://127.0.0.1:9/api/greader.php"), unknown.errors)
        let both = try TestEnvironment.run(["subscribe", "x", "--account", first.apiURL.absoluteString, "--no-account"], environment: environment)
        XCTAssertEqual(both.status, 2)
        XCTAssertTrue(both.errors.contains("--account and --no-account do not go together"), both.errors)

        // The subscriptions screen asks which account; 1 is the first added.
        let session = try TmuxSession(command: try TestEnvironment.binary().path, width: 160, height: 32, environment: environment)
        try session.send("s")
        try session.waitFor(text: "SUBSCRIPTIONS")
        try session.send("a")
        try session.waitFor(text: "Feed URL:")
        try session.send("-l", server.url(for: "gamma.xml").absoluteString)
        try session.send("Enter")
        let asked = try session.waitFor(text: "on which account?")
        XCTAssertTrue(asked.contains("1 reader at 127.0.0.1:\(first.port) · 2 reader at 127.0.0.1:\(second.port) · 0 a feed of your own"), asked)
        try session.send("1")
        try session.waitFor(text: "Subscribed to Gamma Daily")
        XCTAssertTrue(try firstClient.subscriptions().contains { $0.feedURL == server.url(for: "gamma.xml") }, "on the first server")
        XCTAssertFalse(try secondClient.subscriptions().contains { $0.feedURL == server.url(for: "gamma.xml") })
        try session.send("q")
    }

    /// Moves the subscriptions screen's selection (the row with the bar) to the publication titled `title`.
    private func select(_ title: String, in session: TmuxSession) throws {
        for _ in 0..<10 {
            let screen = try session.screen()
            if screen.components(separatedBy: "\n").contains(where: { $0.contains("▌") && $0.contains(title) }) { return }
            try session.send("j")
            Thread.sleep(forTimeInterval: 0.2)
        }
        XCTFail("\(title) could not be selected: \(try session.screen())")
    }

    /// Waits (up to 10 s) for a server-side condition that the program reaches in the background.
    private func waitUntil(_ description: String, _ condition: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if try condition() { return }
            Thread.sleep(forTimeInterval: 0.2)
        }
        XCTFail("timed out waiting until \(description)")
    }
}
