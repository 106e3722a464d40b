import Foundation
import NewsstandTestSupport
import NewsstandUI
import XCTest

/// A start draws the shelf the last run left for it (kept at quit) before it opens the library, as long as nothing
/// it depends on changed: the library's files, the terminal's size, the theme. The shelf drawn is the one the
/// library then gives; a change made meanwhile (a download from the command line) makes the start read the library.
final class LastShelfEndToEndTests: EndToEndTestCase {
    private var trace: URL { home.appendingPathComponent("startup-trace.txt") }
    private var cacheFolder: URL { home.appendingPathComponent(".cache/newsstand") }
    /// The names of the frames kept (`last-shelf-SETUP-ANSWERS`), of those kept for `answers` (its hex) when given.
    private func keptNames(answers: String = "") throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: cacheFolder.path).filter { $0.hasPrefix("last-shelf-") && $0.hasSuffix(answers) }
    }

    /// The one frame kept, or a failure when there are none or several.
    private var keptFile: URL {
        get throws {
            let names = try keptNames()
            XCTAssertEqual(names.count, 1, "\(names)")
            return cacheFolder.appendingPathComponent(try XCTUnwrap(names.first))
        }
    }

    /// The frame a kept file holds: `NSLS`, version, key, flag, answers: 22 bytes before it.
    private static func frame(inKept bytes: [UInt8]) throws -> CellBuffer {
        try XCTUnwrap(CellBufferArchive.decode(bytes.dropFirst(22)), "the kept frame")
    }

    /// Starts the shelf (covers are never drawn for a screen reader, so the first frame is the screen that stays), waits
    /// for it, quits, and returns the screen and the start's steps. With a fixed theme and covers as text the start
    /// asks the terminal nothing before its first frame.
    private func startAndQuit(_ arguments: String = "--theme dark --screen-reader --cover-mode ascii", width: Int = 100,
                              environment extra: [String: String] = [:],
                              beforeQuitting: (TmuxSession) throws -> Void = { _ in }) throws -> (screen: String, steps: [String]) {
        try? FileManager.default.removeItem(at: trace)
        var environment = TestEnvironment.environment(home: home, sample: true).merging(extra) { $1 }
        environment["NEWSSTAND_STARTUP_TRACE"] = trace.path
        let session = try TmuxSession(command: try TestEnvironment.binary().path + " " + arguments, width: width, environment: environment)
        let screen = try session.waitFor(text: "TAP TO DOWNLOAD")
        try beforeQuitting(session)
        try session.send("q")
        session.waitForExit()
        let steps = ((try? String(contentsOf: trace, encoding: .utf8)) ?? "").split(separator: "\n")
            .map { $0.split(separator: " ", maxSplits: 1).last.map(String.init) ?? "" }
        return (screen, steps)
    }

    /// The kept frame's text, row by row.
    private func keptLines() throws -> [String] {
        try Self.frame(inKept: [UInt8](Data(contentsOf: try keptFile))).lines()
    }

    private static func lines(_ screen: String) -> [String] {
        screen.split(separator: "\n", omittingEmptySubsequences: false).map { String($0) }
    }

    func testTheNextStartDrawsTheLastShelfFirstUntilTheLibraryChanges() throws {
        let first = try startAndQuit()
        XCTAssertFalse(first.steps.contains("last shelf flushed"), "nothing was kept before the first start: \(first.steps)")
        XCTAssertEqual(try keptLines(), Array(Self.lines(first.screen).prefix(32)), "the kept frame is the shelf the start showed")

        let second = try startAndQuit()
        let drawn = try XCTUnwrap(second.steps.firstIndex(of: "last shelf flushed"), "\(second.steps)")
        XCTAssertLessThan(drawn, try XCTUnwrap(second.steps.firstIndex(of: "library opened")), "drawn before the library is opened: \(second.steps)")
        XCTAssertLessThan(drawn, try XCTUnwrap(second.steps.firstIndex(of: "first frame flushed")))
        XCTAssertEqual(second.screen, first.screen)

        // The library changes while no shelf is open: the next start reads it, and shows the download.
        let download = try TestEnvironment.run(["download", "kettle-compass/2026-autumn"], environment: TestEnvironment.environment(home: home, sample: true))
        XCTAssertEqual(download.status, 0, download.errors)
        let third = try startAndQuit()
        XCTAssertFalse(third.steps.contains("last shelf flushed"), "\(third.steps)")
        XCTAssertTrue(third.screen.contains("TAP TO READ"), third.screen)
        XCTAssertEqual(try keptLines(), Array(Self.lines(third.screen).prefix(32)), "kept again, with the download")

        // Another size, another theme: the library is read. Each keeps a frame of its own, used in turn.
        let paper = "--theme paper --screen-reader --cover-mode ascii"
        XCTAssertFalse(try startAndQuit(width: 90).steps.contains("last shelf flushed"))
        XCTAssertFalse(try startAndQuit(paper, width: 90).steps.contains("last shelf flushed"))
        XCTAssertTrue(try startAndQuit(paper, width: 90).steps.contains("last shelf flushed"))
        XCTAssertTrue(try startAndQuit(width: 90).steps.contains("last shelf flushed"))
        XCTAssertTrue(try startAndQuit().steps.contains("last shelf flushed"))
        let kept = try keptNames()
        XCTAssertEqual(kept.count, 3, "\(kept)")
    }

    /// The environment of a start inside tmux, where `tmux` is the test's own: it answers "off" (the questions may not
    /// pass) after `delay` seconds, as a busy tmux might.
    private func insideTmux(answeringAfter delay: Double) throws -> [String: String] {
        let folder = home.appendingPathComponent("fake-tmux")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let fake = folder.appendingPathComponent("tmux")
        try "#!/bin/sh\nsleep \(delay)\necho off\n".write(to: fake, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fake.path)
        return ["TMUX": "/tmp/newsstand-test-fake-tmux,1,0", "PATH": folder.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")]
    }

    /// Inside tmux with the theme following the background the start asks tmux whether the questions may pass before
    /// its first frame (here tmux takes 0.3 s to say "off"): the shelf kept after the last start's answers is drawn
    /// without waiting for it, before the library's first frame, and it is that frame.
    func testAStartThatAsksFirstInsideTmuxDrawsTheShelfOfTheLastAnswersWithoutWaiting() throws {
        let environment = try insideTmux(answeringAfter: 0.3)
        let first = try startAndQuit("--theme auto --screen-reader", environment: environment)
        XCTAssertFalse(first.steps.contains("last shelf flushed"))
        let second = try startAndQuit("--theme auto --screen-reader", environment: environment)
        let drawn = try XCTUnwrap(second.steps.firstIndex(of: "last shelf flushed"), "\(second.steps)")
        XCTAssertLessThan(drawn, try XCTUnwrap(second.steps.firstIndex(of: "terminal asked")), "drawn before tmux answered: \(second.steps)")
        XCTAssertLessThan(drawn, try XCTUnwrap(second.steps.firstIndex(of: "library opened")), "\(second.steps)")
        XCTAssertEqual(second.screen, first.screen)
    }

    /// When the answers differ from the last start's (kept here: a newer frame for other answers, marked), the frame kept
    /// for the last answers is drawn first, and the interface's first frame, drawn for the answers this start got,
    /// replaces it: the screen ends as the library shows it, and that frame is kept for the next start.
    func testAShelfDrawnForOtherAnswersIsReplacedByTheInterfacesFirstFrame() throws {
        let environment = try insideTmux(answeringAfter: 0)
        let first = try startAndQuit("--theme auto --screen-reader", environment: environment)
        let kept = try keptFile
        let bytes = try [UInt8](Data(contentsOf: kept))
        var frame = try Self.frame(inKept: bytes)
        _ = frame.write("STALE SHELF", x: 0, y: frame.height - 1, style: TextStyle())
        // The same key (the same build, options, library…), answers 0x1234, written after the real one.
        let otherAnswers: [UInt8] = [0x34, 0x12, 0, 0, 0, 0, 0, 0]
        let stale = Array(bytes[0..<13]) + [0] + otherAnswers + (try XCTUnwrap(CellBufferArchive.encode(frame)))
        let name = kept.lastPathComponent.dropLast(16) + "0000000000001234"
        usleep(20_000)
        try Data(stale).write(to: cacheFolder.appendingPathComponent(String(name)))

        var replaced = ""
        let second = try startAndQuit("--theme auto --screen-reader", environment: environment) { session in
            replaced = try session.waitFor("the stale shelf replaced") { $0.contains("TAP TO DOWNLOAD") && !$0.contains("STALE SHELF") }
        }
        let drawn = try XCTUnwrap(second.steps.firstIndex(of: "last shelf flushed"), "the stale frame was drawn: \(second.steps)")
        XCTAssertLessThan(drawn, try XCTUnwrap(second.steps.firstIndex(of: "first frame flushed")), "\(second.steps)")
        XCTAssertEqual(replaced, first.screen, "the library's shelf, for the answers this start got")
        let keptAgain = try keptFrameText(answers: String(kept.lastPathComponent.suffix(16)))
        XCTAssertTrue(keptAgain.contains("TAP TO DOWNLOAD") && !keptAgain.contains("STALE SHELF"), "kept for the answers got:\n\(keptAgain)")
    }

    /// The text of the frame kept for these answers (its file name's last part).
    private func keptFrameText(answers: String) throws -> String {
        let file = cacheFolder.appendingPathComponent(try XCTUnwrap(try keptNames(answers: answers).first, "a frame kept for \(answers)"))
        return try Self.frame(inKept: [UInt8](Data(contentsOf: file))).lines().joined(separator: "\n")
    }

    /// Outside tmux a start that waits for the terminal's answers sends its questions before the library is opened:
    /// their answers are read there, and when they are the last run's the shelf is drawn at once.
    func testAStartThatAsksFirstOutsideTmuxDrawsItOnceTheEarlyAnswersAgree() throws {
        // The theme following the background, or covers that may be pictures: either way the terminal is asked first.
        // The mono theme draws covers as text itself, which is known only once it is read: its questions went out, and
        // its frame, kept as drawn before any answer, is drawn once they are in (and the keys still work: q quits).
        for arguments in ["--theme auto --screen-reader", "--theme dark --screen-reader", "--theme mono --screen-reader"] {
            XCTAssertFalse(try startAndQuit(arguments).steps.contains("last shelf flushed"), arguments)
            // Keys go to the shelf as always once it is drawn so: the next issue is selected.
            let second = try startAndQuit(arguments) { session in
                try session.send("j")
                try session.waitFor(text: "2/6")
            }
            let drawn = try XCTUnwrap(second.steps.firstIndex(of: "last shelf flushed"), "\(arguments): \(second.steps)")
            XCTAssertLessThan(drawn, try XCTUnwrap(second.steps.firstIndex(of: "library opened")), "\(arguments): \(second.steps)")
        }
    }

    /// The shelf drawn, the library then cannot be opened (its issues' folder is a file): the terminal is given back
    /// and the error said, as without a kept shelf.
    func testALibraryThatCannotBeOpenedAfterTheShelfWasDrawnGivesTheTerminalBackWithTheError() throws {
        _ = try startAndQuit()
        let issues = home.appendingPathComponent(".local/share/newsstand/issues")
        try FileManager.default.removeItem(at: issues)
        try Data("not a folder".utf8).write(to: issues)
        var environment = TestEnvironment.environment(home: home, sample: true)
        environment["NEWSSTAND_STARTUP_TRACE"] = trace.path
        try? FileManager.default.removeItem(at: trace)
        let errors = home.appendingPathComponent("errors.txt")
        let session = try TmuxSession(command: try TestEnvironment.binary().path + " --theme dark --screen-reader --cover-mode ascii 2>" + errors.path,
                                      environment: environment)
        session.waitForExit()
        let steps = try String(contentsOf: trace, encoding: .utf8)
        XCTAssertTrue(steps.contains("last shelf flushed"), steps)
        XCTAssertFalse(steps.contains("library opened"), steps)
        XCTAssertEqual(try String(contentsOf: errors, encoding: .utf8),
                       "newsstand: cannot make the folder \(issues.path): \(issues.path) is a file, not a folder\n")
        let screen = try session.screen()
        XCTAssertFalse(screen.contains("TAP TO DOWNLOAD"), "the shelf's screen was left: \(screen)")
    }

    func testAKeptFileThatIsNotAFrameIsReadPast() throws {
        _ = try startAndQuit()
        var bytes = try [UInt8](Data(contentsOf: try keptFile))
        // The first cell's one-byte symbol turned into ESC: the file is refused whole, and the start reads the library.
        // After the 22-byte header: the frame's 11-byte header (its style count last), 9 bytes a style, then the first
        // cell's style index (2 bytes), its symbol's length and the symbol.
        let styles = Int(bytes[31]) | Int(bytes[32]) << 8
        let symbol = 22 + 11 + 9 * styles + 3
        XCTAssertEqual(bytes[symbol - 1], 1)
        bytes[symbol] = 0x1B
        try Data(bytes).write(to: try keptFile)
        let next = try startAndQuit()
        XCTAssertFalse(next.steps.contains("last shelf flushed"), "\(next.steps)")
        XCTAssertFalse(next.screen.contains("\u{1B}"))
        XCTAssertTrue(next.steps.contains("first frame flushed"))
    }
}
