import Foundation
import XCTest
import NewsstandContent
import NewsstandCore
import NewsstandTestSupport
@testable import NewsstandUI

/// Another device's place in the open issue: asked on the status line, `y` goes there, another key stays; `jump`
/// goes there at once; closing the issue sends our place.
final class ProgressSyncOfferTests: XCTestCase {
    private func offer(jump: Bool = false) -> ProgressSyncOffer {
        ProgressSyncOffer(issueID: 7, position: ReadingPosition(articleIndex: 2, blockIndex: 4, characterOffset: 3), device: "Kobo",
                          percentage: 0.62, articleTitle: "Letters", jump: jump)
    }

    /// Issue 7 ("Spring": One, Two, Three) open at its first article.
    private func reading() -> AppState {
        var state = Fixtures.state(width: 60, height: 20, issues: [Fixtures.issue(7, "Spring", state: .available)])
        _ = AppUpdate.update(&state, .keyPressed(.enter))
        _ = AppUpdate.update(&state, .issueOpened(issueID: 7, .success(ReaderTests.book(["One", "Two", "Three"])),
                                                  resumeAt: ReadingPosition(articleIndex: 0, blockIndex: 0)))
        _ = AppUpdate.update(&state, .articleLoaded(issueID: 7, articleIndex: 0, .success(MarksTests.blocks())))
        return state
    }

    func testTheQuestionIsOnTheStatusLineAndYGoesThere() {
        var state = reading()
        XCTAssertEqual(AppUpdate.update(&state, .progressSyncOffered(offer())), [])
        let bottom = AppView.render(state, theme: Theme.fallback).lines()[19]
        XCTAssertTrue(bottom.hasPrefix(" Kobo is at 62%, “Letters”: go there? y/n"), bottom)
        let effects = AppUpdate.update(&state, .keyPressed(.character("y")))
        XCTAssertEqual(effects.first, Effect.loadArticle(issueID: 7, articleIndex: 2))
        XCTAssertEqual(state.reader?.pendingPosition, offer().position)
        XCTAssertNil(state.prompt)
        XCTAssertEqual(state.message?.text, "Went to Kobo's place: 62%, “Letters”.")
    }

    func testAnotherKeyStaysAndJumpDoesNotAsk() {
        var state = reading()
        _ = AppUpdate.update(&state, .progressSyncOffered(offer()))
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("n"))), [])
        XCTAssertEqual(state.reader?.articleIndex, 0)
        XCTAssertEqual(state.message?.text, "Staying here.")
        XCTAssertEqual(AppUpdate.update(&state, .progressSyncOffered(offer(jump: true))).first, Effect.loadArticle(issueID: 7, articleIndex: 2))
        XCTAssertNil(state.prompt)
    }

    /// An offer for an issue no longer open, or while a search is being typed, is dropped.
    func testAnOfferNeverTakesOverAnotherQuestion() {
        var state = reading()
        _ = AppUpdate.update(&state, .keyPressed(.character("/")))
        let prompt = state.prompt
        _ = AppUpdate.update(&state, .progressSyncOffered(offer()))
        XCTAssertEqual(state.prompt, prompt)
        var other = offer()
        other.issueID = 8
        var fresh = reading()
        _ = AppUpdate.update(&fresh, .progressSyncOffered(other))
        XCTAssertNil(fresh.prompt)
    }

    func testClosingTheIssueSendsItsPlace() {
        var state = reading()
        _ = AppUpdate.update(&state, .keyPressed(.escape))  // the article → contents
        var effects: [Effect] = []
        for _ in 0..<3 where state.reader != nil { effects += AppUpdate.update(&state, .keyPressed(.escape)) }
        XCTAssertTrue(effects.contains(.pushProgress(issueID: 7)), "\(effects)")
    }
}
