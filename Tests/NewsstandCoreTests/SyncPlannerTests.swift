import XCTest
@testable import NewsstandCore

final class SyncPlannerTests: XCTestCase {
    func issue(_ id: Int64, day: Double, state: IssueState = .notDownloaded, read: Bool = false, publication: Int64 = 1) -> Issue {
        Issue(id: id, publicationID: publication, name: "i\(id)", title: "Issue \(id)", date: Date(timeIntervalSince1970: day * 86_400),
              contentURLs: [URL(string: "https://example.com/\(id).epub")!], state: state, openedAt: read ? Date() : nil)
    }

    func publication(_ policy: AutoDownloadPolicy, keep: Int? = nil, subscribed: Bool = true) -> Publication {
        Publication(id: 1, name: "p", title: "P", feedURL: URL(string: "https://example.com/p")!, isSubscribed: subscribed, autoDownload: policy, keepNewest: keep)
    }

    func testPoliciesPickWhatToDownload() {
        let issues = [issue(3, day: 30), issue(2, day: 20), issue(1, day: 10, state: .available)]
        let arrived: Set<String> = ["i3", "i2"]
        XCTAssertEqual(SyncPlanner.issuesToDownload(for: publication(.none), issues: issues, arrived: arrived), [])
        XCTAssertEqual(SyncPlanner.issuesToDownload(for: publication(.latest), issues: issues, arrived: arrived).map(\.id), [3])
        XCTAssertEqual(SyncPlanner.issuesToDownload(for: publication(.all), issues: issues, arrived: arrived).map(\.id), [3, 2])
        XCTAssertEqual(SyncPlanner.issuesToDownload(for: publication(.latest), issues: issues, arrived: ["i2"]), [],
                       "latest only fetches the newest issue, and only when it is a new arrival")
        XCTAssertEqual(SyncPlanner.issuesToDownload(for: publication(.all, subscribed: false), issues: issues, arrived: arrived), [])
    }

    func testIssuesHeldBackEarlierAreStillWantedLater() {
        var held = issue(5, day: 50)
        held.arrivedNew = true
        let issues = [held, issue(4, day: 40)]
        XCTAssertEqual(SyncPlanner.issuesToDownload(for: publication(.all), issues: issues, arrived: []).map(\.id), [5])
        XCTAssertEqual(SyncPlanner.issuesToDownload(for: publication(.latest), issues: issues, arrived: []).map(\.id), [5])
        held.openedAt = Date()
        XCTAssertEqual(SyncPlanner.issuesToDownload(for: publication(.all), issues: [held], arrived: []), [], "opened: no longer new")
    }

    func testQuietHoursAndDailyCapHoldAutomaticDownloadsBack() {
        let candidates = [issue(1, day: 1), issue(2, day: 2), issue(3, day: 3)]
        let night = AutoDownloadLimits.QuietHours("23:00-07:00")!
        XCTAssertTrue(night.contains(minuteOfDay: 23 * 60 + 30))
        XCTAssertTrue(night.contains(minuteOfDay: 6 * 60 + 59))
        XCTAssertFalse(night.contains(minuteOfDay: 7 * 60))
        XCTAssertFalse(AutoDownloadLimits.QuietHours("09:00-17:00")!.contains(minuteOfDay: 8 * 60))
        XCTAssertNil(AutoDownloadLimits.QuietHours("25:00-07:00"))
        XCTAssertNil(AutoDownloadLimits.QuietHours("07:00-07:00"))
        var limits = AutoDownloadLimits(quietHours: night, dailyCap: 2)
        var result = limits.apply(to: candidates, minuteOfDay: 2 * 60, startedToday: 0)
        XCTAssertEqual(result.allowed, [])
        XCTAssertEqual(result.held.count, 3)
        XCTAssertEqual(result.reason, "quiet hours")
        result = limits.apply(to: candidates, minuteOfDay: 12 * 60, startedToday: 1)
        XCTAssertEqual(result.allowed.map(\.id), [1])
        XCTAssertEqual(result.held.map(\.id), [2, 3])
        XCTAssertEqual(result.reason, "daily cap of 2 reached")
        limits.dailyCap = nil
        XCTAssertEqual(limits.apply(to: candidates, minuteOfDay: 12 * 60, startedToday: 9).allowed.count, 3)
        let configuration = Configuration.parse("quiet-hours 22:30-06:15\ndaily-download-cap 4\nquiet-hours late")
        XCTAssertEqual(configuration.autoDownloadLimits, AutoDownloadLimits(quietHours: .init(start: 22 * 60 + 30, end: 6 * 60 + 15), dailyCap: 4))
        XCTAssertEqual(configuration.warnings.count, 1)
    }

    func testSyncCountsTodaysAutomaticDownloadsAgainstTheCap() throws {
        let (store, paths) = try TestSupport.store(for: self)
        let server = try TestSupport.server(for: self, root: TestFiles.sampleLibrary)
        let url = server.url(for: "catalog.plist")
        let publication = try store.addPublication(title: "Sample", feedURL: url)
        try store.setPolicy(publicationID: publication.id, autoDownload: .all, keepNewest: nil)
        let noon = Date(timeIntervalSince1970: 1_767_268_800) // 2026-01-01 12:00 UTC
        let sync = SyncService(store: store, paths: paths, limits: AutoDownloadLimits(dailyCap: 2), now: { noon })
        let downloads = DownloadQueue(store: store, paths: paths) { _ in }
        var report = sync.refreshAndQueue(try XCTUnwrap(try store.publication(id: publication.id)), into: downloads)
        XCTAssertEqual(report.queued.count, 2, "six issues arrived; the cap lets two start today")
        XCTAssertEqual(report.held.count, 4)
        XCTAssertTrue(downloads.waitUntilIdle(timeout: 30))
        report = sync.refreshAndQueue(try XCTUnwrap(try store.publication(id: publication.id)), into: downloads)
        XCTAssertEqual(report.queued.count, 0, "the cap is spent for today")
        XCTAssertEqual(report.held.count, 4, "the held issues are still wanted")
        let tomorrow = SyncService(store: store, paths: paths, limits: AutoDownloadLimits(dailyCap: 2), now: { noon.addingTimeInterval(86_400) })
        report = tomorrow.refreshAndQueue(try XCTUnwrap(try store.publication(id: publication.id)), into: downloads)
        XCTAssertEqual(report.queued.count, 2, "a new day, a new allowance")
        XCTAssertTrue(downloads.waitUntilIdle(timeout: 30))
    }

    func testKeepNewestRemovesOlderDownloadsButNeverTheOneBeingRead() {
        let issues = [issue(4, day: 40, state: .available), issue(3, day: 30, state: .available),
                      issue(2, day: 20, state: .available), issue(1, day: 10, state: .available), issue(0, day: 5)]
        XCTAssertEqual(SyncPlanner.issuesBeyondKeepLimit(for: publication(.none, keep: 2), issues: issues, readingIssueID: nil).map(\.id), [1, 2])
        XCTAssertEqual(SyncPlanner.issuesBeyondKeepLimit(for: publication(.none, keep: 2), issues: issues, readingIssueID: 1).map(\.id), [2])
        XCTAssertEqual(SyncPlanner.issuesBeyondKeepLimit(for: publication(.none), issues: issues, readingIssueID: nil), [])
    }

    func testBudgetRemovesOldestReadFirstAndProtectsNewestAndReading() {
        let issues = [
            issue(1, day: 50, state: .available, read: true),            // newest of publication 1: protected
            issue(2, day: 10, state: .available),                         // unread, oldest
            issue(3, day: 20, state: .available, read: true),             // read
            issue(4, day: 15, state: .available, read: true),             // read, older: goes first
            issue(5, day: 5, state: .available, read: true),              // being read: protected
            issue(6, day: 1, state: .available, read: true, publication: 2), // newest (only) of publication 2
        ]
        let sizes = Dictionary(uniqueKeysWithValues: issues.map { ($0.id, Int64(100)) })
        XCTAssertEqual(SyncPlanner.issuesOverBudget(issues, sizes: sizes, budget: 600, readingIssueID: 5), [])
        XCTAssertEqual(SyncPlanner.issuesOverBudget(issues, sizes: sizes, budget: 450, readingIssueID: 5).map(\.id), [4, 3])
        XCTAssertEqual(SyncPlanner.issuesOverBudget(issues, sizes: sizes, budget: 0, readingIssueID: 5).map(\.id), [4, 3, 2],
                       "read issues go before unread ones; newest and being-read issues are never removed")
    }

    func testSizesParse() {
        XCTAssertEqual(Configuration.parseSize("500M"), 500 << 20)
        XCTAssertEqual(Configuration.parseSize("2G"), 2 << 30)
        XCTAssertEqual(Configuration.parseSize("1.5gb"), Int64(1.5 * Double(1 << 30)))
        XCTAssertEqual(Configuration.parseSize("4096"), 4096)
        XCTAssertNil(Configuration.parseSize("lots"))
        XCTAssertEqual(Configuration.parse("cover-mode blocks").coverMode, .blocks)
        XCTAssertEqual(Configuration.parse("measure 60").measure, 60)
        XCTAssertEqual(Configuration.parse("measure 5").warnings.count, 1)
        XCTAssertNil(Configuration.parse("cover-mode blocks\ncover-mode auto").coverMode)
        let configuration = Configuration.parse("storage-budget 1G\nrefresh-interval 0\nrefresh-interval soon\n")
        XCTAssertEqual(configuration.storageBudget, 1 << 30)
        XCTAssertEqual(configuration.refreshIntervalMinutes, 0)
        XCTAssertEqual(configuration.warnings, ["config, line 3: refresh-interval takes minutes from 0 (off) to 10080"])
    }
}
