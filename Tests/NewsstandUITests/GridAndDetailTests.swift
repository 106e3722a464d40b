import XCTest
import NewsstandCore
@testable import NewsstandUI

/// The shelf as a grid of covers, and an issue's own page.
final class GridAndDetailTests: XCTestCase {
    let theme = Theme.fallback
    let issues = (1...7).map { Fixtures.issue(Int64($0), "Issue \($0)", state: $0 == 2 ? .available : .notDownloaded, day: 20 - $0) }

    func gridState(width: Int = 80, height: Int = 40) -> AppState {
        var state = Fixtures.state(width: width, height: height, issues: issues)
        _ = AppUpdate.update(&state, .keyPressed(.character("v")))
        return state
    }

    func testGridPlacesCoversSideBySideWithTitlesBeneath() {
        var state = gridState()
        let layout = ShelfLayout(state: state)
        XCTAssertEqual(layout.mode, .grid)
        XCTAssertEqual(layout.columns, 3)
        for (id, symbol) in [(1, "A"), (2, "B"), (3, "C"), (4, "D")] as [(Int64, Character)] {
            _ = AppUpdate.update(&state, .coverReported(.rendered(CoverArtRequest(issueID: id, columns: 18, rows: 12), Fixtures.art(symbol, columns: 18, rows: 12))))
        }
        let lines = AppView.render(state, theme: theme).lines()
        XCTAssertEqual(lines[1], " ▌AAAAAAAAAAAAAAAAAA   BBBBBBBBBBBBBBBBBB   CCCCCCCCCCCCCCCCCC")
        XCTAssertEqual(lines[13], " ▌Issue 1              Issue 2              Issue 3")
        XCTAssertEqual(lines[15], " ▌TAP TO DOWNLOAD      TAP TO READ          TAP TO DOWNLOAD")
        XCTAssertEqual(lines[17], "  DDDDDDDDDDDDDDDDDD   +----------------+   +----------------+", "issues without art yet keep a placeholder of the cover's size")
    }

    func testGridKeysMoveByRowAndColumnAndAClickPicksTheTile() {
        var state = gridState()
        _ = AppUpdate.update(&state, .keyPressed(.right))
        XCTAssertEqual(state.shelfCursor.selection, 1)
        _ = AppUpdate.update(&state, .keyPressed(.down))
        XCTAssertEqual(state.shelfCursor.selection, 4, "down moves a whole row of three")
        _ = AppUpdate.update(&state, .keyPressed(.character("h")))
        XCTAssertEqual(state.shelfCursor.selection, 3)
        let layout = ShelfLayout(state: state)
        let second = layout.itemRect(offset: 1)
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.mouseClick(x: second.x + 3, y: second.y + 2))), [.openIssue(issueID: 2)])
    }

    func testViewChoiceIsRememberedAndTooSmallFallsBackToTheList() {
        var state = Fixtures.state(width: 80, height: 40, issues: issues)
        let effects = AppUpdate.update(&state, .keyPressed(.character("v")))
        XCTAssertTrue(effects.contains(.saveSetting(key: AppState.shelfViewSetting, value: "grid")))
        XCTAssertTrue(effects.contains { if case .requestCovers(let requests) = $0 { return requests.allSatisfy { $0.columns == 18 } } else { return false } },
                      "the grid asks for its larger covers")
        var small = Fixtures.state(width: 40, height: 14, issues: issues)
        _ = AppUpdate.update(&small, .keyPressed(.character("v")))
        XCTAssertEqual(small.shelf.viewMode, .grid)
        XCTAssertEqual(ShelfLayout(state: small).mode, .list)
        XCTAssertEqual(small.message?.text, "The window is too small for the grid; showing the list.")
    }

    func testCoverRequestsCarryTheChosenMode() {
        var state = Fixtures.state(width: 80, height: 40, issues: issues)
        state.coverMode = .blocks
        state.covers.askAgain { _ in true }
        let effects = AppUpdate.update(&state, .resized(width: 80, height: 40))
        guard case .requestCovers(let requests)? = effects.first else { return XCTFail("covers are asked for: \(effects)") }
        XCTAssertTrue(requests.allSatisfy { $0.mode == .blocks })
    }

    func testIssuePageShowsTheLargeCoverAndDetailsAndMovesBetweenIssues() {
        var state = Fixtures.state(width: 90, height: 30, issues: issues)
        _ = AppUpdate.update(&state, .keyPressed(.down))
        let effects = AppUpdate.update(&state, .keyPressed(.character("i")))
        XCTAssertEqual(state.screen, .detail)
        let size = DetailScreen.coverSize(width: 90, height: 30)
        XCTAssertEqual(size.columns, 39)
        XCTAssertEqual(size.rows, 26)
        XCTAssertEqual(effects, [.requestCovers([CoverArtRequest(issueID: 2, columns: 39, rows: 26)])])
        let text = AppView.render(state, theme: theme).lines().joined(separator: "\n")
        for expected in ["Issue 2", "Kettle & Compass", "18 March 2026", "TAP TO READ", "Summary of Issue 2."] {
            XCTAssertTrue(text.contains(expected), "the issue page lacks \(expected)")
        }
        _ = AppUpdate.update(&state, .keyPressed(.character("j")))
        XCTAssertEqual(state.selectedIssueValue?.id, 3)
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.enter)).first, .download(issueID: 3))
        _ = AppUpdate.update(&state, .keyPressed(.escape))
        XCTAssertEqual(state.screen, .shelf)
    }

    func testIssuePageShowsTheNameTheCommandLineTakes() {
        var issue = Fixtures.issue(1, "Small Engines")
        issue.name = "urn:uuid:4ca679e5-0b1c-4d7e-9f00-000000000001"
        issue.handle = "small-engines-2026"
        var state = Fixtures.state(width: 90, height: 30, issues: [issue])
        _ = AppUpdate.update(&state, .keyPressed(.character("i")))
        XCTAssertEqual(state.screen, .detail)
        let text = AppView.render(state, theme: theme).lines().joined(separator: "\n")
        XCTAssertTrue(text.contains("kettle/small-engines-2026"), text)
        XCTAssertFalse(text.contains("urn:uuid"), "the catalog's id is not shown: \(text)")
    }
}
