import XCTest
@testable import NewsstandUI

/// The bottom line: a message beside the position; one too long for the room left is cut with "…", so that it never
/// reads as whole (a bookmark's message was cut after its opening parenthesis).
final class StatusLineTests: XCTestCase {
    private func line(_ message: String?, position: String = "article 2/3 · 39%", width: Int = 60) -> String {
        var buffer = CellBuffer(width: width, height: 1)
        StatusLine(hints: [], message: message.map { StatusMessage($0) }, position: position)
            .render(in: Rect(x: 0, y: 0, width: width, height: 1), theme: .fallback, into: &buffer)
        return buffer.lines(trimmingTrailingSpaces: false)[0]
    }

    func testAMessageThatFitsSitsBesideThePosition() {
        let shown = line("Bookmarked.")
        XCTAssertTrue(shown.hasPrefix(" Bookmarked."), shown)
        XCTAssertTrue(shown.hasSuffix(" article 2/3 · 39% "), shown)
        XCTAssertEqual(shown.count, 60)
    }

    func testAMessageTooLongForTheRoomEndsWithAnEllipsis() {
        let message = "Bookmarked “Reading the Years in a Street Tree: ninety-three, give…” (' lists the bookmarks)."
        let shown = line(message)
        XCTAssertEqual(shown.count, 60)
        XCTAssertTrue(shown.hasSuffix("… article 2/3 · 39% "), "cut before the position, which stays: \(shown)")
        let cut = shown.dropFirst().prefix { $0 != "…" }
        XCTAssertTrue(message.hasPrefix(String(cut)), "the message's start: \(shown)")
        XCTAssertFalse(cut.isEmpty)
    }

    func testWithoutAMessageTheHintsAndThePositionShow() {
        XCTAssertTrue(line(nil).hasSuffix(" article 2/3 · 39% "))
    }
}
