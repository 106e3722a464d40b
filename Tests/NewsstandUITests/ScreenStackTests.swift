import Foundation
import XCTest
import NewsstandCore
@testable import NewsstandUI

/// Screens are values on a stack: each is reached only with its own state, messages reach it wherever it is,
/// and going back restores exactly what was there.
final class ScreenStackTests: XCTestCase {
    private let publications = (1...6).map { Publication(id: Int64($0), name: "p\($0)", title: "Publication \($0)", feedURL: URL(string: "https://example.com/\($0)")!) }

    func testEachScreenIsReachedWithItsStateAndBackRestoresWhatWasUnder() {
        var state = Fixtures.state(width: 90, height: 30, issues: [Fixtures.issue(1, "One")], publications: publications)
        _ = AppUpdate.update(&state, .keyPressed(.character("s")))
        for _ in 0..<3 { _ = AppUpdate.update(&state, .keyPressed(.down)) }
        let subscriptions = state.screens
        guard case .subscriptions(let cursor) = subscriptions.last else { return XCTFail("\(subscriptions)") }
        XCTAssertEqual(cursor.cursor.selection, 3)

        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("B"))), [.loadFeed(publications[3].feedURL)])
        XCTAssertEqual(state.screens.last, .catalog(CatalogScreen(url: publications[3].feedURL)), "the catalog opens with its browser")
        _ = AppUpdate.update(&state, .keyPressed(.escape))
        XCTAssertEqual(state.screens, subscriptions, "back restores the subscriptions exactly, cursor and all")

        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("H"))), [.loadHeadlines(publicationID: 4)])
        XCTAssertEqual(state.screens.last, .headlines(HeadlinesScreen(publicationID: 4, title: "Publication 4")))
        _ = AppUpdate.update(&state, .keyPressed(.character("?")))
        XCTAssertEqual(state.screen, .help)
        _ = AppUpdate.update(&state, .headlinesLoaded(publicationID: 4, .success([Headline(title: "News")])))
        _ = AppUpdate.update(&state, .keyPressed(.escape))
        XCTAssertEqual(state.screens.last, .headlines(HeadlinesScreen(publicationID: 4, title: "Publication 4", headlines: [Headline(title: "News")])),
                       "headlines that arrived under the help reached their screen")
        _ = AppUpdate.update(&state, .keyPressed(.escape))
        XCTAssertEqual(state.screens, subscriptions)

        _ = AppUpdate.update(&state, .keyPressed(.character("S")))
        XCTAssertEqual(state.screens.last, .storage(StorageScreen()), "the storage screen opens measuring")
        let report = StorageReport(usage: [], budget: nil, plannedRemovals: [])
        _ = AppUpdate.update(&state, .storageMeasured(report))
        XCTAssertEqual(state.screens.last, .storage(StorageScreen(report: report)))
    }

    func testASearchOpensItsResultsAndAHitOpensOverThem() {
        var state = Fixtures.state(issues: [Fixtures.issue(1, "One", state: .available)])
        _ = AppUpdate.update(&state, .keyPressed(.character("/")))
        for character in "tea" { _ = AppUpdate.update(&state, .keyPressed(.character(character))) }
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.enter)), [.searchLibrary(query: "tea")])
        XCTAssertEqual(state.screens, [.shelf, .searchResults(SearchResultsScreen(query: "tea"))])
        let hit = SearchHit(issueID: 1, issueName: "issue-1", issueTitle: "One", publicationName: "kettle", articleIndex: 2, articleTitle: "Brewing",
                            blockIndex: 4, snippet: [SnippetPart("tea", isMatch: true)])
        _ = AppUpdate.update(&state, .librarySearched(query: "tea", .success([hit])))
        let results = state.screens
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.enter)), [.openIssue(issueID: 1), .searchIssue(issueID: 1, query: "tea")])
        XCTAssertEqual(state.screen, .contents)
        XCTAssertEqual(state.reader?.openAt, ReadingPosition(articleIndex: 2, blockIndex: 4))
        _ = AppUpdate.update(&state, .keyPressed(.escape))
        XCTAssertEqual(state.screens, results, "back from the issue returns to the results as they were")
    }

    func testHelpOverTheReaderKeepsTheReaderAsItWas() {
        var state = Fixtures.state(issues: [Fixtures.issue(7, "Spring", state: .available)])
        _ = AppUpdate.update(&state, .keyPressed(.enter))
        let reading = state.screens
        XCTAssertEqual(reading, [.shelf, .reader(ReaderScreen(issueID: 7))])
        _ = AppUpdate.update(&state, .keyPressed(.character("?")))
        _ = AppUpdate.update(&state, .keyPressed(.pageDown))
        XCTAssertEqual(state.screens.count, 3)
        _ = AppUpdate.update(&state, .keyPressed(.character("q")))
        XCTAssertEqual(state.screens, reading)
        _ = AppUpdate.update(&state, .keyPressed(.escape))
        XCTAssertEqual(state.screens, [.shelf])
    }
}
