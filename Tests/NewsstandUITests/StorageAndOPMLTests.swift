import XCTest
import NewsstandCore
@testable import NewsstandUI

/// The storage screen and OPML import/export from the subscriptions screen.
final class StorageAndOPMLTests: XCTestCase {
    let theme = Theme.fallback

    func testStorageScreenShowsUsageAndWhatTheBudgetWouldRemove() {
        var state = Fixtures.state(width: 90, height: 24, issues: [Fixtures.issue(1, "Old Read", state: .available, day: 1), Fixtures.issue(2, "New", state: .available, day: 9)])
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("S"))), [.measureStorage])
        XCTAssertEqual(state.screen, .storage)
        XCTAssertTrue(AppView.render(state, theme: theme).lines()[3].contains("Measuring…"))
        let report = StorageReport(usage: [.init(publication: Fixtures.publication, issueCount: 2, bytes: 3 << 20)], budget: 2 << 20,
                                   plannedRemovals: [Fixtures.issue(1, "Old Read", state: .available, day: 1)])
        _ = AppUpdate.update(&state, .storageMeasured(report))
        let lines = AppView.render(state, theme: theme).lines()
        XCTAssertEqual(lines[3], "  Kettle & Compass       3.0 MB  2 issues")
        XCTAssertEqual(lines[5], "  Total 3.0 MB of 2.0 MB.")
        XCTAssertEqual(lines[7], "  Over budget. In this order, these would go (x removes them now; a sync would too):")
        XCTAssertEqual(lines[8], "    • Old Read — 1 March 2026 (read)")
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("x"))), [.enforceStorageLimits])
        _ = AppUpdate.update(&state, .storageMeasured(StorageReport(usage: report.usage, budget: 8 << 20, plannedRemovals: [])))
        XCTAssertTrue(AppView.render(state, theme: theme).lines()[7].contains("Within budget: nothing would be removed."))
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("x"))), [])
        _ = AppUpdate.update(&state, .keyPressed(.escape))
        XCTAssertEqual(state.screen, .shelf)
    }

    func testImportAndExportAskForAPath() {
        var state = Fixtures.state(issues: [])
        _ = AppUpdate.update(&state, .keyPressed(.character("s")))
        _ = AppUpdate.update(&state, .keyPressed(.character("E")))
        XCTAssertEqual(state.prompt?.text, "~/newsstand-subscriptions.opml")
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.enter)), [.exportOPML(path: "~/newsstand-subscriptions.opml")])
        _ = AppUpdate.update(&state, .happened(.opmlExported(path: "/home/x/newsstand-subscriptions.opml")))
        XCTAssertEqual(state.message, StatusMessage("Subscriptions written to /home/x/newsstand-subscriptions.opml."))
        _ = AppUpdate.update(&state, .keyPressed(.character("I")))
        for character in "/tmp/feeds.opml" { _ = AppUpdate.update(&state, .keyPressed(.character(character))) }
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.enter)), [.importOPML(path: "/tmp/feeds.opml")])
    }

    /// The runtime says what happened; the interface words it, errors as errors.
    func testTheRuntimesReportsAreWordedByTheInterface() {
        var state = Fixtures.state(issues: [])
        _ = AppUpdate.update(&state, .happened(.opmlImported(summary: "Subscribed to 2 feeds.", failures: ["x.example: not a feed"])))
        XCTAssertEqual(state.message, StatusMessage("Subscribed to 2 feeds. Not added: x.example: not a feed", isError: true))
        _ = AppUpdate.update(&state, .happened(.issueStarred(title: "Spring", starred: true)))
        XCTAssertEqual(state.message, StatusMessage("Starred “Spring”: it is kept whatever the storage budget."))
        _ = AppUpdate.update(&state, .happened(.issueStarred(title: "Spring", starred: false)))
        XCTAssertEqual(state.message, StatusMessage("Unstarred “Spring”."))
        _ = AppUpdate.update(&state, .happened(.storageLimitsEnforced(removed: 1)))
        XCTAssertEqual(state.message, StatusMessage("Removed 1 issue."))
        _ = AppUpdate.update(&state, .happened(.accountAdded(user: "reader", subscriptions: 2, problem: "one feed failed")))
        XCTAssertEqual(state.message, StatusMessage("Added the account reader: 2 subscriptions (one feed failed)."))
        _ = AppUpdate.update(&state, .happened(.notAnAccountAddress("ftp://x\u{1B}[2J")))
        XCTAssertEqual(state.message?.isError, true)
        XCTAssertFalse(state.message?.text.contains("\u{1B}") ?? true, "what was typed is made safe for the status line")
    }
}
