import Foundation
import XCTest
@testable import NewsstandCore

/// The counts kept by triggers (`issue_counts`, migration 8) always equal counting the issues themselves,
/// whatever the library goes through.
final class IssueCountsTests: XCTestCase {
    func testCountsFollowEveryChangeToTheIssues() throws {
        let (store, _) = try TestSupport.store(for: self)
        func check(_ step: String, file: StaticString = #filePath, line: UInt = #line) throws {
            let kept = try store.issueCounts().filter { $0.value != IssueCounts() }
            XCTAssertEqual(kept, try store.countedIssueCounts(), step, file: file, line: line)
        }
        let kettle = try store.addPublication(title: "Kettle", feedURL: URL(string: "https://example.com/kettle")!)
        let other = try store.addPublication(title: "Other", feedURL: URL(string: "https://example.com/other")!)
        let issues = try store.upsertIssues((0..<12).map { TestSupport.entry("k\($0)", date: Date(timeIntervalSince1970: 1_700_000_000 + Double($0) * 86_400)) },
                                            publicationID: kettle.id)
        try check("first catalog")
        try store.upsertIssues((0..<5).map { TestSupport.entry("o\($0)") }, publicationID: other.id, markingNewArrivals: true)
        try check("NEW arrivals")
        try store.upsertIssues([TestSupport.entry("k3", title: "Renamed"), TestSupport.entry("k12")], publicationID: kettle.id, markingNewArrivals: true)
        try check("an upsert that updates one issue and adds another")
        for issue in issues.prefix(4) { try store.setState(.available, issueID: issue.id) }
        try store.setState(.downloading, issueID: issues[5].id, progress: 0.3)
        try store.setState(.failed(reason: "404"), issueID: issues[6].id)
        try store.setState(.notDownloaded, issueID: issues[0].id)
        try check("state changes")
        for issue in try store.issues(publicationID: other.id).prefix(2) { try store.markOpened(issueID: issue.id) }
        try check("opened issues are no longer NEW")
        XCTAssertEqual(try store.issueCounts(publicationID: other.id), IssueCounts(total: 5, downloaded: 0, new: 3))
        XCTAssertEqual(try store.issueCounts(publicationID: kettle.id), IssueCounts(total: 13, downloaded: 3, new: 1))
        try store.unsubscribeKeepingDownloads(publicationID: kettle.id)
        try check("unsubscribing keeps only the downloaded issues")
        XCTAssertEqual(try store.issueCounts(publicationID: kettle.id), IssueCounts(total: 3, downloaded: 3, new: 0))
        try store.removePublication(id: other.id)
        try check("a removed publication")
        XCTAssertEqual(try store.issueCounts(publicationID: other.id), IssueCounts())
    }
}
