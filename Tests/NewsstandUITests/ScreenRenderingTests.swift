import XCTest
import NewsstandContent
import NewsstandCore
@testable import NewsstandUI

/// Whole screens rendered into a cell buffer and compared as text.
final class ScreenRenderingTests: XCTestCase {
    let theme = Theme.fallback

    func testShelfRowsShowCoverTitleDateSummaryAndState() {
        var state = Fixtures.state(width: 72, height: 22, issues: [
            Fixtures.issue(1, "Maps & Margins", state: .available, day: 20),
            Fixtures.issue(2, "Small Engines", state: .downloading, progress: 0.42, day: 10, opened: false),
        ], reading: 1)
        let request = CoverArtRequest(issueID: 1, columns: 12, rows: 8)
        _ = AppUpdate.update(&state, .coverReported(.rendered(request, Fixtures.art("#"))))
        _ = AppUpdate.update(&state, .downloadReported(.progressed(issueID: 2, fraction: 0.42, receivedBytes: 440_402, totalBytes: 1_048_576, bytesPerSecond: 0)))
        let lines = AppView.render(state, theme: theme).lines()
        XCTAssertEqual(lines, [
            " NEWSSTAND  Kettle & Compass (1 new)",
            "  ▶ Continue reading Maps & Margins  c",
            "",
            "▌ ############  Maps & Margins                                  READING",
            "▌ ############  20 March 2026",
            "▌ ############",
            "▌ ############  Summary of Maps & Margins.",
            "▌ ############",
            "▌ ############",
            "▌ ############",
            "▌ ############  TAP TO READ",
            "",
            "  +----------+  Small Engines                                       NEW",
            "  |          |  10 March 2026",
            "  |          |",
            "  |          |  Summary of Small Engines.",
            "  |    …     |",
            "  |          |",
            "  |          |",
            // 35 bar cells, 42% of them done, then the percentage and the bytes.
            "  +----------+  " + String(repeating: "━", count: 14) + String(repeating: "─", count: 21) + "  42% 0.4 of 1.0 MB",
            "",
            " Enter open  Tab next pub  v view  c continue  ? help  q quit       1/2",
        ])
    }

    func testContinueReadingEntryNamesTheArticleAndOpensItWhenClicked() {
        var state = Fixtures.state(width: 80, height: 24, issues: [Fixtures.issue(1, "Old", day: 1), Fixtures.issue(2, "Being Read", state: .available, day: 2)])
        state.library.readingPosition = ReadingPosition(articleIndex: 2, blockIndex: 14)
        XCTAssertNil(ShelfLayout(state: state).continueLine, "nothing is being read yet")
        state.library.readingIssue = state.loadedIssue(id: 2)
        let layout = ShelfLayout(state: state)
        let line = try! XCTUnwrap(layout.continueLine)
        XCTAssertEqual(AppView.render(state, theme: theme).lines()[line.y], "  ▶ Continue reading Being Read, article 3  c")
        XCTAssertEqual(layout.listArea.y, 3, "the issues start below the entry")
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.mouseClick(x: 10, y: line.y))), [.openIssue(issueID: 2)])
        XCTAssertEqual(state.screen, .contents)
    }

    func testACoverOnlyEverLandsInItsOwnIssuesRow() {
        let issues = (1...6).map { Fixtures.issue(Int64($0), "Issue \($0)", day: 20 - $0) }
        var state = Fixtures.state(width: 60, height: 30, issues: issues)
        // Covers arrive out of order, for rows in and out of view, while the user scrolls.
        let symbols: [Int64: Character] = [1: "A", 2: "B", 3: "C", 4: "D", 5: "E", 6: "F"]
        for id in [5, 1, 3, 6, 2, 4] as [Int64] {
            _ = AppUpdate.update(&state, .keyPressed(.down))
            _ = AppUpdate.update(&state, .coverReported(.rendered(CoverArtRequest(issueID: id, columns: 12, rows: 8), Fixtures.art(symbols[id]!))))
        }
        for scrollTo in 0..<6 {
            state.shelf.cursors[1]?.selection = scrollTo
            _ = AppUpdate.update(&state, .keyPressed(.up))
            _ = AppUpdate.update(&state, .keyPressed(.down))
            let buffer = AppView.render(state, theme: theme)
            let layout = ShelfLayout(state: state)
            for offset in 0..<layout.visibleItemCount {
                let index = (state.shelf.cursors[1]?.offset ?? 0) + offset
                guard index < issues.count else { break }
                let row = layout.itemRect(offset: offset)
                let line = buffer.lines()[row.y]
                XCTAssertTrue(line.contains(String(repeating: String(symbols[issues[index].id]!), count: 12)) && line.contains(issues[index].title),
                              "row of \(issues[index].title) shows another cover: \(line)")
            }
        }
    }

    func testFailedIssueShowsItsReasonAndNewMarker() {
        let state = Fixtures.state(width: 90, height: 30, issues: [
            Fixtures.issue(3, "Long Nights", state: .failed(reason: "server answered 404"), day: 9),
            Fixtures.issue(4, "Short Days", state: .available, day: 8, opened: false),
        ])
        let text = AppView.render(state, theme: theme).lines().joined(separator: "\n")
        XCTAssertTrue(text.contains("FAILED: server answered 404 · Enter to retry"))
        XCTAssertEqual(text.split(separator: "\n").filter { $0.hasSuffix(" NEW") }.count, 1, "only the issue that arrived and was not opened is NEW")
        XCTAssertTrue(text.contains("Kettle & Compass (1 new)"))
    }

    func testCompactLayoutOnSmallTerminalsAndNoCrashAtTinySizes() {
        let issues = [Fixtures.issue(1, "A long title that will need clipping somewhere", state: .available)]
        let state = Fixtures.state(width: 30, height: 10, issues: issues)
        let lines = AppView.render(state, theme: theme).lines()
        XCTAssertEqual(lines[1], "▌ A long title that will need")
        XCTAssertEqual(lines[3], "▌ TAP TO READ")
        for (width, height) in [(0, 0), (1, 1), (2, 3), (5, 2), (12, 4)] {
            var tiny = Fixtures.state(width: width, height: height, issues: issues)
            _ = AppUpdate.update(&tiny, .keyPressed(.down))
            let buffer = AppView.render(tiny, theme: theme)
            XCTAssertEqual(buffer.width, width)
            XCTAssertEqual(buffer.height, height)
        }
    }

    func testPublicationProblemIsShownAboveTheShelf() {
        var problem = Fixtures.publication
        problem.lastError = "Kettle & Compass: the catalog is not a property list"
        let state = Fixtures.state(width: 80, height: 24, issues: [Fixtures.issue(1, "A")], publications: [problem])
        let lines = AppView.render(state, theme: theme).lines()
        XCTAssertEqual(lines[1], " ⚠ Kettle & Compass: the catalog is not a property list")
        XCTAssertTrue(lines[2].contains("A"), "the issues follow below the notice")
    }

    func testContentsAndArticleScreens() {
        var state = Fixtures.state(width: 60, height: 16, issues: [Fixtures.issue(7, "Spring", state: .available)])
        _ = AppUpdate.update(&state, .keyPressed(.enter))
        let book = EPUBBook(title: "Spring Issue", creator: nil, language: nil, version: "3.0",
                            articles: [EPUBArticle(title: "Knives", file: URL(fileURLWithPath: "/a"), mediaType: ""),
                                       EPUBArticle(title: "Seeds", file: URL(fileURLWithPath: "/b"), mediaType: "")],
                            tableOfContents: [], coverImage: nil)
        _ = AppUpdate.update(&state, .issueOpened(issueID: 7, .success(book), resumeAt: nil))
        _ = AppUpdate.update(&state, .keyPressed(.down))
        var lines = AppView.render(state, theme: theme).lines()
        XCTAssertEqual(Array(lines[1...4]), ["  Spring Issue", "", "     1  Knives", "     2  Seeds"])
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.enter)), [.loadArticle(issueID: 7, articleIndex: 1)])
        _ = AppUpdate.update(&state, .articleLoaded(issueID: 7, articleIndex: 1, .success([
            .heading(level: 1, text: "Seeds"), .paragraph("A library of seeds lends packets in spring and asks for seeds back in autumn."),
            .listItem(depth: 0, marker: "•", text: "beans"), .quote("Save the best."),
        ])))
        lines = AppView.render(state, theme: theme).lines()
        XCTAssertEqual(Array(lines[1...10]), [
            " SEEDS",
            " ━━━━━",
            "",
            " A library of seeds lends packets in spring and asks for",
            " seeds back in autumn.",
            "",
            " • beans",
            "",
            "   │ Save the best.",
            "",
        ])
        XCTAssertTrue(lines[15].hasSuffix("article 2/2 · 100% · issue 100% · < 1 min left"), lines[15])
    }

    func testHelpScreenListsKeysFromTheKeyTable() {
        var state = Fixtures.state(width: 100, height: 60, issues: [])
        _ = AppUpdate.update(&state, .keyPressed(.character("?")))
        let text = AppView.render(state, theme: theme).lines().joined(separator: "\n")
        XCTAssertTrue(text.contains("Tab"))
        XCTAssertTrue(text.contains("Next subscribed publication"))
        XCTAssertTrue(text.contains("Continue reading the issue you were reading"))
        XCTAssertTrue(text.contains("Esc/q/Backspace"))
    }

    func testHostileTitlesCannotReachTheTerminal() {
        var issue = Fixtures.issue(1, "Evil\u{1B}]0;owned\u{7}\u{1B}[2J title")
        issue.summary = "\u{9B}31mred"
        let state = Fixtures.state(width: 80, height: 24, issues: [issue])
        let buffer = AppView.render(state, theme: theme)
        for cell in buffer.cells {
            XCTAssertFalse(cell.symbol.unicodeScalars.contains { $0.value < 0x20 || (0x7F..<0xA0).contains($0.value) })
        }
    }
}
