import Foundation
import NewsstandTestSupport
import XCTest

/// What the first frame waits for. Inside tmux with a fixed theme nothing on the first frame depends on the terminal's
/// answers (only pictures do), so tmux is asked whether the questions may pass (`tmux show-options -Apv
/// allow-passthrough`, a tmux client that takes milliseconds) only once the shelf is on the screen. The test puts a
/// `tmux` of its own first on `PATH`: asked, it looks at the pane (through the real tmux) and notes whether the shelf was
/// already drawn. Drawn first, it sees the shelf at once; asked first, it never does, since the program waits for it.
final class StartupOrderEndToEndTests: EndToEndTestCase {
    /// `answerDelay`: seconds the fake tmux takes to answer once it has seen the shelf (the program waits a second at most).
    private func launchWithRecordingTmux(arguments: String, answerDelay: Double = 0) throws -> (TmuxSession, URL) {
        guard let realTmux = ["/usr/bin/tmux", "/usr/local/bin/tmux"].first(where: FileManager.default.isExecutableFile(atPath:)) else {
            throw TestRequirement.absent("tmux is not installed (`make test` installs it)")
        }
        let folder = home.appendingPathComponent("fake-tmux")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let record = home.appendingPathComponent("tmux-asked.txt")
        let socketFile = home.appendingPathComponent("socket-name")
        // Polls the pane for up to 5 s; the program gives an answer-less tmux 1 s before it kills it.
        let script = """
            #!/bin/sh
            echo "asked: $*" >> '\(record.path)'
            socket=$(cat '\(socketFile.path)')
            i=0
            while [ $i -lt 50 ]; do
              if '\(realTmux)' -L "$socket" capture-pane -p -t e2e 2>/dev/null | grep -q 'TAP TO DOWNLOAD'; then
                echo "the shelf was on the screen" >> '\(record.path)'
                sleep \(answerDelay)
                echo "answered" >> '\(record.path)'
                echo off
                exit 0
              fi
              sleep 0.1
              i=$((i + 1))
            done
            echo "no shelf on the screen" >> '\(record.path)'
            echo off

            """
        let fake = folder.appendingPathComponent("tmux")
        try script.write(to: fake, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fake.path)
        var environment = TestEnvironment.environment(home: home, sample: true)
        environment["TMUX"] = "/tmp/newsstand-test-fake-tmux,1,0"
        environment["TMUX_PANE"] = "%0"
        environment["PATH"] = folder.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        // The pane runs the program directly (no shell in between): it is the program's own order that is seen.
        let session = try TmuxSession(command: try TestEnvironment.binary().path + " " + arguments, environment: environment)
        try session.socket.write(to: socketFile, atomically: true, encoding: .utf8)
        return (session, record)
    }

    private func waitForRecord(_ record: URL, containing text: String, timeout: TimeInterval = 15) -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var contents = ""
        while Date() < deadline {
            contents = (try? String(contentsOf: record, encoding: .utf8)) ?? ""
            if contents.contains(text) { return contents }
            usleep(50_000)
        }
        return contents
    }

    func testInsideTmuxWithAFixedThemeTmuxIsAskedOnlyOnceTheShelfIsDrawn() throws {
        let (session, record) = try launchWithRecordingTmux(arguments: "--theme dark")
        try session.waitFor(text: "TAP TO DOWNLOAD")
        let noted = waitForRecord(record, containing: "the shelf was on the screen")
        XCTAssertTrue(noted.contains("asked: show-options -Apv allow-passthrough"), "tmux is still asked, after the first frame: \(noted)")
        XCTAssertTrue(noted.contains("the shelf was on the screen"), "tmux was asked before the shelf was drawn: \(noted)")
        XCTAssertFalse(noted.contains("no shelf"), noted)
        // The program goes on answering keys after asking.
        try session.send("j")
        try session.waitFor(text: "2/")
    }

    /// The library is reconciled with the disk and interrupted downloads resumed once the first frame is flushed: started
    /// with the library's first read, that work held the library's lock against it. The start-up trace notes the order.
    func testInterruptedDownloadsAreResumedAfterTheFirstFrame() throws {
        let trace = home.appendingPathComponent("startup-trace.txt")
        var environment = TestEnvironment.environment(home: home, sample: true)
        environment["NEWSSTAND_STARTUP_TRACE"] = trace.path
        let session = try TmuxSession(command: try TestEnvironment.binary().path, environment: environment)
        try session.waitFor(text: "TAP TO DOWNLOAD")
        let steps = waitForRecord(trace, containing: "interrupted downloads resumed").split(separator: "\n")
            .map { $0.split(separator: " ", maxSplits: 1).last.map(String.init) ?? "" }
        let frame = try XCTUnwrap(steps.firstIndex(of: "first frame flushed"), "\(steps)")
        let resumed = try XCTUnwrap(steps.firstIndex(of: "interrupted downloads resumed"), "\(steps)")
        XCTAssertLessThan(frame, resumed, "\(steps)")
        XCTAssertLessThan(try XCTUnwrap(steps.firstIndex(of: "main")), frame)
    }

    /// tmux's answer is awaited off the main thread: a key pressed while tmux takes its time is answered at once.
    func testKeysAreAnsweredWhileTmuxIsAskedAfterTheFirstFrame() throws {
        let (session, record) = try launchWithRecordingTmux(arguments: "--theme dark", answerDelay: 0.9)
        try session.waitFor(text: "TAP TO DOWNLOAD")
        XCTAssertTrue(waitForRecord(record, containing: "the shelf was on the screen").contains("the shelf was on the screen"))
        try session.send("j")
        try session.waitFor(text: "2/")
        let noted = (try? String(contentsOf: record, encoding: .utf8)) ?? ""
        XCTAssertFalse(noted.contains("answered"), "the key was answered only after tmux: \(noted)")
        XCTAssertTrue(waitForRecord(record, containing: "answered").contains("answered"))
    }

    func testInsideTmuxWithTheThemeFollowingTheBackgroundTmuxIsAskedBeforeTheFirstFrame() throws {
        // The first frame's colours depend on the answers here: tmux is asked first, and the shelf waits for it.
        let (session, record) = try launchWithRecordingTmux(arguments: "--theme auto")
        let noted = waitForRecord(record, containing: "asked:")
        XCTAssertTrue(noted.contains("asked: show-options -Apv allow-passthrough"), noted)
        try session.waitFor(text: "TAP TO DOWNLOAD")
        XCTAssertFalse(noted.contains("the shelf was on the screen"), noted)
    }
}
