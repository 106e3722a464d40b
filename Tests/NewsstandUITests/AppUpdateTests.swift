import XCTest
import NewsstandContent
import NewsstandCore
@testable import NewsstandUI

final class AppUpdateTests: XCTestCase {
    func testTapOnANewIssueStartsItsDownloadAndMarksItDownloading() {
        var state = Fixtures.state(issues: [Fixtures.issue(7, "Spring")])
        let effects = AppUpdate.update(&state, .keyPressed(.enter))
        XCTAssertEqual(effects, [.download(issueID: 7)])
        XCTAssertEqual(state.selectedShownState, .downloading)
    }

    func testAnIssueWithNothingToDownloadSaysSoInsteadOfDownloading() {
        var issue = Fixtures.issue(7, "Metadata Only")
        issue.contentURLs = []
        var state = Fixtures.state(issues: [issue])
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.enter)), [])
        XCTAssertEqual(state.message?.text, "The feed lists “Metadata Only” without anything to download.")
        XCTAssertTrue(AppView.render(state, theme: .fallback).lines().contains { $0.hasSuffix("NOTHING TO DOWNLOAD") })
    }

    func testTapOnAFailedIssueRetries() {
        var state = Fixtures.state(issues: [Fixtures.issue(7, "Spring", state: .failed(reason: "404"))])
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.enter)), [.download(issueID: 7)])
    }

    func testTapOnAnAvailableIssueOpensIt() {
        var state = Fixtures.state(issues: [Fixtures.issue(7, "Spring", state: .available)])
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.enter)), [.openIssue(issueID: 7)])
        XCTAssertEqual(state.screen, .contents)
        XCTAssertEqual(state.library.readingIssue?.id, 7)
    }

    func testMovingSelectsAndClampsAndAsksForCoversOnce() {
        let issues = (1...10).map { Fixtures.issue(Int64($0), "Issue \($0)", day: 30 - $0) }
        var state = Fixtures.state(width: 80, height: 24, issues: issues)
        XCTAssertEqual(state.covers.requested.count, 2, "a 24-line terminal shows two cover rows")
        _ = AppUpdate.update(&state, .keyPressed(.character("k")))
        XCTAssertEqual(state.shelfCursor.selection, 0)
        var requested: [CoverArtRequest] = []
        for _ in 0..<20 {
            for effect in AppUpdate.update(&state, .keyPressed(.down)) {
                if case .requestCovers(let requests) = effect { requested += requests }
            }
        }
        XCTAssertEqual(state.shelfCursor.selection, 9)
        XCTAssertEqual(state.shelf.cursors[1]?.offset, 8)
        XCTAssertEqual(Set(requested.map(\.issueID)), Set(3...10), "each newly visible cover is asked for once")
        XCTAssertEqual(requested.count, 8)
        _ = AppUpdate.update(&state, .keyPressed(.home))
        XCTAssertEqual(state.shelfCursor.selection, 0)
        XCTAssertEqual(state.shelf.cursors[1]?.offset, 0)
    }

    func testDownloadEventsDriveTheIssueState() {
        var state = Fixtures.state(issues: [Fixtures.issue(7, "Spring")])
        _ = AppUpdate.update(&state, .keyPressed(.enter))
        _ = AppUpdate.update(&state, .downloadReported(.progressed(issueID: 7, fraction: 0.42, receivedBytes: 420, totalBytes: 1000, bytesPerSecond: 100)))
        XCTAssertEqual(state.selectedShownState, .downloading)
        XCTAssertEqual(state.downloads.entries[7]?.fraction, 0.42)
        XCTAssertEqual(state.downloads.entries[7]?.received, 420)
        XCTAssertEqual(state.downloads.entries[7]?.total, 1000)
        _ = AppUpdate.update(&state, .downloadReported(.failed(issueID: 7, reason: "the disk is full")))
        XCTAssertEqual(state.selectedShownState, .failed(reason: "the disk is full"))
        XCTAssertEqual(state.message, StatusMessage("“Spring” failed: the disk is full", isError: true))
        _ = AppUpdate.update(&state, .downloadReported(.installed(issueID: 7)))
        XCTAssertEqual(state.selectedShownState, .available)
        XCTAssertNil(state.downloads.entries[7], "the downloads model forgets an installed issue")
    }

    /// The downloads model owns the live figures: the issue's row keeps what the library recorded until the
    /// download ends, and the shelf draws the model's phase and fraction.
    func testIssueRowsHoldWhatTheLibraryRecordsWhileTheDownloadsModelHasTheFigures() {
        var state = Fixtures.state(width: 72, height: 22, issues: [Fixtures.issue(7, "Spring")])
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.enter)), [.download(issueID: 7)])
        XCTAssertEqual(state.selectedIssueValue?.state, .notDownloaded, "the row is not a mirror of the transfer")
        XCTAssertEqual(state.selectedShownState, .downloading, "the shelf shows the download asked for")
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.enter)), [], "a second Enter does not ask again")
        _ = AppUpdate.update(&state, .downloadReported(.started(issueID: 7, resumedAt: nil)))
        _ = AppUpdate.update(&state, .downloadReported(.progressed(issueID: 7, fraction: 0.42, receivedBytes: 420, totalBytes: 1000, bytesPerSecond: 100)))
        XCTAssertEqual(state.selectedIssueValue?.state, .notDownloaded)
        XCTAssertEqual(state.selectedIssueValue?.progress, 0)
        XCTAssertTrue(AppView.render(state, theme: Theme.fallback).lines().contains { $0.contains("42%") })
        _ = AppUpdate.update(&state, .downloadReported(.paused(issueID: 7)))
        XCTAssertEqual(state.selectedIssueValue?.state, .notDownloaded)
        XCTAssertTrue(AppView.render(state, theme: Theme.fallback).lines().contains { $0.contains("42%") && $0.contains("PAUSED") })
        _ = AppUpdate.update(&state, .keyPressed(.enter))
        _ = AppUpdate.update(&state, .downloadReported(.installed(issueID: 7)))
        XCTAssertEqual(state.selectedIssueValue?.state, .available, "the end is recorded: the issue is on disk")
        XCTAssertEqual(state.selectedIssueValue?.progress, 1)
        XCTAssertNil(state.downloads.entries[7])
    }

    /// A row read from the library while a download runs carries the library's last figure; the bar shows the
    /// downloads model's.
    func testTheShelfBarReadsTheDownloadsModelOverTheLibrarysFigure() {
        var state = Fixtures.state(width: 72, height: 22, issues: [Fixtures.issue(7, "Spring", state: .downloading, progress: 0.9)])
        XCTAssertTrue(AppView.render(state, theme: Theme.fallback).lines().contains { $0.contains("90%") },
                      "without a live figure the library's record shows")
        _ = AppUpdate.update(&state, .downloadReported(.progressed(issueID: 7, fraction: 0.3, receivedBytes: 300, totalBytes: 1000, bytesPerSecond: 100)))
        let screen = AppView.render(state, theme: Theme.fallback).lines()
        XCTAssertTrue(screen.contains { $0.contains("30%") })
        XCTAssertFalse(screen.contains { $0.contains("90%") })
    }

    func testCancelledDownloadGoesBackToNotDownloadedQuietly() {
        var state = Fixtures.state(issues: [Fixtures.issue(7, "Spring", state: .downloading)])
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("x"))), [.cancelDownload(issueID: 7)])
        _ = AppUpdate.update(&state, .downloadReported(.cancelled(issueID: 7)))
        XCTAssertEqual(state.selectedShownState, .notDownloaded)
        XCTAssertNil(state.message)
    }

    func testPausedResumedAndRetryingDownloadsAreShown() {
        var state = Fixtures.state(width: 72, height: 22, issues: [Fixtures.issue(7, "Spring", state: .downloading, progress: 0.63)])
        _ = AppUpdate.update(&state, .downloadReported(.paused(issueID: 7)))
        XCTAssertEqual(state.selectedShownState, .paused)
        XCTAssertEqual(state.downloads.fraction(of: 7), 0.63, "a paused issue keeps its progress")
        XCTAssertTrue(AppView.render(state, theme: Theme.fallback).lines().contains { $0.contains("63%") && $0.contains("PAUSED") })

        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.enter)), [.download(issueID: 7)], "Enter resumes")
        XCTAssertEqual(state.selectedShownState, .downloading)
        _ = AppUpdate.update(&state, .downloadReported(.started(issueID: 7, resumedAt: 0.63)))
        XCTAssertEqual(state.message, StatusMessage("Resumed “Spring” at 63%"))
        _ = AppUpdate.update(&state, .downloadReported(.retrying(issueID: 7, attempt: 2, delay: 3.2, reason: "127.0.0.1 answered 503 Service Unavailable")))
        XCTAssertEqual(state.message, StatusMessage("Retrying “Spring” in 4 s (attempt 2 of 5): 127.0.0.1 answered 503 Service Unavailable"))
        XCTAssertEqual(state.selectedShownState, .downloading)

        _ = AppUpdate.update(&state, .downloadReported(.paused(issueID: 7)))
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("x"))), [.cancelDownload(issueID: 7)], "a paused download can be cancelled")
        _ = AppUpdate.update(&state, .downloadReported(.cancelled(issueID: 7)))
        XCTAssertEqual(state.selectedShownState, .notDownloaded)
        XCTAssertEqual(state.selectedIssueValue?.progress, 0)
    }

    func testTabSwitchesPublications() {
        var state = Fixtures.state(issues: [Fixtures.issue(1, "A"), Fixtures.issue(2, "B", publicationID: 2)],
                                   publications: [Fixtures.publication, Fixtures.second])
        XCTAssertEqual(state.currentPublication?.id, 1)
        _ = AppUpdate.update(&state, .keyPressed(.tab))
        XCTAssertEqual(state.currentPublication?.id, 2)
        XCTAssertEqual(state.selectedIssueValue?.title, "B")
        _ = AppUpdate.update(&state, .keyPressed(.backTab))
        XCTAssertEqual(state.currentPublication?.id, 1)
    }

    func testMouseClickSelectsTheRowUnderThePointerAndTapsIt() {
        let issues = (1...3).map { Fixtures.issue(Int64($0), "Issue \($0)", state: .available, day: 10 - $0) }
        var state = Fixtures.state(width: 80, height: 30, issues: issues)
        let layout = ShelfLayout(state: state)
        let y = layout.itemRect(offset: 1).y + 2
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.mouseClick(x: 30, y: y))), [.openIssue(issueID: 2)])
        var other = Fixtures.state(width: 80, height: 30, issues: issues)
        XCTAssertEqual(AppUpdate.update(&other, .keyPressed(.mouseClick(x: 30, y: 0))), [], "a click on the header taps nothing")
    }

    func testReaderRestoresThePositionAndKeepsTheSameTextAtTopOnResize() {
        var state = Fixtures.state(width: 80, height: 24, issues: [Fixtures.issue(7, "Spring", state: .available)])
        _ = AppUpdate.update(&state, .keyPressed(.enter))
        let book = EPUBBook(title: "Spring", creator: nil, language: "en", version: "3.0",
                            articles: [EPUBArticle(title: "One", file: URL(fileURLWithPath: "/a.xhtml"), mediaType: "application/xhtml+xml"),
                                       EPUBArticle(title: "Two", file: URL(fileURLWithPath: "/b.xhtml"), mediaType: "application/xhtml+xml")],
                            tableOfContents: [], coverImage: nil)
        let effects = AppUpdate.update(&state, .issueOpened(issueID: 7, .success(book), resumeAt: ReadingPosition(articleIndex: 1, blockIndex: 30)))
        XCTAssertEqual(effects, [.loadArticle(issueID: 7, articleIndex: 1)])
        XCTAssertEqual(state.screen, .article)
        let blocks = (0..<60).map { TextBlock.paragraph(StyledText("Paragraph \($0) " + String(repeating: "word ", count: 30))) }
        _ = AppUpdate.update(&state, .articleLoaded(issueID: 7, articleIndex: 1, .success(blocks)))
        XCTAssertEqual(state.reader?.position, ReadingPosition(articleIndex: 1, blockIndex: 30))
        _ = AppUpdate.update(&state, .resized(width: 50, height: 24))
        XCTAssertEqual(state.reader?.position.blockIndex, 30, "resizing keeps the same paragraph at the top")
        let before = state.reader!.view.topLine
        let saved = AppUpdate.update(&state, .keyPressed(.pageDown))
        XCTAssertEqual(state.reader!.view.topLine, before + 21)
        XCTAssertEqual(saved.count, 1, "scrolling saves the position")
        _ = AppUpdate.update(&state, .keyPressed(.end))
        let end = state.reader!.view.topLine
        _ = AppUpdate.update(&state, .keyPressed(.down))
        XCTAssertEqual(state.reader!.view.topLine, end, "cannot scroll past the end")
    }

    /// A long paragraph read halfway: reopening at another width, or resizing, brings back the line the
    /// reader was on, not the paragraph's first line.
    func testPositionsInsideALongParagraphComeBackToTheLineAtAnyWidth() {
        let words = (0..<1500).map { "w\($0)" }
        let blocks: [TextBlock] = [.heading(level: 1, text: StyledText("Title")), .paragraph(StyledText(words.joined(separator: " ")))]
        func openedState(width: Int, resumeAt: ReadingPosition) -> AppState {
            var state = Fixtures.state(width: width, height: 24, issues: [Fixtures.issue(7, "Spring", state: .available)])
            _ = AppUpdate.update(&state, .keyPressed(.enter))
            let book = EPUBBook(title: "Spring", creator: nil, language: "en", version: "3.0",
                                articles: [EPUBArticle(title: "One", file: URL(fileURLWithPath: "/a.xhtml"), mediaType: "application/xhtml+xml")],
                                tableOfContents: [], coverImage: nil)
            _ = AppUpdate.update(&state, .issueOpened(issueID: 7, .success(book), resumeAt: resumeAt))
            _ = AppUpdate.update(&state, .articleLoaded(issueID: 7, articleIndex: 0, .success(blocks)))
            return state
        }
        func firstWord(_ state: AppState) -> String {
            let reader = state.reader!
            return String(reader.view.layout!.lines[reader.view.topLine].text.split(separator: " ").first ?? "")
        }
        var narrow = openedState(width: 40, resumeAt: ReadingPosition(articleIndex: 0, blockIndex: 0))
        for _ in 0..<15 { _ = AppUpdate.update(&narrow, .keyPressed(.down)) }
        let word = firstWord(narrow)
        let position = narrow.reader!.position
        XCTAssertEqual(position.blockIndex, 1)
        XCTAssertGreaterThan(position.characterOffset, 0, "the top line is well inside the paragraph")

        let wide = openedState(width: 100, resumeAt: position)
        let restored = wide.reader!.view.layout!.lines[wide.reader!.view.topLine].text
        XCTAssertTrue(restored.split(separator: " ").contains(Substring(word)), "'\(word)' is on the restored top line: \(restored)")
        XCTAssertGreaterThan(wide.reader!.view.topLine, wide.reader!.view.layout!.line(forBlock: 1), "not the paragraph's first line")

        _ = AppUpdate.update(&narrow, .resized(width: 70, height: 24))
        let resized = narrow.reader!.view.layout!.lines[narrow.reader!.view.topLine].text
        XCTAssertTrue(resized.split(separator: " ").contains(Substring(word)), "'\(word)' stays at the top on resize: \(resized)")
    }

    func testTheMeasureSettingNarrowsArticleLines() {
        var state = Fixtures.state(width: 120, height: 24, issues: [Fixtures.issue(7, "Spring", state: .available)])
        state.articleMeasure = 40
        _ = AppUpdate.update(&state, .keyPressed(.enter))
        _ = AppUpdate.update(&state, .articleLoaded(issueID: 7, articleIndex: 0, .success([.paragraph(StyledText(String(repeating: "word ", count: 60)))])))
        XCTAssertEqual(state.reader?.view.layout?.measure, 40)
        XCTAssertTrue(state.reader!.view.layout!.lines.allSatisfy { $0.text.count <= 40 })
    }

    func testArticlesFromAnotherIssueAreIgnored() {
        var state = Fixtures.state(issues: [Fixtures.issue(7, "Spring", state: .available)])
        _ = AppUpdate.update(&state, .keyPressed(.enter))
        _ = AppUpdate.update(&state, .articleLoaded(issueID: 99, articleIndex: 0, .success([.paragraph("wrong")])))
        XCTAssertNil(state.reader?.view.blocks)
    }

    func testOnlyARequestedRefreshSaysUpToDate() {
        var state = Fixtures.state(issues: [Fixtures.issue(1, "A")])
        let quiet = PublicationRefresher.Outcome(publicationID: 1, issueCount: 1, newIssueNames: [], problem: nil)
        XCTAssertEqual(AppUpdate.update(&state, .publicationsRefreshed([quiet])), [.loadLibrary])
        XCTAssertNil(state.message, "the automatic refresh at start-up leaves the key hints alone")
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("r"))), [.refreshPublications])
        _ = AppUpdate.update(&state, .publicationsRefreshed([quiet]))
        XCTAssertEqual(state.message, StatusMessage("Up to date."))
        var arrived = quiet
        arrived.newIssueNames = ["b", "c"]
        _ = AppUpdate.update(&state, .publicationsRefreshed([arrived]))
        XCTAssertEqual(state.message, StatusMessage("2 new issues arrived."))
        var failed = quiet
        failed.problem = "Kettle: the catalog is not a property list"
        _ = AppUpdate.update(&state, .publicationsRefreshed([failed]))
        XCTAssertEqual(state.message, StatusMessage("Kettle: the catalog is not a property list", isError: true))
    }

    func testQuitStopsTheLoop() {
        var state = Fixtures.state(issues: [])
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("q"))), [.quit])
        XCTAssertFalse(state.isRunning)
    }
}

/// The first frame waits for the shown shelf only: its neighbours' windows, read ahead, do not hold it back.
final class ShownShelfReadinessTests: XCTestCase {
    func testTheShownShelfIsReadyOnceItsOwnWindowIsIn() {
        let third = Publication(id: 3, name: "third", title: "Third Quarterly", feedURL: URL(string: "https://example.com/third.plist")!)
        let publications = [Fixtures.publication, Fixtures.second, third]
        let issues = publications.flatMap { publication in
            (1...3).map { Fixtures.issue(publication.id * 10 + Int64($0), "\(publication.title) \($0)", publicationID: publication.id) }
        }
        let shelves = ShelfFixture(publications: publications, issues: issues)
        var state = AppState(width: 80, height: 24)
        XCTAssertFalse(state.shared.isShownShelfReady, "nothing is loaded yet")
        let effects = AppUpdate.update(&state, .libraryLoaded(shelves.overview()))
        let requests = effects.compactMap { if case .loadIssues(let request) = $0 { request } else { nil } }
        XCTAssertEqual(requests.map(\.publicationID), [1, 2, 3], "the shown shelf first, then its neighbours")
        XCTAssertFalse(state.shared.isShownShelfReady, "the shown shelf's window is still being read")
        _ = AppUpdate.update(&state, .issuesLoaded(shelves.window(requests[0]), selecting: nil))
        XCTAssertTrue(state.shared.isShownShelfReady, "its neighbours' windows are not waited for")
        XCTAssertFalse(state.library.requestedWindows.isEmpty)
        XCTAssertEqual(state.shared.currentWindow?.issues.map(\.id), [11, 12, 13])
    }

    /// At start the runner reads the shown shelf's window right after the overview, as `shownShelfRequest` says the
    /// interface will ask: taken when the interface did ask for just that, dropped otherwise.
    func testAWindowReadAheadIsTakenOnlyForTheRequestTheOverviewBrings() throws {
        let publications = [Fixtures.publication, Fixtures.second]
        let issues = publications.flatMap { publication in
            (1...30).map { Fixtures.issue(publication.id * 100 + Int64($0), "\(publication.title) \($0)", publicationID: publication.id) }
        }
        let shelves = ShelfFixture(publications: publications, issues: issues)
        let start = AppState(width: 80, height: 24)
        let anticipated = try XCTUnwrap(AppUpdate.shownShelfRequest(after: shelves.overview(), in: start))
        XCTAssertEqual(anticipated.publicationID, Fixtures.publication.id)

        var state = start
        let effects = AppUpdate.update(&state, .libraryLoaded(shelves.overview()))
        let requests = effects.compactMap { if case .loadIssues(let request) = $0 { request } else { nil } }
        XCTAssertEqual(requests.first, anticipated, "the same request the interface makes")
        _ = AppUpdate.update(&state, .issuesReadAhead(anticipated, shelves.window(anticipated)))
        XCTAssertTrue(state.shared.isShownShelfReady)
        XCTAssertEqual(state.shared.currentWindow?.issues.prefix(2).map(\.id), [101, 102])

        // Worked out for another screen size: not what the interface asked, so dropped.
        let elsewhere = try XCTUnwrap(AppUpdate.shownShelfRequest(after: shelves.overview(), in: AppState(width: 80, height: 60)))
        XCTAssertNotEqual(elsewhere, anticipated)
        var other = start
        _ = AppUpdate.update(&other, .libraryLoaded(shelves.overview()))
        XCTAssertEqual(AppUpdate.update(&other, .issuesReadAhead(elsewhere, shelves.window(elsewhere))), [])
        XCTAssertFalse(other.shared.isShownShelfReady, "the interface still waits for its own request")
        XCTAssertNil(other.shared.currentWindow)
        // Before the overview has arrived, nothing was asked: dropped too.
        var early = start
        _ = AppUpdate.update(&early, .issuesReadAhead(anticipated, shelves.window(anticipated)))
        XCTAssertNil(early.library.windows[anticipated.publicationID])
    }

    func testAnEmptyLibraryIsReadyOnceLoaded() {
        var state = AppState(width: 80, height: 24)
        _ = AppUpdate.update(&state, .libraryLoaded(LibraryOverview(publications: [], counts: [:], readingIssue: nil)))
        XCTAssertTrue(state.shared.isShownShelfReady)
    }
}
