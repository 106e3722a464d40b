import Foundation
import NewsstandCore
import XCTest
@testable import NewsstandUI

/// Screen-reader mode: the cursor on the selected row or the reading line, no covers, pictures or decoration, and
/// state changes said in words.
final class ScreenReaderTests: XCTestCase {
    private func state(_ issues: [Issue], screenReader: Bool = true, height: Int = 24) -> (AppState, ShelfFixture) {
        var state = AppState(width: 80, height: height)
        state.screenReader = screenReader
        let shelves = ShelfFixture(publications: [Fixtures.publication], issues: issues)
        shelves.apply(.libraryLoaded(shelves.overview(reading: nil)), to: &state)
        return (state, shelves)
    }

    private let issues = [Fixtures.issue(1, "Maps & Margins", state: .downloading, progress: 0.4), Fixtures.issue(2, "The Long Table", state: .available),
                          Fixtures.issue(3, "Small Engines", day: 3)]

    func testTheCursorFollowsTheSelectedRowAndIsHiddenOtherwise() {
        var (state, shelves) = state(issues)
        let layout = state.shelfLayout
        XCTAssertEqual(layout.coverColumns, 0, "no covers: the compact list")
        XCTAssertEqual(AppView.cursor(state)?.y, layout.itemRect(offset: 0).y)
        shelves.apply(.keyPressed(.down), to: &state)
        shelves.apply(.keyPressed(.down), to: &state)
        let cursor = AppView.cursor(state)
        XCTAssertEqual(cursor?.y, layout.itemRect(offset: 2).y)
        let lines = AppView.render(state, theme: .fallback).lines()
        XCTAssertTrue(lines[cursor!.y].contains("Small Engines"), "the cursor's line is the selected issue's: \(lines[cursor!.y])")

        let (plain, _) = self.state(issues, screenReader: false)
        XCTAssertNil(AppView.cursor(plain))
        XCTAssertGreaterThan(plain.shelfLayout.coverColumns, 0)
    }

    func testDecorationIsNotDrawnButItsWordsAre() {
        let (state, _) = state(issues)
        let text = AppView.render(state, theme: .fallback).lines().joined(separator: "\n")
        XCTAssertNil(text.unicodeScalars.first { (0x2500...0x25FF).contains($0.value) }, "no bars, rules or frames:\n\(text)")
        XCTAssertTrue(text.contains("40%"), text)
        XCTAssertTrue(text.contains("TAP TO READ"), text)
        let (plain, _) = self.state(issues, screenReader: false)
        XCTAssertNotNil(AppView.render(plain, theme: .fallback).lines().joined().unicodeScalars.first { (0x2500...0x25FF).contains($0.value) })
    }

    func testCoversAndPicturesAreNeverAskedFor() {
        let shelves = ShelfFixture(publications: [Fixtures.publication], issues: issues)
        func asksForCovers(screenReader: Bool) -> Bool {
            var state = AppState(width: 100, height: 40)
            state.screenReader = screenReader
            return shelves.apply(.libraryLoaded(shelves.overview()), to: &state).contains { if case .requestCovers = $0 { true } else { false } }
        }
        XCTAssertFalse(asksForCovers(screenReader: true))
        XCTAssertTrue(asksForCovers(screenReader: false), "without the mode, covers are asked for")
    }

    func testStateChangesAreSaidInWords() {
        var (state, _) = state(issues)
        _ = AppUpdate.update(&state, .downloadReported(.started(issueID: 3, resumedAt: nil)))
        XCTAssertEqual(state.message?.text, "Downloading “Small Engines”.")
        _ = AppUpdate.update(&state, .downloadReported(.paused(issueID: 3)))
        XCTAssertEqual(state.message?.text, "“Small Engines” is paused.")
        _ = AppUpdate.update(&state, .downloadReported(.cancelled(issueID: 3)))
        XCTAssertEqual(state.message?.text, "The download of “Small Engines” was cancelled.")
    }

    func testInTheReaderTheCursorIsOnTheReadingLineAndArticlesAreAnnounced() {
        var (state, _) = state([Fixtures.issue(7, "Spring", state: .available)])
        _ = AppUpdate.update(&state, .keyPressed(.enter))
        _ = AppUpdate.update(&state, .issueOpened(issueID: 7, .success(ReaderTests.book(["One", "Two"])), resumeAt: ReadingPosition(articleIndex: 0, blockIndex: 0)))
        _ = AppUpdate.update(&state, .articleLoaded(issueID: 7, articleIndex: 0, .success(ReaderTests.blocks(40))))
        _ = AppUpdate.update(&state, .keyPressed(.right))
        XCTAssertEqual(state.message?.text, "Article 2 of 2: Two")
        _ = AppUpdate.update(&state, .articleLoaded(issueID: 7, articleIndex: 1, .success(ReaderTests.blocks(40))))
        let cursor = AppView.cursor(state)
        XCTAssertEqual(cursor?.y, state.body.y)
        let line = AppView.render(state, theme: .fallback).lines()[state.body.y]
        XCTAssertTrue(line.dropFirst(cursor!.x).hasPrefix("Paragraph 0"), "the cursor is at the start of the line being read: \(line)")
        _ = AppUpdate.update(&state, .keyPressed(.character("/")))
        XCTAssertEqual(AppView.cursor(state)?.y, state.height - 1, "typing: the cursor is in the prompt")
    }

    func testTheSettingAndItsSpelling() {
        XCTAssertTrue(Configuration.parse("screen-reader on").screenReader)
        XCTAssertFalse(Configuration.parse("screen-reader on\nscreen-reader off").screenReader)
        XCTAssertFalse(Configuration.parse("screen-reader maybe").warnings.isEmpty)
    }
}
