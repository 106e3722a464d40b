import Foundation
import LocalHTTPServer
import NewsstandTestSupport
import XCTest

/// `newsstand article`: a page fetched from 127.0.0.1 or read from a file, printed as text, Markdown
/// or JSON; a page without an article, an endless page and a bad call each fail in plain words.
final class ArticleCommandTests: EndToEndTestCase {
    static let sentence = "The committee met on Tuesday to discuss the harbour, the new ferry timetable, and the long delayed repairs to the old stone pier."

    static func storyPage(marker: String = "Lighthousekeeper") -> Data {
        let paragraphs = (0..<6).map { "<p>\(marker)\($0) \(sentence) \(sentence) \(sentence)</p>" }.joined()
        return Data("""
            <!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>The pier repairs begin at last | Harbour Gazette</title>
            <meta property="og:site_name" content="Harbour Gazette"><meta name="author" content="Ann Example">
            <meta property="og:image" content="/pictures/pier.jpg"></head>
            <body><nav class="menu"><a href="/">Home</a> <a href="/news">News</a></nav>
            <div id="story"><p>First <a href="older.html">an older story</a>. \(sentence)</p>\(paragraphs)</div>
            <div class="comments"><p>Commenter says: \(sentence)</p></div></body></html>
            """.utf8)
    }

    func startServer() throws -> LocalHTTPServer {
        let server = LocalHTTPServer()
        try server.start()
        addTeardownBlock { server.stop() }
        return server
    }

    func testJSONFromAPageOverHTTP() throws {
        let server = try startServer()
        server.setResource("/news/pier.html", data: Self.storyPage(), contentType: "text/html; charset=utf-8")
        let url = server.url(for: "/news/pier.html").absoluteString
        let result = try TestEnvironment.run(["article", url, "--format", "json"], environment: TestEnvironment.environment(home: home))
        XCTAssertEqual(result.status, 0, result.errors)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        XCTAssertEqual(Set(json.keys), ["title", "byline", "excerpt", "published", "site_name", "lang", "dir", "readerable", "lead_image", "text", "blocks"])
        XCTAssertTrue(json["published"] is NSNull, "a field the page does not give is null")
        XCTAssertTrue(json["dir"] is NSNull)
        XCTAssertEqual(json["title"] as? String, "The pier repairs begin at last")
        XCTAssertEqual(json["byline"] as? String, "Ann Example")
        XCTAssertEqual(json["site_name"] as? String, "Harbour Gazette")
        XCTAssertEqual(json["lang"] as? String, "en")
        XCTAssertEqual(json["readerable"] as? Bool, true)
        XCTAssertEqual(json["lead_image"] as? String, server.url(for: "/pictures/pier.jpg").absoluteString)
        let text = try XCTUnwrap(json["text"] as? String)
        XCTAssertTrue(text.hasPrefix("First an older story. The committee"), text)
        XCTAssertTrue(text.contains("\n\nLighthousekeeper0 "))
        XCTAssertFalse(text.contains("Home"))
        XCTAssertFalse(text.contains("Commenter"))
        let blocks = try XCTUnwrap(json["blocks"] as? [[String: Any]])
        XCTAssertEqual(blocks.count, 7)
        XCTAssertEqual(blocks.first?["type"] as? String, "paragraph")
        let links = try XCTUnwrap(blocks.first?["links"] as? [[String: Any]])
        XCTAssertEqual(links.first?["url"] as? String, server.url(for: "/news/older.html").absoluteString)
        XCTAssertEqual(links.first?["number"] as? Int, 1)
    }

    func testTextAndMarkdownFromASavedFileWithItsBase() throws {
        let file = home.appendingPathComponent("pier.html")
        try Self.storyPage().write(to: file)
        let environment = TestEnvironment.environment(home: home)
        let text = try TestEnvironment.run(["article", file.path], environment: environment)
        XCTAssertEqual(text.status, 0, text.errors)
        XCTAssertTrue(text.output.hasPrefix("The pier repairs begin at last\nAnn Example · Harbour Gazette\n\nFirst an older story."), text.output)
        let markdown = try TestEnvironment.run(["article", file.path, "--base", "https://gazette.example/news/pier.html", "--format", "markdown"],
                                               environment: environment)
        XCTAssertEqual(markdown.status, 0, markdown.errors)
        XCTAssertTrue(markdown.output.hasPrefix("# The pier repairs begin at last\n\n*Ann Example · <https://gazette.example/news/pier.html>*\n\n"), markdown.output)
        XCTAssertTrue(markdown.output.contains("First [an older story](https://gazette.example/news/older.html). The committee"))
    }

    func testAPageWithoutAnArticleSaysSo() throws {
        let server = try startServer()
        let links = (0..<200).map { "<li><a href=\"/story/\($0)\">Story \($0)</a></li>" }.joined()
        server.setResource("/index.html", data: Data("<html><body><ul>\(links)</ul></body></html>".utf8), contentType: "text/html")
        let url = server.url(for: "/index.html").absoluteString
        let environment = TestEnvironment.environment(home: home)
        let result = try TestEnvironment.run(["article", url], environment: environment)
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.errors.contains("has no article to read"), result.errors)
        XCTAssertEqual(result.output, "")
        let json = try TestEnvironment.run(["article", url, "--format", "json"], environment: environment)
        XCTAssertEqual(json.status, 0, json.errors)
        XCTAssertTrue(json.output.contains("\"readerable\" : false"), json.output)
    }

    func testAnEndlessPageStopsAtTheLimitAndBadCallsAreUsageErrors() throws {
        let server = try startServer()
        var faults = FaultPlan()
        faults.endlessBody = true
        server.faults = faults
        let environment = TestEnvironment.environment(home: home)
        let endless = try TestEnvironment.run(["article", server.url(for: "/forever.html").absoluteString], environment: environment)
        XCTAssertEqual(endless.status, 1)
        XCTAssertTrue(endless.errors.contains("page size limit"), endless.errors)
        let format = try TestEnvironment.run(["article", "x.html", "--format", "pdf"], environment: environment)
        XCTAssertEqual(format.status, 2)
        XCTAssertTrue(format.errors.contains("--format takes text, markdown or json"), format.errors)
        let missing = try TestEnvironment.run(["article", home.appendingPathComponent("nothing.html").path], environment: environment)
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.errors.contains("no such file"), missing.errors)
    }
}
