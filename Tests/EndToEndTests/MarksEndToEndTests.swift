import Foundation
import NewsstandTestSupport
import XCTest

/// Bookmarks, highlights and notes as a person uses them (through tmux), and `newsstand notes` exporting them.
final class MarksEndToEndTests: EndToEndTestCase {
    /// The sample's autumn 2026 issue downloaded, and the reader open on its first article.
    private func openFirstArticle(_ environment: [String: String], width: Int = 90) throws -> TmuxSession {
        XCTAssertEqual(try TestEnvironment.run(["download", "2026-autumn"], environment: environment).status, 0)
        let session = try TmuxSession(command: try TestEnvironment.binary().path, width: width, height: 30, environment: environment)
        try session.waitFor(text: "TAP TO READ")
        try session.send("Enter")
        try session.waitFor(text: "Reading the Years in a Street Tree")
        try session.send("Enter")
        try session.waitFor(text: "article 1/3")
        return session
    }

    /// The screen's lines of text between the header and the status line, trimmed, rules and blank lines left out.
    private func textLines(_ screen: String) -> [String] {
        screen.split(separator: "\n", omittingEmptySubsequences: false).dropFirst().dropLast()
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !$0.allSatisfy { "─━".contains($0) } }
    }

    func testBookmarkALineJumpBackToItAtAnotherWidthAndAfterARelaunch() throws {
        let environment = TestEnvironment.environment(home: home, sample: true)
        var session: TmuxSession? = try openFirstArticle(environment)
        var screen = try session!.screen()
        for page in 1...2 {
            let before = screen
            try session!.send("Space")
            screen = try session!.waitFor("page \(page) down") { $0 != before && $0.contains("article 1/3") }
        }
        usleep(300_000)
        let top = try XCTUnwrap(textLines(try session!.screen()).first)
        let words = top.split(separator: " ").prefix(2).joined(separator: " ")
        try session!.send("m")
        try session!.waitFor("the name offered: the article and the line's first words") { $0.contains("Bookmark name: Walking the Edge of the Map: \(words)") }
        try session!.send("Enter")
        try session!.waitFor(text: "Bookmarked")
        try session!.send("l")
        try session!.waitFor(text: "article 2/3")
        try session!.resize(width: 70, height: 30)
        try session!.send("'")
        try session!.waitFor(text: "Bookmarks — ")
        try session!.send("Enter")
        let back = try session!.waitFor(text: "article 1/3")
        XCTAssertTrue(textLines(back).prefix(2).joined(separator: " ").contains(words),
                      "at another width, the bookmarked line is at the top:\n\(back)\n(“\(words)”)")
        try session!.send("C-c")
        session!.waitForExit()
        session = nil

        // Kept in the library: there after a relaunch, and listed from the contents.
        session = try TmuxSession(command: try TestEnvironment.binary().path, width: 90, height: 30, environment: environment)
        try session!.waitFor(text: "Continue reading")
        try session!.send("c")
        try session!.waitFor(text: "article 1/3")
        try session!.send("t")
        try session!.waitFor(text: "Reading the Years in a Street Tree")
        try session!.send("'")
        let list = try session!.waitFor(text: "Bookmarks — ")
        XCTAssertTrue(list.contains("Walking the Edge of the Map: \(words)"), list)
        try session!.send("d")
        try session!.waitFor(text: "y delete")
        try session!.send("y")
        try session!.waitFor(text: "No bookmarks yet")
        try session!.send("C-c")
        session!.waitForExit()
    }

    func testHighlightAPassageAddANoteAndExportThem() throws {
        let environment = TestEnvironment.environment(home: home, sample: true)
        let session = try openFirstArticle(environment)
        try session.send("j")
        try session.send("j")
        try session.send("v")
        try session.waitFor(text: "Enter highlight")
        try session.send("w")
        try session.send("Enter")
        try session.waitFor(text: "Highlighted “")
        try session.send("Space")
        try session.send("v")
        try session.send("j")
        try session.send("a")
        try session.waitFor(text: "Note:")
        try session.send("-l", "worth keeping")
        try session.send("Enter")
        try session.send("\"")
        let list = try session.waitFor(text: "note: worth keeping")
        XCTAssertEqual(list.components(separatedBy: "(article 1)").count - 1, 2, list)
        try session.send("C-c")
        session.waitForExit()

        let markdown = try TestEnvironment.run(["notes", "2026-autumn"], environment: environment)
        XCTAssertEqual(markdown.status, 0, markdown.errors)
        XCTAssertTrue(markdown.output.hasPrefix("# "), markdown.output)
        XCTAssertTrue(markdown.output.contains("\n## 1. Walking the Edge of the Map\n"), markdown.output)
        XCTAssertEqual(markdown.output.components(separatedBy: "\n> ").count - 1, 2, markdown.output)
        XCTAssertTrue(markdown.output.contains("\nNote: worth keeping\n"), markdown.output)
        XCTAssertTrue(markdown.output.contains("*article 1, § "), markdown.output)
        XCTAssertFalse(markdown.output.contains("\u{1B}"))

        let json = try TestEnvironment.run(["notes", "--all", "--format", "json"], environment: environment)
        XCTAssertEqual(json.status, 0, json.errors)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        let issues = try XCTUnwrap(object["issues"] as? [[String: Any]])
        XCTAssertEqual(issues.count, 1)
        XCTAssertTrue((issues[0]["issue"] as? String)?.hasSuffix("/2026-autumn") == true, json.output)
        let highlights = try XCTUnwrap(issues[0]["highlights"] as? [[String: Any]])
        XCTAssertEqual(highlights.count, 2)
        XCTAssertEqual(Set(highlights[1].keys), ["article", "article_title", "section", "percent", "start", "end", "text", "note", "found", "created"])
        XCTAssertEqual(highlights[1]["note"] as? String, "worth keeping")
        XCTAssertEqual(highlights[0]["found"] as? Bool, true)
        XCTAssertEqual(try TestEnvironment.run(["notes", "2026-autumn", "--format", "yaml"], environment: environment).status, 2)
    }
}
