import Foundation
import LocalHTTPServer
import NewsstandContent
import NewsstandTestSupport
import XCTest

/// The reader and search as a person uses them: `newsstand search`, a PDF issue and a comic book in the
/// shelf's reader, and keeping one's place across a quit and relaunch (through tmux).
final class ReaderEndToEndTests: EndToEndTestCase {

    func testSearchPrintsIssueArticleAndSnippetPerMatch() throws {
        let environment = TestEnvironment.environment(home: home, sample: true)
        XCTAssertEqual(try TestEnvironment.run(["download", "2025-autumn"], environment: environment).status, 0)
        let found = try TestEnvironment.run(["search", "thermostat"], environment: environment)
        XCTAssertEqual(found.status, 0, found.errors)
        let lines = found.output.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.first?.contains("/2025-autumn") == true, found.output)
        XCTAssertTrue(lines.first?.contains("2. Saturday at the Repair Café") == true, found.output)
        XCTAssertTrue(lines.count >= 2 && lines[1].hasPrefix("    ") && lines[1].contains("[thermostat]"), found.output)
        XCTAssertFalse(found.output.contains("\u{1B}"), "no escapes into a pipe")

        let twoWords = try TestEnvironment.run(["search", "economics", "kettle"], environment: environment)
        XCTAssertEqual(twoWords.status, 0, twoWords.errors)
        let none = try TestEnvironment.run(["search", "zeppelinwords"], environment: environment)
        XCTAssertEqual(none.status, 1)
        XCTAssertTrue(none.errors.contains("no matches for “zeppelinwords”"), none.errors)
        XCTAssertEqual(try TestEnvironment.run(["search"], environment: environment).status, 2)
    }

    func testReadScrollQuitRelaunchAndContinueFindsTheSameText() throws {
        let environment = TestEnvironment.environment(home: home, sample: true)
        XCTAssertEqual(try TestEnvironment.run(["download", "2026-autumn"], environment: environment).status, 0)
        let binary = try TestEnvironment.binary().path
        var session: TmuxSession? = try TmuxSession(command: binary, width: 90, height: 30, environment: environment)
        try session!.waitFor(text: "TAP TO READ")
        try session!.send("Enter")
        try session!.waitFor(text: "Reading the Years in a Street Tree")
        try session!.send("Enter")
        try session!.waitFor(text: "article 1/3")
        var scrolled = try session!.screen()
        for page in 1...3 {
            let before = scrolled
            try session!.send("Space")
            // One page at a time, so the screen read below is the place that was saved.
            scrolled = try session!.waitFor("page \(page) down") { $0 != before && $0.contains("article 1/3") }
        }
        usleep(300_000)
        scrolled = try session!.screen()
        let lines = scrolled.split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        let top = try XCTUnwrap(lines.dropFirst().first { !$0.isEmpty && !$0.allSatisfy { "─━".contains($0) } }, scrolled)
        try session!.send("q")
        try session!.waitFor(text: "The Typewriter Mender")
        try session!.send("Escape")
        try session!.waitFor(text: "Continue reading")
        try session!.send("q")
        session!.waitForExit()
        session = nil

        session = try TmuxSession(command: binary, width: 90, height: 30, environment: environment)
        try session!.waitFor(text: "Continue reading")
        try session!.send("c")
        let restored = try session!.waitFor(text: "article 1/3")
        let restoredLines = restored.split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        let position = try XCTUnwrap(restoredLines.firstIndex(of: top), "“\(top)” is not on the screen after continuing:\n\(restored)")
        XCTAssertLessThanOrEqual(position, 8, "the same text is at the top (the saved paragraph starts there):\n\(restored)")
        XCTAssertFalse(restored.contains("· 0% "), restored)
        try session!.send("C-c")
        session!.waitForExit()
    }

    func testAComicBookDownloadsOpensOnItsFirstPageAndTheSpaceBarTurnsIt() throws {
        let www = home.appendingPathComponent("www", isDirectory: true)
        try FileManager.default.createDirectory(at: www, withIntermediateDirectories: true)
        try ComicBookFixture.write(www.appendingPathComponent("lights.cbz"), pages: ["page10.png", "page2.png", "page1.png"], extra: [
            ComicBookFixture.comicInfo(title: "Lights", series: "Harbour Tales", number: "3", pages: [(0, "FrontCover", nil)]),
            .file("scanner-notes.txt", Data("not a page".utf8)),
        ])
        // No cover in the catalog: once downloaded, the shelf draws the first page.
        try Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>Title</key><string>Harbour Tales</string><key>Issues</key><array>
            <dict><key>Name</key><string>lights</string><key>Title</key><string>Lights</string>
            <key>Date</key><date>2026-01-01T00:00:00Z</date><key>Content</key><string>lights.cbz</string></dict>
            </array></dict></plist>
            """.utf8).write(to: www.appendingPathComponent("catalog.plist"))
        let server = LocalHTTPServer(root: www)
        try server.start()
        addTeardownBlock { server.stop() }
        let environment = TestEnvironment.environment(home: home)
        let subscribed = try TestEnvironment.run(["subscribe", server.url(for: "/catalog.plist").absoluteString], environment: environment)
        XCTAssertEqual(subscribed.status, 0, subscribed.errors)

        let session = try TmuxSession(command: try TestEnvironment.binary().path, width: 90, height: 30, environment: environment)
        let shelf = try session.waitFor(text: "TAP TO DOWNLOAD")
        XCTAssertTrue(shelf.contains("no cover"), shelf)
        try session.send("Enter")
        let downloaded = try session.waitFor("the first page as the cover", timeout: 30) { $0.contains("TAP TO READ") && !$0.contains("no cover") }
        XCTAssertGreaterThan(downloaded.filter { "▀@%#*+=-:.|/\\_".contains($0) }.count, 20, downloaded)
        try session.send("Enter")
        try session.waitFor(text: "Page 1: Front cover")
        try session.send("Enter")
        let first = try session.waitFor("page 1 drawn") { $0.contains("page 1/3") && !$0.contains("Drawing the page") }
        XCTAssertTrue(first.contains("Page 1: Front cover"), first)
        // Half blocks on this 256-colour UTF-8 terminal; ASCII glyphs where the terminal has fewer colours.
        XCTAssertGreaterThan(first.filter { "▀@%#*+=-:.|/\\_".contains($0) }.count, 200, first)
        try session.send("Space")
        let second = try session.waitFor("page 2 drawn") { $0.contains("page 2/3") && !$0.contains("Drawing the page") }
        XCTAssertTrue(second.contains("Page 2"), second)
        XCTAssertFalse(second.contains("Front cover"), second)
        try session.send("G")
        try session.waitFor(text: "page 3/3")
        try session.send("Space")
        try session.waitFor(text: "This is the last page.")
        try session.send("C-c")
        session.waitForExit()

        let contents = try TestEnvironment.run(["read", "--toc", "lights"], environment: environment)
        XCTAssertEqual(contents.status, 0, contents.errors)
        XCTAssertEqual(contents.output, "Harbour Tales #3: Lights\n\n   1  Page 1: Front cover\n   2  Page 2\n   3  Page 3\n")
        let page = try TestEnvironment.run(["read", "--article", "3", "--plain", "lights"], environment: environment)
        XCTAssertTrue(page.output.contains("[picture: page10.png]"), page.output)
    }

    func testPDFIssuesOpenInTheShelfsReaderWithPagePicturesAndSearch() throws {
        try requirePDFTools()
        let environment = TestEnvironment.environment(home: home)
        try subscribeToPDFIssue(environment: environment)
        let searched = try TestEnvironment.run(["search", "Huardest"], environment: environment)
        XCTAssertEqual(searched.status, 0, searched.errors)
        XCTAssertTrue(searched.output.contains("Page 3"), searched.output)

        let session = try TmuxSession(command: try TestEnvironment.binary().path, width: 90, height: 30, environment: environment)
        try session.waitFor(text: "TAP TO READ")
        try session.send("Enter")
        try session.waitFor(text: "Page 4")
        try session.send("j", "Enter")
        let page = try session.waitFor(text: "article 2/4")
        XCTAssertTrue(page.contains("PAGE 2") || page.contains("Page 2"), page)
        XCTAssertTrue(page.contains("Huardest"), page)

        try session.send("P")
        let picture = try session.waitFor("the page drawn as a picture", timeout: 30) { !$0.contains("Huardest") && !$0.contains("Drawing the page") && $0.contains("article 2/4") }
        // Half blocks on this 256-colour UTF-8 terminal; ASCII glyphs where the terminal has fewer colours.
        let ink = picture.filter { "▀@%#*+=-:.|/\\_".contains($0) }.count
        XCTAssertGreaterThan(ink, 100, picture)
        try session.send("P")
        try session.waitFor(text: "Huardest")

        try session.send("/")
        try session.waitFor(text: "Search this issue:")
        try session.send("Huardest", "Enter")
        try session.waitFor(text: "in 4 articles")
        try session.send("C-c")
        session.waitForExit()
    }
}
