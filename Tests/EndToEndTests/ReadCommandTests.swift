import Foundation
import NewsstandTestSupport
import XCTest

/// `newsstand read`: tables of contents, EPUB and PDF issues, and hostile content, as scripts see them.
final class ReadCommandTests: EndToEndTestCase {

    func testTableOfContentsIsNumberedAsArticlesAre() throws {
        let environment = TestEnvironment.environment(home: home, sample: true)
        XCTAssertEqual(try TestEnvironment.run(["download", "2025-autumn"], environment: environment).status, 0)
        let toc = try TestEnvironment.run(["read", "2025-autumn", "--toc"], environment: environment)
        XCTAssertEqual(toc.status, 0, toc.errors)
        let lines = toc.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        XCTAssertTrue(lines.contains("   1  Gold in the Cracks"), toc.output)
        XCTAssertTrue(lines.contains { $0.hasPrefix("   2  ") && $0.contains("Repair Café") }, toc.output)
        XCTAssertTrue(lines.contains { $0.hasPrefix("   3  ") }, toc.output)
        XCTAssertFalse(toc.output.contains("\u{1B}"))
        // The numbers are the ones --article takes.
        let second = try TestEnvironment.run(["read", "2025-autumn", "--plain", "--article", "2"], environment: environment)
        XCTAssertTrue(second.output.uppercased().contains("REPAIR CAF"), second.output.prefix(200).description)
    }

    func testPDFIssuesReadPageByPage() throws {
        try requirePDFTools()
        let environment = TestEnvironment.environment(home: home)
        try subscribeToPDFIssue(environment: environment)
        let toc = try TestEnvironment.run(["read", "four-pages", "--toc"], environment: environment)
        XCTAssertEqual(toc.status, 0, toc.errors)
        XCTAssertTrue(toc.output.contains("   1  Page 1\n   2  Page 2\n   3  Page 3\n   4  Page 4\n"), toc.output)
        let page = try TestEnvironment.run(["read", "four-pages", "--plain", "--article", "3", "--width", "40"], environment: environment)
        XCTAssertEqual(page.status, 0, page.errors)
        XCTAssertTrue(page.output.hasPrefix("Page 3\n──────"), page.output)
        for line in page.output.split(separator: "\n") {
            XCTAssertLessThanOrEqual(line.count, 40, "line wider than --width: \(line)")
        }
        let all = try TestEnvironment.run(["read", "four-pages", "--plain"], environment: environment)
        XCTAssertTrue(all.output.contains("Page 4"), all.output.suffix(300).description)
        let missing = try TestEnvironment.run(["read", "four-pages", "--article", "5"], environment: environment)
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.errors.contains("has 4 articles; there is no article 5"), missing.errors)
    }

    func testPDFIssuesWithoutPopplerSayWhatToInstall() throws {
        var environment = TestEnvironment.environment(home: home)
        try subscribeToPDFIssue(environment: environment)
        environment["PATH"] = "/nonexistent-folder"
        let read = try TestEnvironment.run(["read", "four-pages", "--plain"], environment: environment)
        XCTAssertEqual(read.status, 1)
        XCTAssertTrue(read.errors.contains("reading PDF issues needs poppler-utils (apt-get install poppler-utils)"), read.errors)
    }
}
