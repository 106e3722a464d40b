import Foundation
import NewsstandTestSupport
import XCTest

/// A real calibre content server's OPDS, end to end: subscribing to its root (`/opds`, a navigation feed)
/// gets the newest books; `catalog --search` searches it; its by-author navigation leads to an author's
/// books; and in the shelf's catalog browser, `/` searches and shows the results (tmux).
final class CalibreCatalogEndToEndTests: EndToEndTestCase {
    private func startCalibre() throws -> CalibreServer {
        let books = try FileManager.default.contentsOfDirectory(at: TestEnvironment.sampleLibrary.appendingPathComponent("issues"),
                                                                includingPropertiesForKeys: nil).filter { $0.pathExtension == "epub" }
        XCTAssertEqual(books.count, 6)
        return try CalibreServer(for: self, books: books.sorted { $0.path < $1.path })
    }

    private func json(_ arguments: [String], _ environment: [String: String]) throws -> Any {
        let run = try TestEnvironment.run(arguments, environment: environment)
        XCTAssertEqual(run.status, 0, run.errors)
        return try JSONSerialization.jsonObject(with: Data(run.output.utf8))
    }

    func testSubscribingToTheRootGetsTheNewestBooks() throws {
        let calibre = try startCalibre()
        let environment = TestEnvironment.environment(home: home)
        let subscribed = try TestEnvironment.run(["subscribe", calibre.opdsRoot.absoluteString], environment: environment)
        XCTAssertEqual(subscribed.status, 0, subscribed.errors)
        XCTAssertTrue(subscribed.output.hasPrefix("Subscribed to calibre Library (By Newest): 6 issues"), subscribed.output)
        let rows = try XCTUnwrap(try json(["subscriptions", "--json"], environment) as? [[String: Any]])
        XCTAssertEqual(rows.count, 1)
        XCTAssertEqual(rows.first?["title"] as? String, "calibre Library")
        XCTAssertEqual(rows.first?["catalog_root"] as? String, calibre.opdsRoot.absoluteString)
        XCTAssertEqual(rows.first?["catalog_feed"] as? String, "By Newest")
        XCTAssertTrue((rows.first?["url"] as? String)?.contains("/opds/navcatalog/4f6e6577657374") == true, "\(rows)")
        let issues = try XCTUnwrap(try json(["list", "--json"], environment) as? [[String: Any]])
        XCTAssertEqual(issues.count, 6)
        // A refresh of the chosen feed keeps the root's title.
        XCTAssertEqual(try TestEnvironment.run(["sync", "--quiet"], environment: environment).status, 0)
        let after = try XCTUnwrap(try json(["subscriptions", "--json"], environment) as? [[String: Any]])
        XCTAssertEqual(after.first?["title"] as? String, "calibre Library")
    }

    func testCatalogSearchPrintsTheResultsWithTheirFormats() throws {
        let calibre = try startCalibre()
        let environment = TestEnvironment.environment(home: home)
        let page = try XCTUnwrap(try json(["catalog", calibre.opdsRoot.absoluteString, "--search", "Small Engines", "--json"], environment) as? [String: Any])
        XCTAssertTrue((page["url"] as? String)?.contains("/opds/search/Small%20Engines") == true, "\(page)")
        let entries = try XCTUnwrap(page["entries"] as? [[String: Any]])
        XCTAssertEqual(entries.count, 1)
        XCTAssertTrue((entries.first?["title"] as? String)?.contains("Small Engines") == true, "\(entries)")
        let acquisition = try XCTUnwrap((entries.first?["acquisitions"] as? [[String: Any]])?.first)
        XCTAssertEqual(acquisition["type"] as? String, "application/epub+zip")
        XCTAssertGreaterThan(acquisition["size"] as? Int ?? 0, 1000)
        let plain = try TestEnvironment.run(["catalog", calibre.opdsRoot.absoluteString], environment: environment)
        XCTAssertEqual(plain.status, 0, plain.errors)
        XCTAssertTrue(plain.output.contains("▸ By Newest"), plain.output)
        XCTAssertTrue(plain.output.contains("search: http://127.0.0.1:\(calibre.port)/opds/search/{searchTerms}"), plain.output)
        // calibre answers a search that finds nothing with 404: that is an empty page, not an error.
        let nothing = try TestEnvironment.run(["catalog", calibre.opdsRoot.absoluteString, "--search", "no such words at all"], environment: environment)
        XCTAssertEqual(nothing.status, 0, nothing.errors)
        XCTAssertTrue(nothing.output.contains("Nothing found for “no such words at all”"), nothing.output)
        XCTAssertTrue(nothing.output.contains("(nothing listed)"), nothing.output)
    }

    func testTheByAuthorNavigationLeadsToAnAuthorsBooks() throws {
        let calibre = try startCalibre()
        let environment = TestEnvironment.environment(home: home)
        let root = try XCTUnwrap(try json(["catalog", calibre.opdsRoot.absoluteString, "--json"], environment) as? [String: Any])
        let navigation = try XCTUnwrap(root["navigation"] as? [[String: Any]])
        let byAuthors = try XCTUnwrap(navigation.first { $0["title"] as? String == "By Authors" }?["url"] as? String)
        let authors = try XCTUnwrap(try json(["catalog", byAuthors, "--json"], environment) as? [String: Any])
        let firstAuthor = try XCTUnwrap((authors["navigation"] as? [[String: Any]])?.first)
        let books = try XCTUnwrap(try json(["catalog", try XCTUnwrap(firstAuthor["url"] as? String), "--json"], environment) as? [String: Any])
        let entries = try XCTUnwrap(books["entries"] as? [[String: Any]])
        XCTAssertFalse(entries.isEmpty, "\(firstAuthor)")
        XCTAssertTrue(entries.allSatisfy { ($0["acquisitions"] as? [[String: Any]])?.first?["type"] as? String == "application/epub+zip" })
    }

    func testSlashInTheCatalogBrowserSearchesAndShowsTheResults() throws {
        let calibre = try startCalibre()
        let environment = TestEnvironment.environment(home: home)
        XCTAssertEqual(try TestEnvironment.run(["subscribe", calibre.opdsRoot.absoluteString], environment: environment).status, 0)
        let session = try TmuxSession(command: try TestEnvironment.binary().path, width: 100, height: 30, environment: environment)
        try session.waitFor(text: "calibre Library")
        try session.send("s")
        try session.waitFor(text: "calibre Library (By Newest)")
        try session.send("B")
        // The page, loaded (the hint bar names "/ search" already while it loads).
        let newest = try session.waitFor("the newest books") { $0.contains("Kettle & Compass") && $0.contains("EPUB") }
        XCTAssertTrue(newest.contains("· / search"), newest)
        try session.send("/")
        try session.waitFor(text: "Search the catalog:")
        try session.send("-l", "Small Engines")
        try session.send("Enter")
        let results = try session.waitFor("the results page") { $0.contains("Search: Small Engines") && $0.contains("Kettle & Compass — Small Engines") }
        XCTAssertFalse(results.contains("Maps & Margins"), results)
        try session.send("Escape", "Escape", "Escape", "q")
        session.waitForExit()
    }
}
