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
                       "latest only fetches the newest issue, and only when it just arrived")
        XCTAssertEqual(SyncPlanner.issuesToDownload(for: publication(.all, subscribed: false), issues: issues, arrived: arrived), [])
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
