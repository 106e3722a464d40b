import Foundation
import NewsstandTestSupport
import XCTest

/// A frame reaches the terminal whole.
///
/// - In few writes: ncurses 6.4 flushes at every cursor move until its screen has once been left and resumed, so a full
///   screen went out in dozens of writes (a line or less each), which a terminal can show half drawn and ssh sends as
///   as many packets. The program, traced by strace, is counted writing to the terminal.
/// - As one update where the terminal has synchronized output (mode 2026) and says so: each frame between
///   `CSI ? 2026 h` and `CSI ? 2026 l`. The test plays the terminal on a pseudo-terminal.
final class FrameOutputEndToEndTests: EndToEndTestCase {
    static let beginUpdate = Array("\u{1B}[?2026h".utf8), endUpdate = Array("\u{1B}[?2026l".utf8)

    func testATerminalWithSynchronizedOutputGetsEachFrameAsOneUpdate() throws {
        let terminal = try shelfOnAPseudoTerminal(answering: "\u{1B}]11;rgb:0000/0000/0000\u{1B}\\\u{1B}[?2026;2$y\u{1B}[?64;1;2;6;22c")
        let header = Array(" NEWSSTAND ".utf8)
        let firstBegin = try XCTUnwrap(Self.offsets(of: Self.beginUpdate, in: terminal.output).first, "the frame is begun as an update")
        let headerAt = try XCTUnwrap(Self.offsets(of: header, in: terminal.output).first)
        let firstEnd = try XCTUnwrap(Self.offsets(of: Self.endUpdate, in: terminal.output).first, "and ended")
        XCTAssertLessThan(firstBegin, headerAt)
        XCTAssertLessThan(headerAt, firstEnd, "the first frame is inside its update")
        let framesBefore = Self.offsets(of: Self.beginUpdate, in: terminal.output).count
        terminal.write(Array("?".utf8))
        XCTAssertTrue(terminal.read(until: Array("KEYS".utf8), timeout: 10), "the help screen is drawn")
        terminal.read(for: 0.3)
        let begins = Self.offsets(of: Self.beginUpdate, in: terminal.output), ends = Self.offsets(of: Self.endUpdate, in: terminal.output)
        XCTAssertGreaterThan(begins.count, framesBefore, "the help screen is an update too")
        XCTAssertEqual(begins.count, ends.count, "every update begun is ended")
        for (begin, end) in zip(begins, ends) { XCTAssertLessThan(begin, end, "updates do not overlap") }
        for (end, nextBegin) in zip(ends, begins.dropFirst()) { XCTAssertLessThan(end, nextBegin, "updates do not overlap") }
        terminal.stop()
    }

    func testATerminalThatDoesNotReportTheModeGetsNoUpdateMarks() throws {
        // The mode is unknown (0) to this terminal, as xterm answers.
        let terminal = try shelfOnAPseudoTerminal(answering: "\u{1B}]11;rgb:0000/0000/0000\u{1B}\\\u{1B}[?2026;0$y\u{1B}[?64;1;2;6;22c")
        XCTAssertFalse(terminal.contains(Self.beginUpdate), "no mode the terminal does not have is set")
        XCTAssertFalse(terminal.contains(Self.endUpdate))
        terminal.stop()
    }

    /// Starts the shelf on a pseudo-terminal (outside tmux), checks that it asks about mode 2026, answers its questions
    /// with `answer` and reads until the shelf is drawn.
    private func shelfOnAPseudoTerminal(answering answer: String) throws -> PseudoTerminal {
        var environment = TestEnvironment.environment(home: home, sample: true)
        environment["TMUX"] = nil
        environment["COLORTERM"] = nil
        let terminal = try PseudoTerminal(["--theme", "dark"], environment: environment)
        XCTAssertTrue(terminal.read(until: Array("\u{1B}[c".utf8), timeout: 20), "the shelf asks its questions")
        XCTAssertTrue(terminal.contains(Array("\u{1B}[?2026$p".utf8)), "whether the terminal has synchronized output among them")
        terminal.write(Array(answer.utf8))
        XCTAssertTrue(terminal.read(until: Array("Small Engines".utf8), timeout: 10), "the shelf is drawn")
        terminal.read(for: 0.3)
        return terminal
    }

    /// Where `needle` starts in `bytes`, every time.
    private static func offsets(of needle: [UInt8], in bytes: [UInt8]) -> [Int] {
        guard bytes.count >= needle.count else { return [] }
        return (0...(bytes.count - needle.count)).filter { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    func testAFullScreenIsWrittenToTheTerminalInAFewWrites() throws {
        guard let strace = ["/usr/bin/strace", "/bin/strace"].first(where: FileManager.default.isExecutableFile(atPath:)) else {
            throw TestRequirement.absent("strace is not installed (`make test` installs it)")
        }
        let environment = TestEnvironment.environment(home: home, sample: true)
        let trace = home.appendingPathComponent("writes.trace")
        let binary = try TestEnvironment.binary().path
        // Only the program's own writes to the terminal (fd 1) are traced; its threads too (`-f`): frames are drawn
        // on the main queue, which runs on a worker thread.
        let session = try TmuxSession(command: "\(strace) -f -e trace=write -e signal=none -o \(trace.path) \(binary) --theme dark",
                                      environment: environment)
        try session.waitFor(text: "TAP TO DOWNLOAD")
        let afterShelf = try Self.terminalWrites(trace)
        // The help screen: every line of the screen changes.
        try session.send("?")
        try session.waitFor(text: "KEYS")
        usleep(300_000) // strace writes its line once the call returns
        let afterHelp = try Self.terminalWrites(trace)
        let helpWrites = afterHelp.dropFirst(afterShelf.count)
        let helpBytes = helpWrites.reduce(0, +)
        XCTAssertGreaterThan(helpBytes, 2_000, "the help screen was drawn in full: \(helpWrites)")
        // Written whole, a frame goes out in pieces of ncurses' buffer (a screen and a bit), so some thousands of bytes
        // a write; flushed at every cursor move, it went out a line or less at a time (a hundred bytes or so).
        XCTAssertGreaterThan(helpBytes / helpWrites.count, 1_000, "a full screen of \(helpBytes) bytes took \(helpWrites.count) writes: \(helpWrites)")
        // From start to the shelf: the terminal's set-up (a few short writes) and one frame.
        XCTAssertLessThanOrEqual(afterShelf.count, 20, "start-up and the first frame took \(afterShelf.count) writes: \(afterShelf)")
        try session.send("q")
        try session.send("q")
        session.waitForExit()
    }

    /// The sizes asked for in the traced program's writes to fd 1, in order (a write another thread's call interrupted
    /// in the trace, `<unfinished ...>`, counts too).
    private static func terminalWrites(_ trace: URL) throws -> [Int] {
        let text = (try? String(contentsOf: trace, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line -> Int? in
            guard let match = line.firstMatch(of: /write\(1, .*, (\d+)(?:\) = | <unfinished)/) else { return nil }
            return Int(match.1)
        }
    }
}
