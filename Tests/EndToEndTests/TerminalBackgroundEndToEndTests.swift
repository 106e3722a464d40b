import Foundation
import XCTest

/// `theme auto` (the default) follows the terminal's answer to OSC 11: the test plays the terminal on a
/// pseudo-terminal, answers the start-up questions, and looks at the colours the shelf is drawn in.
final class TerminalBackgroundEndToEndTests: EndToEndTestCase {
    static let question = Array("\u{1B}]11;?\u{1B}\\".utf8)
    static let deviceAttributes = Array("\u{1B}[c".utf8)
    /// The header as paper (`color88`) and dark (`color236`) draw it, as SGR from ncurses with xterm-256color.
    static let paperPage = Array("\u{1B}[48;5;88m NEWSSTAND ".utf8), darkHeader = Array("\u{1B}[48;5;236m NEWSSTAND ".utf8)

    /// Starts the shelf, answers its questions with `answer` (nil: answers nothing) after `delay` seconds and
    /// returns what it drew.
    private func shelf(answering answer: String?, after delay: TimeInterval = 0, environment extra: [String: String] = [:]) throws -> PseudoTerminal {
        var environment = TestEnvironment.environment(home: home, sample: true)
        environment["COLORTERM"] = nil
        environment["TMUX"] = nil
        environment["COLORFGBG"] = nil
        environment.merge(extra) { $1 }
        let terminal = try PseudoTerminal([], environment: environment)
        XCTAssertTrue(terminal.read(until: Self.deviceAttributes, timeout: 20), "the shelf asks its questions")
        XCTAssertTrue(terminal.contains(Self.question), "the background colour among them")
        let started = Date()
        if delay > 0 { terminal.read(for: delay) }
        if let answer { terminal.write(Array(answer.utf8)) }
        XCTAssertTrue(terminal.read(until: Array("Small Engines".utf8), timeout: 10), "the shelf is drawn")
        terminal.read(for: 0.3)
        if answer == nil || delay > 0 { XCTAssertLessThan(Date().timeIntervalSince(started), 3, "no answer costs only the start-up window") }
        return terminal
    }

    func testALightTerminalGetsPaperAndADarkOneDark() throws {
        let light = try shelf(answering: "\u{1B}]11;rgb:ffff/ffff/ffff\u{1B}\\\u{1B}[?64;1;2;6;22c")
        XCTAssertTrue(light.contains(Self.paperPage), "a white background gets paper")
        XCTAssertFalse(light.contains(Self.darkHeader))
        light.stop()

        let dark = try shelf(answering: "\u{1B}]11;rgb:0000/0000/0000\u{7}\u{1B}[?64;1;2;6;22c")
        XCTAssertTrue(dark.contains(Self.darkHeader), "a black background gets dark")
        XCTAssertFalse(dark.contains(Self.paperPage))
        dark.stop()
    }

    /// With `theme auto` the questions go out before the library is opened (their round trip runs meanwhile): a shelf
    /// that then stops with an error has still read the answers and left the terminal's input as it found it.
    func testQuestionsAskedEarlyLeaveTheTerminalAsItWasWhenTheShelfStops() throws {
        let config = home.appendingPathComponent(".config/newsstand", isDirectory: true)
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        // A key binding that cannot apply stops the shelf once the library is open, before the terminal is set up.
        try "bind Z no-such-command\n".write(to: config.appendingPathComponent("config"), atomically: true, encoding: .utf8)
        var environment = TestEnvironment.environment(home: home, sample: true)
        environment["TMUX"] = nil
        let terminal = try PseudoTerminal([], environment: environment)
        XCTAssertTrue(terminal.read(until: Self.deviceAttributes, timeout: 20), "the questions go out before the library opens")
        XCTAssertEqual(terminal.localModes & tcflag_t(ECHO | ICANON), 0, "no echo while the answers are awaited")
        terminal.write(Array("\u{1B}]11;rgb:0000/0000/0000\u{1B}\\\u{1B}[?64;1;2;6;22c".utf8))
        let deadline = Date().addingTimeInterval(10)
        while terminal.process.isRunning && Date() < deadline { terminal.read(for: 0.05) }
        XCTAssertFalse(terminal.process.isRunning)
        XCTAssertEqual(terminal.process.terminationStatus, 1)
        XCTAssertEqual(terminal.localModes & tcflag_t(ECHO | ICANON), tcflag_t(ECHO | ICANON), "echo and lines are back")
        XCTAssertFalse(terminal.contains(Array("rgb:0000".utf8)), "the answer was read, not echoed")
    }

    func testNoAnswerOrGarbageFallsBackToCOLORFGBGThenDark() throws {
        let silent = try shelf(answering: nil)
        XCTAssertTrue(silent.contains(Self.darkHeader), "no answer: dark")
        silent.stop()

        let garbage = try shelf(answering: "\u{1B}]11;rgb:zz/ff/ff\u{1B}\\\u{1B}]11;white\u{7}\u{1B}[?64;1;2;6;22c", environment: ["COLORFGBG": "0;15"])
        XCTAssertTrue(garbage.contains(Self.paperPage), "garbage is ignored; COLORFGBG says light")
        garbage.stop()

        // A light answer that comes after the start-up window (a quarter of a second) is too late: dark, on time.
        let slow = try shelf(answering: "\u{1B}]11;rgb:ffff/ffff/ffff\u{1B}\\\u{1B}[?64;1;2;6;22c", after: 0.6)
        XCTAssertTrue(slow.contains(Self.darkHeader), "a late answer is not waited for")
        XCTAssertFalse(slow.contains(Self.paperPage))
        slow.stop()
    }
}
