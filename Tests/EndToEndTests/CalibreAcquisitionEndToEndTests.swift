import Foundation
import NewsstandTestSupport
import XCTest

/// One title from a real calibre content server (issue 12): browsed from its OPDS root, acquired into the
/// Library shelf without subscribing to anything more, and read; and a calibre behind a login prompts for it.
final class CalibreAcquisitionEndToEndTests: EndToEndTestCase {
    private func books() throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: TestEnvironment.sampleLibrary.appendingPathComponent("issues"),
                                                    includingPropertiesForKeys: nil).filter { $0.pathExtension == "epub" }.sorted { $0.path < $1.path }
    }

    private func rows(_ environment: [String: String]) throws -> [[String: Any]] {
        let list = try TestEnvironment.run(["list", "--json"], environment: environment)
        XCTAssertEqual(list.status, 0, list.errors)
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(list.output.utf8)) as? [[String: Any]], list.output)
    }

    func testAcquireOneTitleFromTheBrowserAndReadIt() throws {
        let calibre = try CalibreServer(for: self, books: Array(try books().prefix(2)))
        let environment = TestEnvironment.environment(home: home)
        let subscribed = try TestEnvironment.run(["subscribe", calibre.opdsRoot.absoluteString], environment: environment)
        XCTAssertEqual(subscribed.status, 0, subscribed.errors)
        XCTAssertEqual(try rows(environment).count, 2, "the root led to its newest books")

        let session = try TmuxSession(command: try TestEnvironment.binary().path, width: 110, height: 32, environment: environment)
        try session.send("s")
        try session.waitFor(text: "SUBSCRIPTIONS")
        // F browses the catalog from its root.
        try session.send("F")
        // The subscriptions screen names the followed feed ("By Newest") too: wait for the browser's own list.
        try session.waitFor("the catalog's root") { $0.contains("CATALOG · ") && $0.contains("By Title") }
        // Move to the "By Newest" entry, then follow it.
        var screen = try session.screen()
        for _ in 0..<20 where !(screen.split(separator: "\n").first { $0.contains("▌") && $0.contains("Newest") } != nil) {
            try session.send("j")
            usleep(100_000)
            screen = try session.screen()
        }
        try session.send("Enter")
        try session.waitFor("the newest books") { $0.contains("Newest") && $0.contains("navcatalog") }
        try session.waitFor("a book listed") { !$0.contains("Loading…") && $0.contains("Kettle & Compass") }
        try session.send("Enter")
        // The whole chooser, not only its heading (tmux may show the frame half drawn, the catalog's rows still below).
        let choice = try session.waitFor("the formats offered") { $0.contains("GET · ") && $0.contains("EPUB · ") }
        XCTAssertTrue(choice.contains("▌ EPUB · "), "the readable format first: \(choice)")
        try session.send("Enter")
        try session.waitFor(text: "into the Library shelf")

        // The title downloads into the Library shelf; the catalog's books are not subscribed.
        let deadline = Date().addingTimeInterval(60)
        var library: [[String: Any]] = []
        while Date() < deadline {
            library = try rows(environment).filter { $0["publication"] as? String == "library" }
            if library.first?["state"] as? String == "available" { break }
            usleep(200_000)
        }
        XCTAssertEqual(library.count, 1, "\(library)")
        XCTAssertEqual(library.first?["state"] as? String, "available", "\(library)")

        XCTAssertEqual(try rows(environment).filter { $0["publication"] as? String != "library" }.count, 2,
                       "getting a title subscribes to nothing more")
        try session.send("Escape", "Escape", "Escape")
        try session.waitFor(text: "TAP TO DOWNLOAD")
        try session.send("Tab")
        try session.waitFor(text: "TAP TO READ")
        try session.send("Enter")
        try session.waitFor("the issue's contents") { $0.contains("  1  ") }
        try session.send("Enter")
        let article = try session.waitFor(text: "article 1/")
        XCTAssertTrue(article.split(separator: "\n").count > 5, article)
        try session.send("C-c")
        session.waitForExit()
    }

    func testACalibreBehindALoginPromptsForItInTheProgram() throws {
        let password = "Kettle-Pa55"
        let calibre = try CalibreServer(for: self, books: Array(try books().prefix(1)), login: (user: "reader", password: password))
        let environment = TestEnvironment.environment(home: home)
        let session = try TmuxSession(command: try TestEnvironment.binary().path, width: 110, height: 30, environment: environment)
        try session.send("s")
        try session.waitFor(text: "SUBSCRIPTIONS")
        try session.send("a")
        try session.send("-l", calibre.newestFeed.absoluteString)
        try session.send("Enter")
        try session.waitFor(text: "asks for a login")
        try session.send("-l", "reader")
        try session.send("Enter")
        try session.waitFor(text: "Password")
        try session.send("-l", password)
        try session.send("Enter")
        try session.waitFor(text: "Save")
        try session.send("n")
        let screen = try session.waitFor(text: "Subscribed to")
        XCTAssertFalse(screen.contains(password), "the password is never shown")
        try session.send("C-c")
        session.waitForExit()
    }
}
