import XCTest
import NewsstandCore
@testable import NewsstandUI

/// The catalog browser's search (`/`), facets (`f`), paging as the selection nears the end, and choosing
/// another feed of a subscribed catalog (`F` on the subscriptions, `u` in the browser).
final class CatalogSearchAndPagingTests: XCTestCase {
    let theme = Theme.fallback
    let root = URL(string: "https://catalog.example/root.xml")!

    func entries(_ range: Range<Int>) -> [CatalogEntry] {
        range.map { CatalogEntry(name: "b\($0)", title: "Book \($0)", date: Date(timeIntervalSince1970: 0),
                                 contentURLs: [URL(string: "https://catalog.example/b\($0).epub")!], contentTypes: ["application/epub+zip"]) }
    }

    func page(_ number: Int, of last: Int, size: Int = 30) -> Feed {
        var feed = Feed(format: .opds1, title: "All books", entries: entries(number * size..<(number + 1) * size))
        feed.nextPage = number < last ? URL(string: "https://catalog.example/all?page=\(number + 1)")! : nil
        return feed
    }

    /// The browser open on the root of the publication's catalog, shown with `feed`.
    func browsing(_ feed: Feed, key: Character = "B") -> AppState {
        var publication = Fixtures.publication
        publication.feedURL = root
        var state = Fixtures.state(width: 80, height: 20, issues: [], publications: [publication])
        _ = AppUpdate.update(&state, .keyPressed(.character("s")))
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character(key))), [.loadFeed(root)])
        _ = AppUpdate.update(&state, .feedLoaded(root, .success(feed)))
        return state
    }

    func type(_ text: String, _ state: inout AppState) {
        for character in text { _ = AppUpdate.update(&state, .keyPressed(.character(character))) }
    }

    func testSlashSearchesTheCatalogAndShowsTheResultsAsAPage() {
        var feed = page(0, of: 0)
        feed.search = .template("https://catalog.example/search/{searchTerms}?lib=1")
        var state = browsing(feed)
        XCTAssertTrue(AppView.render(state, theme: theme).lines()[2].contains("/ search"))
        XCTAssertTrue(AppView.render(state, theme: theme).lines().last?.contains("/ search") == true, "the hint line offers it")
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("/"))), [])
        XCTAssertEqual(state.prompt?.kind, .searchCatalog)
        type("moby dick", &state)
        let key = URL(string: "https://catalog.example/search/moby%20dick?lib=1")!
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.enter)),
                       [.searchCatalog(.template("https://catalog.example/search/{searchTerms}?lib=1"), terms: "moby dick", pageKey: key)])
        XCTAssertEqual(state.catalog?.pages.count, 2)
        let results = Feed(format: .opds1, title: "Results", entries: entries(7..<8))
        _ = AppUpdate.update(&state, .feedLoaded(key, .success(results)))
        let lines = AppView.render(state, theme: theme).lines()
        XCTAssertTrue(lines[2].contains("Search: moby dick"), lines[2])
        XCTAssertTrue(lines[4].contains("Book 7"), lines[4])
        XCTAssertTrue(lines[5].contains("EPUB"), lines[5])
        _ = AppUpdate.update(&state, .keyPressed(.escape))
        XCTAssertEqual(state.catalog?.pages.count, 1, "back to the page searched from")
    }

    func testASearchThroughADescriptionIsKeyedByIt() {
        var feed = page(0, of: 0)
        let description = URL(string: "https://catalog.example/opensearch.xml")!
        feed.search = .description(description)
        var state = browsing(feed)
        _ = AppUpdate.update(&state, .keyPressed(.character("/")))
        type("tin", &state)
        let effects = AppUpdate.update(&state, .keyPressed(.enter))
        XCTAssertEqual(effects, [.searchCatalog(.description(description), terms: "tin", pageKey: URL(string: "https://catalog.example/opensearch.xml#search=tin")!)])
        let key = URL(string: "https://catalog.example/opensearch.xml#search=tin")!
        _ = AppUpdate.update(&state, .feedLoaded(key, .success(page(0, of: 0))))
        XCTAssertEqual(state.catalog?.current?.feed?.entries.count, 30, "the results land on the page keyed by the description")
    }

    func testNoSearchNoFacetsSaySo() {
        var state = browsing(page(0, of: 0))
        let lines = AppView.render(state, theme: theme).lines()
        XCTAssertFalse(lines.contains { $0.contains("/ search") }, "neither the subtitle nor the hint line offers a search: \(lines)")
        XCTAssertTrue(lines.last?.contains("a subscribe") == true, lines.last ?? "")
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("/"))), [])
        XCTAssertNil(state.prompt)
        XCTAssertEqual(state.message?.text, "This catalog offers no search.")
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("f"))), [])
        XCTAssertEqual(state.message?.text, "This feed offers no facets.")
    }

    func testFacetsAreAChoiceFollowedWithEnter() {
        var feed = page(0, of: 0)
        let romance = URL(string: "https://catalog.example/romance")!
        feed.facets = [CatalogFacet(group: "Categories", title: "Science-Fiction", url: URL(string: "https://catalog.example/sf")!, isActive: true),
                       CatalogFacet(group: "Categories", title: "Romance", url: romance, count: 600)]
        var state = browsing(feed)
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("f"))), [])
        let lines = AppView.render(state, theme: theme).lines()
        XCTAssertTrue(lines[2].contains("Facets of All books"), lines[2])
        XCTAssertTrue(lines[4].contains("▸ ✓ Categories: Science-Fiction"), lines[4])
        XCTAssertTrue(lines[6].contains("▸ Categories: Romance (600)"), lines[6])
        _ = AppUpdate.update(&state, .keyPressed(.down))
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.enter)), [.loadFeed(romance)])
    }

    func testTheNextPageLoadsNearTheEndAndTheWindowStaysBounded() {
        var state = browsing(page(0, of: 99))
        XCTAssertEqual(state.catalog?.current?.rowCount, 30)
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.down)), [], "far from the end")
        var effects = AppUpdate.update(&state, .keyPressed(.character("G")))
        for number in 1...99 {
            let next = URL(string: "https://catalog.example/all?page=\(number)")!
            XCTAssertEqual(effects, [.loadCatalogPage(next)], "page \(number)")
            XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("G"))), [], "one request at a time")
            _ = AppUpdate.update(&state, .catalogPageLoaded(next, .success(page(number, of: 99))))
            effects = AppUpdate.update(&state, .keyPressed(.character("G")))
        }
        XCTAssertEqual(effects, [], "the last page has no next")
        let current = try! XCTUnwrap(state.catalog?.current)
        XCTAssertEqual(current.rowCount, CatalogScreen.maxEntries, "a window of the newest pages read")
        XCTAssertEqual(current.droppedEntries, 3000 - CatalogScreen.maxEntries)
        XCTAssertEqual(current.feed?.entries.last?.title, "Book 2999")
        XCTAssertEqual(current.cursor.selection, current.rowCount - 1)
        XCTAssertTrue(AppView.render(state, theme: theme).lines()[2].contains("2000 earlier entries not kept"))
    }

    func testAPageThatFailsStopsPagingAndSaysWhy() {
        var state = browsing(page(0, of: 5))
        let next = URL(string: "https://catalog.example/all?page=1")!
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("G"))), [.loadCatalogPage(next)])
        _ = AppUpdate.update(&state, .catalogPageLoaded(next, .failure(ReaderFailure("the server answered 500"))))
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("G"))), [])
        XCTAssertTrue(AppView.render(state, theme: theme).lines()[2].contains("500"))
    }

    func testChoosingAnotherFeedOfTheCatalog() {
        let series = URL(string: "https://catalog.example/series/kettle")!
        var root = Feed(format: .opds1, title: "Library")
        root.navigation = [NavigationLink(title: "Series: Kettle", url: series)]
        var state = browsing(root, key: "F")
        XCTAssertEqual(state.catalog?.publicationID, Fixtures.publication.id)
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("u"))), [], "navigation is no shelf")
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.enter)), [.loadFeed(series)])
        _ = AppUpdate.update(&state, .feedLoaded(series, .success(page(0, of: 0))))
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("u"))),
                       [.switchCatalogFeed(publicationID: Fixtures.publication.id, url: series, title: "Series: Kettle")])
    }

    func testUseFeedNeedsAPublication() {
        var state = browsing(page(0, of: 0))
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("u"))), [])
        XCTAssertTrue(state.message?.text.contains("with F") == true)
    }
}
