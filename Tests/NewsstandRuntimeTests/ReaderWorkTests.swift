import Foundation
import XCTest
import NewsstandContent
import NewsstandTestSupport
import NewsstandUI
@testable import NewsstandRuntime

/// The reader's slow work: pictures only from inside the issue, and search across an issue's blocks.
final class ReaderWorkTests: XCTestCase {
    func testPicturesAreDrawnOnlyFromInsideTheIssueFolder() throws {
        let folder = try TestFiles.scratchFolder(for: self).appendingPathComponent("issue", isDirectory: true)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("images"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: TestFiles.sampleLibrary.appendingPathComponent("covers/2025-spring.png"),
                                         to: folder.appendingPathComponent("images/cover.png"))
        let inside = PictureRequest(issueID: 1, source: folder.appendingPathComponent("images/cover.png"), columns: 20, rows: 8)
        let art = try ReaderWork.picture(inside, issueFolder: folder).get()
        XCTAssertEqual(art.columns, 20)
        XCTAssertEqual(art.rows, 8)
        XCTAssertTrue(art.lines.joined().contains { $0 != " " })

        let escape = PictureRequest(issueID: 1, source: URL(fileURLWithPath: folder.path + "/images/../../issue/../../../etc/passwd"), columns: 20, rows: 8)
        XCTAssertEqual(ReaderWork.picture(escape, issueFolder: folder), .failure(ReaderFailure("the picture is outside the issue")))
        let sibling = PictureRequest(issueID: 1, source: URL(fileURLWithPath: folder.path + "-other/x.png"), columns: 20, rows: 8)
        XCTAssertEqual(ReaderWork.picture(sibling, issueFolder: folder), .failure(ReaderFailure("the picture is outside the issue")))
        let remote = PictureRequest(issueID: 1, source: URL(string: "https://example.com/x.png")!, columns: 20, rows: 8)
        XCTAssertEqual(ReaderWork.picture(remote, issueFolder: folder), .failure(ReaderFailure("the picture is not in the issue")))
    }

    func testIssueSearchFindsBlocksIgnoringCase() {
        let articles: [[TextBlock]] = [[.paragraph("A ZEBRA crossing"), .paragraph("none")], [], [.heading(level: 1, text: "zebras"), .image(source: nil, alt: "a zebra")]]
        XCTAssertEqual(ReaderWork.matches(of: "zebra", in: articles),
                       [IssueMatch(articleIndex: 0, blockIndex: 0), IssueMatch(articleIndex: 2, blockIndex: 0), IssueMatch(articleIndex: 2, blockIndex: 1)])
    }
}
