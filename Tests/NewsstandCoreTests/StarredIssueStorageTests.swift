import Foundation
import XCTest
@testable import NewsstandCore

/// Starred issues (here, or on an account's server) are never removed to keep within the storage budget or a
/// publication's keep-newest limit.
final class StarredIssueStorageTests: XCTestCase {
    func testTheBudgetAndTheKeepLimitPassStarredIssuesBy() throws {
        let (store, paths) = try TestSupport.store(for: self)
        let publication = try store.addPublication(title: "Kettle", feedURL: URL(string: "https://example.com/feed")!)
        try store.setPolicy(publicationID: publication.id, autoDownload: .none, keepNewest: 1)
        let entries = (1...3).map { TestSupport.entry("issue-\($0)", date: Date(timeIntervalSince1970: 1_700_000_000 + Double($0) * 86_400)) }
        let issues = try store.upsertIssues(entries, publicationID: publication.id)
        for issue in issues {
            let folder = paths.folder(for: issue, of: publication)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(count: 1_000).write(to: folder.appendingPathComponent("issue.epub"))
            try store.setState(.available, issueID: issue.id)
            try store.setRead(true, issueID: issue.id)
        }
        let oldest = try XCTUnwrap(issues.min { $0.date < $1.date })
        try store.setStarred(true, issueID: oldest.id)
        XCTAssertEqual(try store.starredIssueIDs(), [oldest.id])
        XCTAssertEqual(try store.issue(id: oldest.id)?.isStarred, true, "issues read from the library say so (the shelf marks them)")
        XCTAssertEqual(try store.issues(publicationID: publication.id).filter(\.isStarred).map(\.id), [oldest.id])

        let sync = SyncService(store: store, paths: paths)
        XCTAssertFalse(sync.plannedEvictions(budget: 1).contains { $0.id == oldest.id }, "the budget passes it by")
        let removed = sync.enforceLimits(budget: 1)
        XCTAssertFalse(removed.isEmpty, "the others go")
        XCTAssertFalse(removed.contains { $0.id == oldest.id })
        XCTAssertEqual(try store.issue(id: oldest.id)?.state, .available)

        // Unstarred, it goes like any other.
        try store.setStarred(false, issueID: oldest.id)
        XCTAssertTrue(sync.enforceLimits(budget: 1).contains { $0.id == oldest.id })
    }
}
