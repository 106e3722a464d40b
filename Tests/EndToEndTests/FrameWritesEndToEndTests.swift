import Foundation
import NewsstandTestSupport
import XCTest

/// A frame reaches the terminal whole. ncurses 6.4 flushes at every cursor move until its screen has once been left
/// and resumed, so a full screen went out in dozens of writes (a line or less each), which a terminal can show half
/// drawn and ssh sends as as many packets. The program, traced by strace, is counted writing to the terminal.
final class FrameWritesEndToEndTests: EndToEndTestCase {
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
