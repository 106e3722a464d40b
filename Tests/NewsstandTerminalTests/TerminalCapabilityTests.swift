import XCTest
import NewsstandImaging
@testable import NewsstandTerminal

/// What the terminal front end concludes from the environment.
final class TerminalCapabilityTests: XCTestCase {
    func testColourModeFromTheEnvironment() {
        XCTAssertEqual(ColorModeDetector.detect(["NO_COLOR": "1", "COLORTERM": "truecolor"]), .none, "NO_COLOR wins")
        XCTAssertEqual(ColorModeDetector.detect(["COLORTERM": "truecolor", "TERM": "xterm"]), .trueColor)
        XCTAssertEqual(ColorModeDetector.detect(["COLORTERM": "24bit"]), .trueColor)
        XCTAssertEqual(ColorModeDetector.detect(["TERM": "screen-256color"]), .indexed)
        XCTAssertEqual(ColorModeDetector.detect(["TERM": "vt100"]), .basic)
        XCTAssertEqual(ColorModeDetector.detect(["NO_COLOR": ""]), .basic, "an empty NO_COLOR does not count")
    }

    func testCoverModeFollowsColoursAndLocale() {
        let utf8 = ["LANG": "en_GB.UTF-8"]
        XCTAssertEqual(CoverModeChooser.choose(colorMode: .trueColor, environment: utf8), .blocks)
        XCTAssertEqual(CoverModeChooser.choose(colorMode: .indexed, environment: utf8), .blocks)
        XCTAssertEqual(CoverModeChooser.choose(colorMode: .basic, environment: utf8), .asciiColor)
        XCTAssertEqual(CoverModeChooser.choose(colorMode: .none, environment: utf8), .ascii)
        XCTAssertEqual(CoverModeChooser.choose(colorMode: .trueColor, environment: ["LANG": "C"]), .asciiColor, "no half blocks without UTF-8")
        XCTAssertEqual(CoverModeChooser.choose(colorMode: .trueColor, environment: ["LANG": "C", "LC_ALL": "C.UTF-8"]), .blocks, "LC_ALL wins over LANG")
    }

    func testXtermThatSaysSoGets256Colours() {
        let xterm = TerminalAnswers.parse(Array(TerminalAnswersTests.xterm.utf8))
        let other = TerminalAnswers.parse(Array("\u{1B}[?62;c".utf8))
        func better(_ answers: TerminalAnswers, term: String = "xterm", mode: CursesBackend.ColorMode = .basic, has: Bool = true) -> String? {
            ColorModeDetector.betterTerminalType(answers: answers, environment: ["TERM": term], colorMode: mode, terminfoHas: { _ in has })
        }
        XCTAssertEqual(better(xterm), "xterm-256color", "xterm sets TERM=xterm for its programs; its answer says what it is")
        XCTAssertNil(better(other), "an unnamed terminal calling itself xterm keeps 8 colours")
        XCTAssertNil(better(xterm, term: "xterm-16color"), "only plain xterm is changed")
        XCTAssertNil(better(xterm, mode: .trueColor), "nothing to gain")
        XCTAssertNil(better(xterm, has: false), "not without the terminfo entry")
        XCTAssertTrue(ColorModeDetector.hasTerminfo("xterm"), "ncurses' database is found")
        XCTAssertFalse(ColorModeDetector.hasTerminfo("no-such-terminal"))
    }
}
