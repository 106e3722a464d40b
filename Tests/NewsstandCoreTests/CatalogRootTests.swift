import Foundation
import XCTest
@testable import NewsstandCore
import LocalHTTPServer

/// Subscribing to a catalog root: following its navigation to the feed a reader wants as a shelf,
/// and switching a publication to another feed of the same catalog.
final class CatalogRootTests: XCTestCase {
    static let navigationType = "application/atom+xml;profile=opds-catalog;kind=navigation"
    static let acquisitionType = "application/atom+xml;profile=opds-catalog;kind=acquisition"

    /// An OPDS 1 navigation feed with one entry per (title, href, rel, type).
    static func navigationFeed(title: String, _ entries: [(title: String, href: String, rel: String?, type: String)]) -> Data {
        let items = entries.enumerated().map { index, entry in
            """
              <entry><title>\(entry.title)</title><id>nav-\(index)</id><updated>2026-01-01T00:00:00Z</updated>
                <link \(entry.rel.map { "rel=\"\($0)\" " } ?? "")type="\(entry.type)" href="\(entry.href)"/></entry>
            """
        }.joined(separator: "\n")
        return Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <feed xmlns="http://www.w3.org/2005/Atom" xmlns:opds="http://opds-spec.org/2010/catalog">
              <id>root</id><title>\(title)</title><updated>2026-01-01T00:00:00Z</updated>
              <link rel="start" type="\(navigationType)" href="/root.xml"/>
            \(items)
            </feed>
            """.utf8)
    }

    /// An OPDS 1 acquisition feed of EPUB books named `names` (newest first), with `next` when given.
    static func acquisitionFeed(title: String, names: [String], next: String? = nil, extraLinks: String = "") -> Data {
        let items = names.enumerated().map { index, name in
            """
              <entry><title>Book \(name)</title><id>urn:book:\(name)</id>
                <updated>\(String(format: "2026-01-%02dT00:00:00Z", max(1, 28 - index % 28)))</updated>
                <link rel="http://opds-spec.org/acquisition" type="application/epub+zip" href="/books/\(name).epub" length="1234"/></entry>
            """
        }.joined(separator: "\n")
        return Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <feed xmlns="http://www.w3.org/2005/Atom" xmlns:opds="http://opds-spec.org/2010/catalog" xmlns:thr="http://purl.org/syndication/thread/1.0">
              <id>\(title)</id><title>\(title)</title><updated>2026-01-01T00:00:00Z</updated>
              \(next.map { "<link rel=\"next\" type=\"\(acquisitionType)\" href=\"\($0)\"/>" } ?? "")
              \(extraLinks)
            \(items)
            </feed>
            """.utf8)
    }

    func testTheSortNewRelationIsChosenFirst() throws {
        let (store, _) = try TestSupport.store(for: self)
        let server = try TestSupport.server(for: self)
        server.setResource("/root.xml", data: Self.navigationFeed(title: "Town Library", [
            ("Popular", "/popular.xml", "http://opds-spec.org/sort/popular", Self.acquisitionType),
            ("Latest additions", "/latest.xml", nil, Self.acquisitionType),
            ("Fresh", "/fresh.xml", "http://opds-spec.org/sort/new", Self.acquisitionType),
        ]))
        server.setResource("/fresh.xml", data: Self.acquisitionFeed(title: "Fresh", names: ["a", "b"]))
        let publication = try PublicationRefresher(store: store).subscribe(to: server.url(for: "/root.xml"))
        XCTAssertEqual(publication.title, "Town Library")
        XCTAssertEqual(publication.catalogFeedTitle, "Fresh")
        XCTAssertEqual(publication.subscribedTitle, "Town Library (Fresh)")
        XCTAssertEqual(publication.catalogRoot, server.url(for: "/root.xml"))
        XCTAssertEqual(publication.feedURL, server.url(for: "/fresh.xml"))
        XCTAssertEqual(try store.issues(publicationID: publication.id).map(\.name), ["urn:book:a", "urn:book:b"])
    }

    func testATitleLikeNewestIsChosenWithoutARelation() throws {
        XCTAssertEqual(CatalogShelfChooser.choice(in: [
            NavigationLink(title: "By Title", url: URL(string: "http://x/t")!),
            NavigationLink(title: "By Newest", url: URL(string: "http://x/n")!),
        ])?.title, "By Newest")
        XCTAssertEqual(CatalogShelfChooser.choice(in: [
            NavigationLink(title: "Renewals", url: URL(string: "http://x/r")!),
            NavigationLink(title: "Recently added", url: URL(string: "http://x/ra")!),
        ])?.title, "Recently added", "a whole word, not 'new' inside another")
        var acquisition = NavigationLink(title: "All books", url: URL(string: "http://x/all")!)
        acquisition.isAcquisitionFeed = true
        XCTAssertEqual(CatalogShelfChooser.choice(in: [NavigationLink(title: "Authors", url: URL(string: "http://x/a")!), acquisition])?.title,
                       "All books", "else the first acquisition feed")
        XCTAssertEqual(CatalogShelfChooser.choice(in: [NavigationLink(title: "Authors", url: URL(string: "http://x/a")!)])?.title, "Authors")
        XCTAssertNil(CatalogShelfChooser.choice(in: []))
    }

    func testNestedNavigationIsFollowedAndOPDS2AlsoWorks() throws {
        let (store, _) = try TestSupport.store(for: self)
        let server = try TestSupport.server(for: self)
        let root = """
            {"metadata": {"title": "Comics Home"},
             "links": [{"rel": "self", "href": "/home.json", "type": "application/opds+json"}],
             "navigation": [{"title": "Libraries", "href": "/libraries.json", "type": "application/opds+json"}]}
            """
        let libraries = """
            {"metadata": {"title": "Libraries"},
             "navigation": [{"title": "Series", "href": "/series.json", "type": "application/opds+json"},
                            {"title": "Recently added", "href": "/recent.json", "type": "application/opds+json", "rel": "http://opds-spec.org/sort/new"}]}
            """
        let recent = """
            {"metadata": {"title": "Recently added"},
             "publications": [{"metadata": {"identifier": "urn:c1", "title": "Issue One", "modified": "2026-01-02T00:00:00Z"},
               "links": [{"rel": "http://opds-spec.org/acquisition", "href": "/c1.cbz", "type": "application/vnd.comicbook+zip"}]}]}
            """
        server.setResource("/home.json", data: Data(root.utf8))
        server.setResource("/libraries.json", data: Data(libraries.utf8))
        server.setResource("/recent.json", data: Data(recent.utf8))
        let publication = try PublicationRefresher(store: store).subscribe(to: server.url(for: "/home.json"))
        XCTAssertEqual(publication.title, "Comics Home")
        XCTAssertEqual(publication.catalogFeedTitle, "Libraries › Recently added")
        XCTAssertEqual(try store.issues(publicationID: publication.id).map(\.name), ["urn:c1"])
    }

    func testANavigationLoopEndsWithoutIssues() throws {
        let (store, _) = try TestSupport.store(for: self)
        let server = try TestSupport.server(for: self)
        server.setResource("/root.xml", data: Self.navigationFeed(title: "Loop", [("Newest", "/root.xml", nil, Self.navigationType)]))
        let publication = try PublicationRefresher(store: store).subscribe(to: server.url(for: "/root.xml"))
        XCTAssertEqual(try store.issues(publicationID: publication.id).count, 0)
        XCTAssertNil(publication.catalogRoot, "nothing else was chosen")
    }

    func testSwitchingToAnotherFeedOfTheCatalogKeepsTheRootAndTitle() throws {
        let (store, _) = try TestSupport.store(for: self)
        let server = try TestSupport.server(for: self)
        server.setResource("/root.xml", data: Self.navigationFeed(title: "Town Library", [
            ("New", "/new.xml", nil, Self.acquisitionType), ("Series: Kettle", "/kettle.xml", "subsection", Self.acquisitionType),
        ]))
        server.setResource("/new.xml", data: Self.acquisitionFeed(title: "New", names: ["a", "b", "c"]))
        server.setResource("/kettle.xml", data: Self.acquisitionFeed(title: "Town Library :: Kettle", names: ["k1", "b"]))
        let refresher = PublicationRefresher(store: store)
        let publication = try refresher.subscribe(to: server.url(for: "/root.xml"))
        let outcome = try refresher.switchFeed(of: publication, to: server.url(for: "/kettle.xml"), title: "Series: Kettle")
        XCTAssertNil(outcome.problem)
        let switched = try XCTUnwrap(try store.publication(id: publication.id))
        XCTAssertEqual(switched.feedURL, server.url(for: "/kettle.xml"))
        XCTAssertEqual(switched.catalogRoot, server.url(for: "/root.xml"))
        XCTAssertEqual(switched.title, "Town Library", "the root's title stays")
        XCTAssertEqual(switched.subscribedTitle, "Town Library (Series: Kettle)")
        XCTAssertEqual(Set(try store.issues(publicationID: publication.id).map(\.name)), ["urn:book:k1", "urn:book:b"])
        // A refresh reads the new feed.
        server.setResource("/kettle.xml", data: Self.acquisitionFeed(title: "Town Library :: Kettle", names: ["k2", "k1", "b"]))
        XCTAssertEqual(refresher.refresh(switched).newIssueNames, ["urn:book:k2"])
        XCTAssertEqual(try store.publication(id: publication.id)?.title, "Town Library")
    }

    func testARefreshStoresAtMostTheNewestEntriesAndStopsPaging() throws {
        let (store, _) = try TestSupport.store(for: self)
        let server = try TestSupport.server(for: self)
        for page in 0..<20 {
            let names = (0..<50).map { "p\(page)-\($0)" }
            server.setResource("/page\(page).xml", data: Self.acquisitionFeed(title: "Big", names: names, next: page < 19 ? "/page\(page + 1).xml" : nil))
        }
        var refresher = PublicationRefresher(store: store)
        refresher.maxEntries = 120
        let publication = try refresher.subscribe(to: server.url(for: "/page0.xml"))
        XCTAssertEqual(try store.issues(publicationID: publication.id).count, 120)
        XCTAssertEqual(server.settledLog().filter { $0.path.hasPrefix("/page") }.count, 3, "pages stop once enough entries are in hand")
        // The page cap still holds with a large entry cap.
        let (other, _) = try TestSupport.store(for: self)
        var unbounded = PublicationRefresher(store: other)
        unbounded.maxEntries = 1_000_000
        let all = try unbounded.subscribe(to: server.url(for: "/page0.xml"))
        XCTAssertEqual(try other.issues(publicationID: all.id).count, 500, "10 pages of 50")
    }

    func testTheEntryCapIsASetting() {
        XCTAssertEqual(Configuration().maxCatalogEntries, 1000)
        XCTAssertEqual(Configuration.parse("max-catalog-entries 250").maxCatalogEntries, 250)
        let bad = Configuration.parse("max-catalog-entries none")
        XCTAssertEqual(bad.maxCatalogEntries, 1000)
        XCTAssertEqual(bad.warnings.count, 1)
    }
}
