import XCTest
import NewsstandCore
@testable import NewsstandUI

/// The downloads screen: its model from download events and the library, its keys (effects as data), and its rows as text.
final class DownloadsScreenTests: XCTestCase {
    let theme = Theme.fallback

    /// Five issues in every phase a download can be in, on the downloads screen.
    func everyPhase(width: Int = 90, height: Int = 30) -> AppState {
        var state = Fixtures.state(width: width, height: height, issues: [
            Fixtures.issue(1, "Maps & Margins", day: 20),
            Fixtures.issue(2, "Small Engines", day: 18),
            Fixtures.issue(3, "Winter Light", day: 16),
            Fixtures.issue(4, "Salt Roads", state: .paused, progress: 0.25, day: 14),
            Fixtures.issue(5, "Old Bridges", state: .failed(reason: "the issue is no longer on the server (404 Not Found)"), day: 12),
        ])
        state.downloads.maxConcurrent = 1
        for event: DownloadEvent in [
            .queued(issueID: 1, position: 1), .started(issueID: 1, resumedAt: nil),
            .progressed(issueID: 1, fraction: 0.42, receivedBytes: 4_404_019, totalBytes: 10_485_760, bytesPerSecond: 1_048_576),
            .queued(issueID: 2, position: 1),
            .queued(issueID: 3, position: 2), .started(issueID: 3, resumedAt: 0.1),
            .retrying(issueID: 3, attempt: 2, delay: 3.2, reason: "127.0.0.1 answered 503 Service Unavailable"),
        ] {
            _ = AppUpdate.update(&state, .downloadReported(event))
        }
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("D"))), [])
        return state
    }

    func lines(_ state: AppState) -> [String] { AppView.render(state, theme: theme).lines() }

    private func key(_ state: inout AppState, _ character: Character) -> [Effect] {
        AppUpdate.update(&state, .keyPressed(.character(character)))
    }

    // MARK: Screen

    func testEveryPhaseIsARowWithProgressBytesSpeedTimeLeftAndLastError() {
        let state = everyPhase()
        XCTAssertEqual(state.screen, .downloads)
        XCTAssertEqual(lines(state), [
            " NEWSSTAND  Kettle & Compass",
            "  DOWNLOADS  1 at once (< >) · no limit (L) · 1 running, 1 retrying, 1 queued, 1 paused,",
            "",
            "▌ Maps & Margins                                                             DOWNLOADING",
            "▌ " + String(repeating: "━", count: 14) + String(repeating: "─", count: 21) + "  42% 4.2 of 10.0 MB  1.0 MB/s  ETA 0:06",
            "▌",
            "",
            "  Winter Light                                                           RETRYING IN 4 s",
            "  ━━━" + String(repeating: "─", count: 32) + "  10%",
            "  attempt 2 of 5 next: 127.0.0.1 answered 503 Service Unavailable",
            "",
            "  Small Engines                                                                QUEUED #1",
            "  " + String(repeating: "─", count: 35) + "   0%",
            "  waiting for a free transfer slot · K/J move it",
            "",
            "  Salt Roads                                                                      PAUSED",
            "  " + String(repeating: "━", count: 8) + String(repeating: "─", count: 27) + "  25%",
            "  paused · p resumes",
            "",
            "  Old Bridges                                                                     FAILED",
            "  " + String(repeating: "─", count: 35) + "   0%",
            "  the issue is no longer on the server (404 Not Found) · r retries",
            "", "", "", "", "", "", "",
            " p pause/resume  x cancel  r retry  L limit  ? help  Esc back                         1/5",
        ])
    }

    func testAnIssueAnotherProcessIsDownloadingWaitsWithTheReason() {
        var state = Fixtures.state(width: 80, height: 12, issues: [Fixtures.issue(1, "Maps & Margins")])
        _ = AppUpdate.update(&state, .downloadReported(.queued(issueID: 1, position: 1)))
        _ = AppUpdate.update(&state, .downloadReported(.waiting(issueID: 1, reason: DownloadQueue.lockedElsewhereReason)))
        XCTAssertEqual(state.selectedShownState, .downloading, "the shelf shows it as downloading")
        XCTAssertEqual(state.message?.text, "“Maps & Margins” is being downloaded by another Newsstand process; it continues when that one stops.")
        _ = key(&state, "D")
        let screen = lines(state)
        XCTAssertEqual(screen[3], "▌ Maps & Margins                                                       WAITING")
        XCTAssertEqual(screen[5], "▌ being downloaded by another Newsstand process")
        XCTAssertTrue(screen[1].contains("1 waiting"), screen[1])
    }

    func testNothingToShow() {
        var state = Fixtures.state(width: 80, height: 10, issues: [Fixtures.issue(1, "Maps & Margins", state: .available)])
        _ = key(&state, "D")
        XCTAssertEqual(lines(state)[1], "  DOWNLOADS  3 at once (< >) · no limit (L)")
        XCTAssertEqual(lines(state)[3], "  Nothing is downloading. Enter on an issue on the shelf starts a download.")
        XCTAssertEqual(key(&state, "p"), [])
        XCTAssertEqual(state.message?.text, "No download is selected.")
    }

    func testRowsScrollToKeepTheSelectionInView() {
        var state = everyPhase(width: 90, height: 14) // room for two downloads
        XCTAssertEqual(DownloadsScreen.layout(in: AppView.body(width: 90, height: 14)).page.rows, 2)
        for _ in 0..<3 { _ = key(&state, "j") }
        XCTAssertEqual(state.downloadsCursor?.selectedIssueID, 4)
        XCTAssertEqual(state.downloadsCursor?.cursor.offset, 2)
        let screen = lines(state)
        XCTAssertTrue(screen[3].hasPrefix("  Small Engines"), screen[3])
        XCTAssertTrue(screen[7].hasPrefix("▌ Salt Roads"), screen[7])
        XCTAssertTrue(screen.last!.hasSuffix("4/5"))
        _ = key(&state, "g")
        XCTAssertEqual(state.downloadsCursor?.cursor.offset, 0)
        _ = key(&state, "G")
        XCTAssertEqual(state.downloadsCursor?.selectedIssueID, 5)
    }

    // MARK: Keys

    func testDOpensTheScreenAndEscOrQGoBackToTheShelf() {
        var state = everyPhase()
        _ = AppUpdate.update(&state, .keyPressed(.escape))
        XCTAssertEqual(state.screen, .shelf)
        _ = key(&state, "D")
        _ = key(&state, "q")
        XCTAssertEqual(state.screens, [.shelf], "q goes back rather than quitting")
        XCTAssertTrue(state.isRunning)
        _ = key(&state, "D")
        _ = key(&state, "?")
        XCTAssertEqual(state.screen, .help)
        _ = AppUpdate.update(&state, .keyPressed(.escape))
        XCTAssertEqual(state.screen, .downloads)
    }

    func testPauseAndResume() {
        var state = everyPhase()
        XCTAssertEqual(key(&state, "p"), [.pauseDownload(issueID: 1)])
        XCTAssertEqual(state.message?.text, "Paused “Maps & Margins”; p resumes it.")
        _ = AppUpdate.update(&state, .downloadReported(.paused(issueID: 1)))
        XCTAssertEqual(state.downloads.entries[1]?.phase, .paused)
        XCTAssertEqual(state.downloadsCursor?.selectedIssueID, 1, "the selection follows the issue to its new place")
        XCTAssertEqual(state.shownState(ofIssue: 1), .paused)
        XCTAssertTrue(lines(state).contains { $0.hasPrefix("▌ Maps & Margins") && $0.hasSuffix("PAUSED") })

        XCTAssertEqual(key(&state, "p"), [.download(issueID: 1)])
        XCTAssertEqual(state.message?.text, "Resuming “Maps & Margins”…")
        XCTAssertEqual(state.shownState(ofIssue: 1), .downloading)

        selectDownload(3, &state) // retrying: pausing stops the countdown too
        XCTAssertEqual(key(&state, "p"), [.pauseDownload(issueID: 3)])
        selectDownload(2, &state) // queued
        XCTAssertEqual(key(&state, "p"), [.pauseDownload(issueID: 2)])
        selectDownload(5, &state) // failed
        XCTAssertEqual(key(&state, "p"), [])
        XCTAssertEqual(state.message?.text, "“Old Bridges” failed; r retries it.")
        _ = AppUpdate.update(&state, .downloadReported(.installing(issueID: 1)))
        selectDownload(1, &state)
        XCTAssertEqual(key(&state, "p"), [], "an install is not paused")
    }

    func testCancelSaysSoAndTheRowGoesWhenTheQueueConfirms() {
        var state = everyPhase()
        XCTAssertEqual(key(&state, "x"), [.cancelDownload(issueID: 1)])
        XCTAssertEqual(state.message?.text, "Cancelled “Maps & Margins”; what it had fetched was removed.")
        _ = AppUpdate.update(&state, .downloadReported(.cancelled(issueID: 1)))
        XCTAssertNil(state.downloads.entries[1])
        XCTAssertEqual(state.downloadsCursor?.selectedIssueID, 3, "the next row is selected")
        XCTAssertEqual(state.shownState(ofIssue: 1), .notDownloaded)
        XCTAssertEqual(state.message?.text, "Cancelled “Maps & Margins”; what it had fetched was removed.", "the message stays")
    }

    func testRetryOnlyAFailedDownload() {
        var state = everyPhase()
        XCTAssertEqual(key(&state, "r"), [])
        XCTAssertEqual(state.message?.text, "Only a failed download can be retried.")
        _ = key(&state, "G")
        XCTAssertEqual(key(&state, "r"), [.download(issueID: 5)])
        XCTAssertEqual(state.shownState(ofIssue: 5), .downloading)
        _ = AppUpdate.update(&state, .downloadReported(.queued(issueID: 5, position: 2)))
        XCTAssertEqual(state.downloads.entries[5]?.phase, .queued(position: 2))
        XCTAssertNil(state.downloads.entries[5]?.lastError)
    }

    func testMovingAQueuedDownloadInTheLine() {
        var state = everyPhase()
        _ = AppUpdate.update(&state, .downloadReported(.queued(issueID: 4, position: 2))) // Salt Roads resumed: second in line
        selectDownload(4, &state)
        XCTAssertEqual(key(&state, "K"), [.moveDownload(issueID: 4, by: -1)])
        XCTAssertEqual(key(&state, "+"), [.moveDownload(issueID: 4, by: -1)])
        XCTAssertEqual(key(&state, "J"), [.moveDownload(issueID: 4, by: 1)])
        XCTAssertEqual(key(&state, "-"), [.moveDownload(issueID: 4, by: 1)])
        _ = AppUpdate.update(&state, .downloadReported(.queued(issueID: 4, position: 1)))
        _ = AppUpdate.update(&state, .downloadReported(.queued(issueID: 2, position: 2)))
        XCTAssertEqual(state.downloads.rows.map(\.issueID), [1, 3, 4, 2, 5])
        XCTAssertEqual(state.downloadsCursor?.cursor.selection, 2, "the selection moves with the issue")
        selectDownload(1, &state)
        XCTAssertEqual(key(&state, "K"), [])
        XCTAssertEqual(state.message?.text, "Only queued downloads can be moved in the line.")
    }

    func testTransfersAtOnceGoFromOneToSixteenLive() {
        var state = everyPhase()
        XCTAssertEqual(key(&state, "<"), [])
        XCTAssertEqual(state.message?.text, "At least 1 transfer at once.")
        XCTAssertEqual(key(&state, ">"), [.setMaxConcurrentDownloads(2)])
        XCTAssertEqual(state.message?.text, "2 transfers at once.")
        XCTAssertTrue(lines(state)[1].hasPrefix("  DOWNLOADS  2 at once (< >)"))
        for expected in 3...16 { XCTAssertEqual(key(&state, ">"), [.setMaxConcurrentDownloads(expected)]) }
        XCTAssertEqual(key(&state, ">"), [])
        XCTAssertEqual(state.message?.text, "At most 16 transfers at once.")
        XCTAssertEqual(key(&state, "<"), [.setMaxConcurrentDownloads(15)])
    }

    func testTheRateLimitCyclesOffQuarterOneAndFourMegabytes() {
        var state = everyPhase()
        XCTAssertEqual(key(&state, "L"), [.setRateLimit(262_144)])
        XCTAssertEqual(state.message?.text, "Downloads limited to 256 KB/s in all.")
        XCTAssertTrue(lines(state)[1].contains("· limit 256 KB/s (L) ·"), lines(state)[1])
        XCTAssertEqual(key(&state, "L"), [.setRateLimit(1_048_576)])
        XCTAssertEqual(key(&state, "L"), [.setRateLimit(4_194_304)])
        XCTAssertTrue(lines(state)[1].contains("limit 4.0 MB/s"), lines(state)[1])
        XCTAssertEqual(key(&state, "L"), [.setRateLimit(nil)])
        XCTAssertEqual(state.message?.text, "No rate limit.")
        state.downloads.rateLimit = 2 << 20 // from the config file, between steps
        XCTAssertEqual(key(&state, "L"), [.setRateLimit(4_194_304)])
    }

    // MARK: Events

    func testSpeedIsSmoothedAndGivesTheTimeLeft() {
        var state = everyPhase()
        _ = AppUpdate.update(&state, .downloadReported(.progressed(issueID: 1, fraction: 0.5, receivedBytes: 5_242_880, totalBytes: 10_485_760,
                                                                   bytesPerSecond: 2_097_152)))
        let entry = try! XCTUnwrap(state.downloads.entries[1])
        XCTAssertEqual(entry.bytesPerSecond, 1_048_576 + 0.3 * 1_048_576, accuracy: 1, "a moving average, not the last report")
        XCTAssertEqual(entry.secondsRemaining, 4) // 5 MB left at 1.3 MB/s
        XCTAssertTrue(lines(state)[4].hasSuffix("50% 5.0 of 10.0 MB  1.3 MB/s  ETA 0:04"), lines(state)[4])
        XCTAssertEqual(state.downloads.fraction(of: 1), 0.5, "the shelf's bar reads the same figure")
    }

    func testTheRetryCountdownGoesDownEachSecond() {
        var state = everyPhase()
        XCTAssertTrue(state.downloads.hasCountdown)
        _ = AppUpdate.update(&state, .clockTicked)
        _ = AppUpdate.update(&state, .clockTicked)
        XCTAssertEqual(state.downloads.entries[3]?.phase, .retrying(attempt: 2, secondsLeft: 2))
        XCTAssertTrue(lines(state)[7].hasSuffix("RETRYING IN 2 s"))
        _ = AppUpdate.update(&state, .downloadReported(.started(issueID: 3, resumedAt: 0.1)))
        XCTAssertFalse(state.downloads.hasCountdown)
        XCTAssertEqual(state.downloads.entries[3]?.lastError, "127.0.0.1 answered 503 Service Unavailable", "the last error stays in view")
        XCTAssertTrue(lines(state)[9].contains("last error: 127.0.0.1 answered 503"), lines(state)[9])
    }

    func testInstalledAndFailedDownloads() {
        var state = everyPhase()
        _ = AppUpdate.update(&state, .downloadReported(.installing(issueID: 1)))
        XCTAssertTrue(lines(state)[3].hasSuffix("INSTALLING"))
        _ = AppUpdate.update(&state, .downloadReported(.installed(issueID: 1)))
        XCTAssertNil(state.downloads.entries[1])
        XCTAssertEqual(state.shownState(ofIssue: 1), .available)
        _ = AppUpdate.update(&state, .downloadReported(.failed(issueID: 2, reason: "the disk is full")))
        XCTAssertEqual(state.downloads.entries[2]?.phase, .failed)
        XCTAssertEqual(state.downloads.entries[2]?.lastError, "the disk is full")
        XCTAssertEqual(state.downloads.rows.suffix(2).map(\.issueID), [5, 2], "failed rows last, oldest first")
    }

    func testPausedAndFailedIssuesOfTheLibraryAppearAtLaunch() {
        var state = Fixtures.state(issues: [
            Fixtures.issue(1, "Maps & Margins", state: .available),
            Fixtures.issue(4, "Salt Roads", state: .paused, progress: 0.25),
            Fixtures.issue(5, "Old Bridges", state: .failed(reason: "403")),
            Fixtures.issue(6, "Interrupted", state: .downloading, progress: 0.5),
        ])
        XCTAssertEqual(state.downloads.rows, [
            DownloadEntry(issueID: 4, title: "Salt Roads", phase: .paused, fraction: 0.25, sequence: 0),
            DownloadEntry(issueID: 5, title: "Old Bridges", phase: .failed, lastError: "403", sequence: 1),
        ], "interrupted downloads appear once the queue reports them")
        // Another process (a sync) finished one and reset the other: a reload takes their rows away.
        let library = ShelfFixture(publications: [Fixtures.publication], issues: [
            Fixtures.issue(1, "Maps & Margins", state: .available), Fixtures.issue(4, "Salt Roads", state: .available),
            Fixtures.issue(5, "Old Bridges"), Fixtures.issue(6, "Interrupted", state: .downloading, progress: 0.5)])
        library.apply(.libraryLoaded(library.overview()), to: &state)
        XCTAssertEqual(state.downloads.rows, [])
    }

    func testTheShelfOffersTheDownloadsScreenWhenThereIsRoom() {
        let wide = Fixtures.state(width: 110, height: 24, issues: [Fixtures.issue(1, "Maps & Margins")])
        XCTAssertTrue(lines(wide).last!.contains("D downloads"), lines(wide).last!)
        let narrow = Fixtures.state(width: 72, height: 24, issues: [Fixtures.issue(1, "Maps & Margins")])
        XCTAssertFalse(lines(narrow).last!.contains("D downloads"))
        let help = HelpScreen.lines(.standard).map { "\($0.key) \($0.help)" }
        for expected in ["D Downloads:", "p Pause", "x Cancel the selected download", "r Retry", "K/+ Move", "J/- Move", "< One transfer fewer",
                         "> One transfer more", "L Rate limit", "Esc/q/Backspace Back to the shelf"] {
            XCTAssertTrue(help.contains { $0.hasPrefix(expected) }, "help lacks \(expected)")
        }
    }

    /// Moves the downloads screen's selection to an issue's row, as keys would.
    private func selectDownload(_ issueID: Int64, _ state: inout AppState) {
        guard case .downloads(var cursor)? = state.screens.last else { return XCTFail("\(state.screens)") }
        cursor.selectedIssueID = issueID
        state.screens[state.screens.count - 1] = .downloads(cursor)
    }
}
