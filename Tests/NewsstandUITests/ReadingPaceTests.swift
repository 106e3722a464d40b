import NewsstandContent
import NewsstandCore
import XCTest
@testable import NewsstandUI

/// The reader's time-left estimate and the reading speed it learns from the reader's own pace.
final class ReadingPaceTests: XCTestCase {
    func testAFixedSpeedNeverLearns() {
        var pace = ReadingPace(fixed: 100)
        XCTAssertFalse(pace.observe(issueID: 1, articleIndex: 0, wordsLeft: 1_000, at: 0))
        XCTAssertFalse(pace.observe(issueID: 1, articleIndex: 0, wordsLeft: 500, at: 60))
        XCTAssertEqual(pace.wordsPerMinute, 100)
        XCTAssertEqual(pace.timeLeft(words: 250), "3 min left")
        XCTAssertEqual(pace.timeLeft(words: 50), "< 1 min left")
        XCTAssertNil(pace.timeLeft(words: 0))
    }

    func testALearnedSpeedFollowsThePaceOfStretchesReadForward() {
        var pace = ReadingPace()
        XCTAssertEqual(pace.wordsPerMinute, ReadingPace.defaultWordsPerMinute)
        XCTAssertFalse(pace.observe(issueID: 1, articleIndex: 0, wordsLeft: 3_000, at: 0), "the first mark")
        XCTAssertFalse(pace.observe(issueID: 1, articleIndex: 0, wordsLeft: 2_970, at: 10), "too few words: the stretch goes on")
        XCTAssertTrue(pace.observe(issueID: 1, articleIndex: 0, wordsLeft: 2_600, at: 60), "400 words in a minute")
        XCTAssertEqual(pace.wordsPerMinute, 400, accuracy: 0.1, "a first stretch from no history is taken as it is")
        for minute in 2...12 { _ = pace.observe(issueID: 1, articleIndex: 0, wordsLeft: 2_600 - 100 * (minute - 1), at: Double(minute) * 60) }
        XCTAssertEqual(pace.wordsPerMinute, (400 * 400 + 100 * 1_100) / 1_500, accuracy: 0.1, "slower reading pulls it down, word for word")
        let settled = pace.wordsPerMinute
        XCTAssertFalse(pace.observe(issueID: 1, articleIndex: 0, wordsLeft: 100, at: 722), "skimming (1,400 words in two seconds) is not reading")
        XCTAssertFalse(pace.observe(issueID: 1, articleIndex: 0, wordsLeft: 0, at: 5_000), "nor is a long pause")
        XCTAssertFalse(pace.observe(issueID: 1, articleIndex: 1, wordsLeft: 900, at: 5_010), "another article starts a new stretch")
        XCTAssertFalse(pace.observe(issueID: 1, articleIndex: 1, wordsLeft: 990, at: 5_020), "going back too")
        XCTAssertEqual(pace.wordsPerMinute, settled)
    }

    func testARememberedSpeedIsWhereLearningStarts() {
        XCTAssertEqual(ReadingPace(remembered: 310).wordsPerMinute, 310)
        XCTAssertEqual(ReadingPace(remembered: 9_999).wordsPerMinute, ReadingPace.defaultWordsPerMinute, "nonsense is ignored")
        var pace = ReadingPace(remembered: 300)
        _ = pace.observe(issueID: 1, articleIndex: 0, wordsLeft: 1_000, at: 0)
        XCTAssertTrue(pace.observe(issueID: 1, articleIndex: 0, wordsLeft: 900, at: 60))
        XCTAssertGreaterThan(pace.wordsPerMinute, 200, "one stretch moves a remembered speed only part of the way")
    }

    func testTheReaderShowsTimeLeftAndLearnsAsItPagesDown() throws {
        var state = Fixtures.state(width: 100, height: 20, issues: [Fixtures.issue(7, "Spring", state: .available)])
        _ = AppUpdate.update(&state, .keyPressed(.enter))
        _ = AppUpdate.update(&state, .issueOpened(issueID: 7, .success(ReaderTests.book(["One", "Two"])), resumeAt: ReadingPosition(articleIndex: 0, blockIndex: 0)))
        _ = AppUpdate.update(&state, .articleLoaded(issueID: 7, articleIndex: 0, .success(ReaderTests.blocks(40))))
        let layout = try XCTUnwrap(state.reader?.view.layout)
        XCTAssertEqual(layout.wordsFromLine.first, 40 * 22, "every word of the article: “Paragraph N” and 20 words")
        XCTAssertEqual(layout.wordsFromLine.last, 0)
        let status = try XCTUnwrap(AppView.render(state, theme: .fallback).lines().last)
        XCTAssertTrue(status.hasSuffix("issue 0% · 4 min left"), "880 words at 230 a minute: \(status)")
        state.clock = 1_000
        _ = AppUpdate.update(&state, .keyPressed(.character(" ")))
        state.clock = 1_060
        let effects = AppUpdate.update(&state, .keyPressed(.character(" ")))
        XCTAssertTrue(effects.contains { if case .saveSetting(ReadingPace.setting, _) = $0 { true } else { false } }, "\(effects)")
        XCTAssertLessThan(state.readingPace.wordsPerMinute, ReadingPace.defaultWordsPerMinute, "about a hundred words in a minute")
    }

    func testTheSettingFixesTheSpeed() {
        XCTAssertEqual(Configuration.parse("reading-speed 180").readingSpeed, 180)
        XCTAssertNil(Configuration.parse("reading-speed 180\nreading-speed auto").readingSpeed)
        XCTAssertFalse(Configuration.parse("reading-speed 5").warnings.isEmpty)
    }
}
