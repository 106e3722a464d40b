import XCTest
import NewsstandCore
@testable import NewsstandUI

/// Browsing an OPDS catalog from the subscriptions screen.
final class CatalogBrowserTests: XCTestCase {
    let theme = Theme.fallback
    let root = URL(string: "https://catalog.example/root.xml")!
    let section = URL(string: "https://catalog.example/popular.xml")!

    func browsing() -> AppState {
        var publication = Fixtures.publication
        publication.feedURL = root
        var state = Fixtures.state(width: 80, height: 20, issues: [], publications: [publication])
        _ = AppUpdate.update(&state, .keyPressed(.character("s")))
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("B"))), [.loadFeed(root)])
        return state
    }

    func testNavigationEntriesAreFollowedAndBackedOutOf() {
        var state = browsing()
        XCTAssertEqual(state.screen, .catalog)
        XCTAssertTrue(AppView.render(state, theme: theme).lines()[4].contains("Loading…"))
        let feed = Feed(format: .opds1, title: "Library", entries: [CatalogEntry(name: "moby", title: "Moby-Dick", date: Date(timeIntervalSince1970: 0),
                                                                                 contentURLs: [URL(string: "https://catalog.example/moby.epub")!])],
                        headlines: [], navigation: [NavigationLink(title: "Popular", url: section, summary: "What people read")],
                        nextPage: nil, problems: [])
        _ = AppUpdate.update(&state, .feedLoaded(root, .success(feed)))
        let lines = AppView.render(state, theme: theme).lines()
        XCTAssertEqual(lines[1], "  CATALOG · Library")
        XCTAssertEqual(lines[4], "▌ ▸ Popular")
        XCTAssertEqual(lines[5], "▌   What people read")
        XCTAssertEqual(lines[6], "    Moby-Dick")
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.enter)), [.loadFeed(section)])
        XCTAssertEqual(state.catalog?.pages.count, 2)
        _ = AppUpdate.update(&state, .feedLoaded(section, .failure(ReaderFailure("the server answered 404"))))
        XCTAssertTrue(AppView.render(state, theme: theme).lines()[4].contains("This feed cannot be read: the server answered 404"))
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("a"))), [.subscribe(url: section.absoluteString)])
        _ = AppUpdate.update(&state, .keyPressed(.escape))
        XCTAssertEqual(state.catalog?.current?.url, root, "back up to the first page")
        _ = AppUpdate.update(&state, .keyPressed(.down))
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.enter)), [], "an issue is not followed as a feed")
        XCTAssertEqual(state.screen, .acquisitions, "its files are offered instead")
        _ = AppUpdate.update(&state, .keyPressed(.escape))
        _ = AppUpdate.update(&state, .keyPressed(.escape))
        XCTAssertEqual(state.screen, .subscriptions)
        XCTAssertNil(state.catalog)
    }

    func testALateAnswerForAPageNoLongerShownIsIgnored() {
        var state = browsing()
        _ = AppUpdate.update(&state, .keyPressed(.escape))
        _ = AppUpdate.update(&state, .feedLoaded(root, .failure(ReaderFailure("late"))))
        XCTAssertNil(state.catalog)
    }
}
