import Foundation
import XCTest

/// Screen-reader mode in a real terminal: tmux says where the cursor is.
final class ScreenReaderEndToEndTests: EndToEndTestCase {
    /// The screen's row (from 0) whose text contains `text`.
    private func row(of text: String, in screen: String) -> Int? {
        screen.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains(text) }
    }

    func testTheCursorStandsOnTheSelectedRowAndIsHiddenWithoutTheMode() throws {
        let environment = TestEnvironment.environment(home: home, sample: true)
        let binary = try TestEnvironment.binary().path
        let session = try TmuxSession(command: "\(binary) --screen-reader", environment: environment)
        let shelf = try session.waitFor(text: "TAP TO DOWNLOAD")
        XCTAssertNil(shelf.unicodeScalars.first { (0x2500...0x25FF).contains($0.value) }, "no bars or frames:\n\(shelf)")
        var cursor = try session.cursor()
        XCTAssertTrue(cursor.visible)
        XCTAssertEqual(cursor.y, row(of: "Maps & Margins", in: shelf), "on the first issue's row:\n\(shelf)")
        XCTAssertEqual(cursor.x, 0)
        try session.send("j")
        let moved = try session.waitFor(text: "2/6")
        cursor = try session.cursor()
        let second = try XCTUnwrap(moved.split(separator: "\n", omittingEmptySubsequences: false)[cursor.y...].first { !$0.isEmpty })
        XCTAssertGreaterThan(cursor.y, try XCTUnwrap(row(of: "Maps & Margins", in: moved)), "the cursor went down with the selection")
        XCTAssertFalse(second.contains("Maps & Margins"), "on the second issue's row now: \(second)")
        try session.send("?")
        try session.waitFor(text: "KEYS")
        XCTAssertEqual(try session.cursor().y, 1, "the help's first line")
        try session.send("C-c")
        session.waitForExit()

        let plain = try TmuxSession(command: binary, environment: environment)
        try plain.waitFor(text: "TAP TO DOWNLOAD")
        XCTAssertFalse(try plain.cursor().visible, "hidden without the mode")
        try plain.send("C-c")
        plain.waitForExit()
    }
}
