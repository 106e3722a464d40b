import Foundation
import LocalHTTPServer
import XCTest
@testable import NewsstandCore

/// Headlines' read and starred states (migration 19): kept across the refreshes that replace the headlines, NEW for
/// those that arrive later, starred ones kept past the list, and, for an account's headlines, queued for its server and
/// taken from its lists.
final class HeadlineStateTests: XCTestCase {
    private let feed = URL(string: "https://example.com/feed.xml")!

    private func headline(_ number: Int, item: Int64? = nil) -> Headline {
        Headline(title: "News \(number)", link: URL(string: "https://example.com/news/\(number)"),
                 date: Date(timeIntervalSince1970: 1_700_000_000 + Double(number)), body: "<p>Text \(number)</p>",
                 serverItem: item.map(ServerItemID.init))
    }

    private func states(_ store: LibraryStore, _ publicationID: Int64) throws -> [String: (read: Bool, starred: Bool, new: Bool)] {
        Dictionary(uniqueKeysWithValues: try store.headlines(publicationID: publicationID).map { ($0.title, ($0.isRead, $0.isStarred, $0.isNew)) })
    }

    func testReadAndStarredStayAcrossRefreshesAndLaterArrivalsAreNew() throws {
        let (store, _) = try TestSupport.store(for: self)
        let publication = try store.addPublication(title: "Kettle", feedURL: feed)
        try store.replaceHeadlines([headline(1), headline(2)], publicationID: publication.id)
        var listed = try store.headlines(publicationID: publication.id)
        XCTAssertEqual(listed.map(\.isNew), [false, false], "the first fill is not NEW")
        XCTAssertEqual(listed.map(\.isRead), [false, false])
        let first = try XCTUnwrap(listed[0].key)
        XCTAssertEqual(first, "https://example.com/news/1")

        XCTAssertTrue(try store.setHeadlineRead(true, publicationID: publication.id, key: first))
        XCTAssertTrue(try store.setHeadlineStarred(true, publicationID: publication.id, key: try XCTUnwrap(listed[1].key)))
        XCTAssertFalse(try store.setHeadlineRead(true, publicationID: publication.id, key: "https://example.com/nothing"))

        // A refresh brings 3 first and keeps 1 and 2 in other places: their states follow them; 3 is NEW.
        try store.replaceHeadlines([headline(3), headline(1), headline(2)], publicationID: publication.id, markingNewArrivals: true)
        var states = try self.states(store, publication.id)
        XCTAssertEqual(states["News 1"]?.read, true)
        XCTAssertEqual(states["News 2"]?.starred, true)
        XCTAssertEqual(states["News 2"]?.new, false, "already there: not NEW")
        XCTAssertEqual(states["News 3"]?.new, true)
        XCTAssertEqual(states["News 3"]?.read, false)

        // Reading clears NEW; unread brings it back to one that arrived new.
        let third = try XCTUnwrap(try store.headline(publicationID: publication.id, at: 0)?.key)
        try store.setHeadlineRead(true, publicationID: publication.id, key: third)
        XCTAssertEqual(try self.states(store, publication.id)["News 3"]?.new, false)
        try store.setHeadlineRead(false, publicationID: publication.id, key: third)
        XCTAssertEqual(try self.states(store, publication.id)["News 3"]?.new, true)

        // The feed drops 1 and 2: the starred one stays (after the feed's), the other goes with its state.
        try store.replaceHeadlines([headline(4), headline(3)], publicationID: publication.id, markingNewArrivals: true)
        listed = try store.headlines(publicationID: publication.id)
        XCTAssertEqual(listed.map(\.title), ["News 4", "News 3", "News 2"])
        XCTAssertEqual(listed.map(\.isStarred), [false, false, true])
        XCTAssertEqual(try store.headline(publicationID: publication.id, at: 2)?.body, "<p>Text 2</p>", "kept whole")
        XCTAssertEqual(try store.searchHeadlineText("Text 2").first?.headline, HeadlineLocation(publicationID: publication.id, position: 2),
                       "and found by search where it now is")
        // 1 comes back: its read state went with it.
        try store.replaceHeadlines([headline(1)], publicationID: publication.id)
        states = try self.states(store, publication.id)
        XCTAssertEqual(states["News 1"]?.read, false)
        XCTAssertEqual(Set(states.keys), ["News 1", "News 2"])
        // Unstarred, it goes at the next refresh that leaves it out.
        try store.setHeadlineStarred(false, publicationID: publication.id, key: "https://example.com/news/2")
        try store.replaceHeadlines([headline(1)], publicationID: publication.id)
        XCTAssertEqual(try store.headlines(publicationID: publication.id).map(\.title), ["News 1"])
        // A feed of one's own queues nothing for a server.
        XCTAssertEqual(try store.database.query("SELECT count(*) FROM account_marks").first?.first?.int64, 0)
    }

    func testOnlyHeadlinesNewToThePublicationAreNew() throws {
        let (store, _) = try TestSupport.store(for: self)
        let publication = try store.addPublication(title: "Kettle", feedURL: feed)
        try store.replaceHeadlines([headline(1)], publicationID: publication.id)
        try store.replaceHeadlines([headline(2), headline(1)], publicationID: publication.id, markingNewArrivals: true)
        try store.replaceHeadlines([headline(3), headline(2), headline(1)], publicationID: publication.id, markingNewArrivals: true)
        XCTAssertEqual(try store.headlines(publicationID: publication.id).map(\.isNew), [true, true, false],
                       "3 and 2 arrived later; 1 was there from the first fill")
    }

    func testAHeadlineWithoutALinkIsKnownByItsTitleAndDate() throws {
        let (store, _) = try TestSupport.store(for: self)
        let publication = try store.addPublication(title: "Kettle", feedURL: feed)
        let plain = Headline(title: "Notice", date: Date(timeIntervalSince1970: 1_700_000_123.75))
        try store.replaceHeadlines([plain], publicationID: publication.id)
        let key = try XCTUnwrap(try store.headlines(publicationID: publication.id).first?.key)
        XCTAssertEqual(key, "Notice\u{1F}1700000123")
        try store.setHeadlineRead(true, publicationID: publication.id, key: key)
        try store.replaceHeadlines([Headline(title: "Another"), plain], publicationID: publication.id)
        XCTAssertEqual(try store.headlines(publicationID: publication.id).map(\.isRead), [false, true])
    }

    func testAnAccountsHeadlinesQueueTheirMarksAndTakeTheServersLists() throws {
        let (store, _) = try TestSupport.store(for: self)
        let account = try store.addAccount(kind: .googleReader, url: URL(string: "https://rss.example/api/greader.php")!, user: "reader")
        let publication = try store.linkPublication(accountID: account.id, subscription: ServerSubscription(streamID: "feed/1", title: "Kettle", feedURL: feed))
        var arriving = [headline(1, item: 11), headline(2, item: 12), headline(3, item: 13)]
        arriving[2].isRead = true  // read on the server when it arrived
        try store.replaceHeadlines(arriving, publicationID: publication.id)
        XCTAssertEqual(try store.headlines(publicationID: publication.id).map(\.serverItem), [11, 12, 13].map(ServerItemID.init))
        XCTAssertEqual(try store.headlines(publicationID: publication.id).map(\.isRead), [false, false, true])
        XCTAssertEqual(try store.headline(serverItem: ServerItemID(12))?.position, 1)

        // Marked here: queued for the server, the last change of each state winning.
        try store.setHeadlineRead(true, publicationID: publication.id, key: "https://example.com/news/1")
        try store.setHeadlineStarred(true, publicationID: publication.id, key: "https://example.com/news/1")
        try store.setHeadlineRead(false, publicationID: publication.id, key: "https://example.com/news/3")
        let pending = try store.pendingMarks(accountID: account.id)
        XCTAssertEqual(Set(pending.map { "\($0.item.value) \($0.state.rawValue) \($0.adding)" }), ["11 read true", "11 starred true", "13 read false"])

        // The server's lists: 12 read there, 13 (unread here, not sent yet) read there too, 12 starred there.
        let markedRead = try store.markReadFromServer(accountID: account.id, unreadItems: [ServerItemID(11)])
        XCTAssertEqual(markedRead, 1, "12; 11 and 13 wait for their own marks to be sent")
        try store.applyStarredFromServer(accountID: account.id, starredItems: [ServerItemID(12)])
        var states = try self.states(store, publication.id)
        XCTAssertEqual(states["News 1"]?.read, true)
        XCTAssertEqual(states["News 1"]?.starred, true, "its star waits to be sent, so the server's list does not undo it")
        XCTAssertEqual(states["News 2"]?.read, true)
        XCTAssertEqual(states["News 2"]?.starred, true)
        XCTAssertEqual(states["News 3"]?.read, false)

        // Once sent, the server's lists decide, both ways: 12 unread again there, 11 unstarred there.
        try store.clearSentMarks(pending, accountID: account.id)
        try store.markReadFromServer(accountID: account.id, unreadItems: [ServerItemID(12), ServerItemID(13)])
        try store.applyStarredFromServer(accountID: account.id, starredItems: [])
        states = try self.states(store, publication.id)
        XCTAssertEqual(states["News 1"]?.read, true)
        XCTAssertEqual(states["News 2"]?.read, false, "unread on the server: unread here")
        XCTAssertEqual(states["News 3"]?.read, false)
        XCTAssertEqual(states["News 1"]?.starred, false)
        XCTAssertEqual(states["News 2"]?.starred, false)
    }

    func testAMigratedLibraryGetsHeadlineStatesAndTheMigrationRunsAgainSafely() throws {
        let (store, paths) = try TestSupport.store(for: self)
        let publication = try store.addPublication(title: "Kettle", feedURL: feed)
        try store.replaceHeadlines([headline(1)], publicationID: publication.id)
        store.close()
        // A library from before headline states (migration 19): the table gone, the version 18.
        let database = try SQLiteDatabase(path: paths.databaseFile.path)
        try database.execute("DROP TABLE headline_states; PRAGMA user_version = 18")
        database.close()
        let upgraded = try LibraryStore(file: paths.databaseFile)
        defer { upgraded.close() }
        XCTAssertEqual(try upgraded.headlines(publicationID: publication.id).map(\.isRead), [false])
        XCTAssertTrue(try upgraded.setHeadlineRead(true, publicationID: publication.id, key: "https://example.com/news/1"))
        XCTAssertEqual(try upgraded.headlines(publicationID: publication.id).map(\.isRead), [true])
        // Its SQL again over its own result changes nothing.
        try upgraded.database.execute(LibrarySchema.migrations[18])
        XCTAssertEqual(try upgraded.headlines(publicationID: publication.id).map(\.isRead), [true])
    }
}

/// An account sync against a server whose lists of ids are cut short: the states they would change wait, and the
/// sync says so; items are asked for oldest first, so where a cut-short listing stopped is where the next sync goes on.
final class AccountSyncListTests: XCTestCase {
    private var server: LocalHTTPServer!

    override func setUpWithError() throws {
        server = LocalHTTPServer()
        try server.start()
        let server = server!
        addTeardownBlock { server.stop() }
    }

    private let contents = "/api/greader.php/reader/api/0/stream/contents/user/-/state/com.google/reading-list"
    private let unreadIDs = "/api/greader.php/reader/api/0/stream/items/ids?output=json&s=user%2F-%2Fstate%2Fcom.google%2Freading-list&xt=user%2F-%2Fstate%2Fcom.google%2Fread&n=100000"
    private let starredIDs = "/api/greader.php/reader/api/0/stream/items/ids?output=json&s=user%2F-%2Fstate%2Fcom.google%2Fstarred&n=100000"

    private func page(_ ids: [Int64], continuation: String?) -> Data {
        let items = ids.map { id in
            #"{"id":"\#(ServerItemID(id).longForm)","timestampUsec":"\#(id)","published":\#(1_793_700_000 + id),"title":"Item \#(id)","origin":{"streamId":"feed/1"},"canonical":[{"href":"https://example.com/\#(id)"}],"summary":{"content":"<p>text</p>"}}"#
        }
        let tail = continuation.map { #","continuation":"\#($0)""# } ?? ""
        return Data(#"{"items":[\#(items.joined(separator: ","))]\#(tail)}"#.utf8)
    }

    func testAListCutShortChangesNoStateAndSaysSoAndPagingGoesOnFromWhereItStopped() throws {
        let (store, _) = try TestSupport.store(for: self)
        let api = server.url(for: "api/greader.php")
        let account = try store.addAccount(kind: .googleReader, url: api, user: "reader")
        server.setResource("/api/greader.php/reader/api/0/subscription/list",
                           data: Data(#"{"subscriptions":[{"id":"feed/1","title":"Alpha","url":"http://127.0.0.1:1/alpha.xml","categories":[]}]}"#.utf8),
                           contentType: "application/json")
        // Three pages oldest first; the client stops after two.
        server.setResource(contents + "?output=json&n=1000&r=o", data: page([1, 2], continuation: "p2"), contentType: "application/json")
        server.setResource(contents + "?output=json&n=1000&r=o&c=p2", data: page([3, 4], continuation: "p3"), contentType: "application/json")
        // The unread list repeats its continuation: cut short. The starred one is whole.
        server.setResource(unreadIDs, data: Data(#"{"itemRefs":[{"id":"3"}],"continuation":"u"}"#.utf8), contentType: "application/json")
        server.setResource(unreadIDs + "&c=u", data: Data(#"{"itemRefs":[{"id":"4"}],"continuation":"u"}"#.utf8), contentType: "application/json")
        server.setResource(starredIDs, data: Data(#"{"itemRefs":[{"id":"2"}]}"#.utf8), contentType: "application/json")
        let sync = AccountSync(store: store) { _ in
            let client = GoogleReaderClient(baseURL: api, authToken: "reader/token")
            client.maxPages = 2
            return client
        }
        let report = sync.sync(account)
        let problem = try XCTUnwrap(report.problem)
        XCTAssertTrue(problem.contains("had more than 2 pages of items; the rest waits for the next sync"), problem)
        XCTAssertTrue(problem.contains("the list of unread items was cut short (2 read); what was read elsewhere waits for the next sync"), problem)
        let alpha = try XCTUnwrap(try store.publications(accountID: account.id).first)
        let headlines = try store.headlines(publicationID: alpha.id)
        XCTAssertEqual(headlines.map(\.title), ["Item 4", "Item 3", "Item 2", "Item 1"])
        XCTAssertEqual(headlines.map(\.isRead), [false, false, false, false], "an unread list cut short marks nothing read")
        XCTAssertEqual(headlines.map(\.isStarred), [false, false, true, false], "the whole starred list applies")
        XCTAssertEqual(try store.accounts().first?.syncedToMicroseconds, 4, "the newest seen: the next sync goes on after it")

        // The next sync asks from there (`ot`) and gets the last page; the unread list is whole now.
        server.setResource(contents + "?output=json&n=1000&r=o&ot=0", data: page([5], continuation: nil), contentType: "application/json")
        server.setResource(unreadIDs, data: Data(#"{"itemRefs":[{"id":"5"},{"id":"4"}]}"#.utf8), contentType: "application/json")
        let again = sync.sync(try XCTUnwrap(try store.accounts().first))
        XCTAssertNil(again.problem)
        XCTAssertEqual(again.newItems, 1)
        XCTAssertEqual(again.markedRead, 3, "1, 2 and 3 are not unread on the server")
        XCTAssertEqual(try store.headlines(publicationID: alpha.id).map(\.title), ["Item 5", "Item 4", "Item 3", "Item 2", "Item 1"])
        XCTAssertEqual(try store.headlines(publicationID: alpha.id).map(\.isRead), [false, false, true, true, true])
        XCTAssertEqual(try store.headlines(publicationID: alpha.id).map(\.isNew), [true, false, false, false, false], "arrived after the first sync")
    }
}
