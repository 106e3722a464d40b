import Foundation
import XCTest

/// The config's `bind` and `unbind` lines in the real program: the shelf uses them and shows them, `newsstand keys`
/// prints them, and a line that cannot apply stops the shelf with a message naming it.
final class KeyBindingEndToEndTests: EndToEndTestCase {
    private func writeConfig(_ text: String) throws {
        let directory = home.appendingPathComponent(".config/newsstand", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try text.write(to: directory.appendingPathComponent("config"), atomically: true, encoding: .utf8)
    }

    func testAReboundKeyWorksAndShowsInHelpAndHints() throws {
        try writeConfig("bind Z toggle-shelf-view\nunbind v shelf\nbind K help shelf\n")
        let environment = TestEnvironment.environment(home: home, sample: true)
        let session = try TmuxSession(command: try TestEnvironment.binary().path, environment: environment)
        let shelf = try session.waitFor(text: "TAP TO DOWNLOAD")
        XCTAssertTrue(shelf.contains("Z view"), "the status line hints the rebound key:\n\(shelf)")
        // → moves along a row of the grid only: in the list it does nothing.
        try session.send("v", "l")
        try session.waitFor(text: "1/6")
        try session.send("Z", "l")
        try session.waitFor(text: "2/6")
        try session.send("K")
        // The line asserted on, not the heading above it: a capture can catch the help half drawn.
        let help = try session.waitFor(text: "Show the shelf as a grid")
        XCTAssertTrue(help.contains("Z "), help)
        XCTAssertTrue(help.range(of: #"Z +Show the shelf as a grid"#, options: .regularExpression) != nil, help)
        try session.send("C-c")
        session.waitForExit()
    }

    func testKeysPrintsTheTableInEffectAndABadLineStopsTheShelf() throws {
        let environment = TestEnvironment.environment(home: home)
        try writeConfig("bind Z toggle-shelf-view\n")
        let keys = try TestEnvironment.run(["keys"], environment: environment)
        XCTAssertEqual(keys.status, 0, keys.errors)
        XCTAssertTrue(keys.output.range(of: #"\n  v/Z +toggle-shelf-view +Show the shelf"#, options: .regularExpression) != nil, keys.output)

        try writeConfig("theme dark\nbind Z toggle-shelf-wiew\n")
        let bad = try TestEnvironment.run(["keys"], environment: environment)
        XCTAssertEqual(bad.status, 1)
        XCTAssertTrue(bad.errors.contains("config, line 2: bind Z toggle-shelf-wiew: unknown command 'toggle-shelf-wiew'"), bad.errors)
        XCTAssertTrue(bad.output.contains("toggle-shelf-view"), "the table without the lines follows")

        let session = try TmuxSession(command: "sh", environment: environment)
        try session.send("\(try TestEnvironment.binary().path); echo status=$?", "Enter")
        // The message wraps at the terminal's width: read the screen as one line.
        let stopped = try session.waitFor(text: "status=1").replacingOccurrences(of: "\n", with: "")
        XCTAssertTrue(stopped.contains("line 2: bind Z toggle-shelf-wiew: unknown command"), stopped)
    }
}
