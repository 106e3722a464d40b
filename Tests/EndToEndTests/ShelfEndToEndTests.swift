import Foundation
import LocalHTTPServer
import XCTest

/// The main path, driven through tmux like a person: shelf → download with a live progress bar → contents → article → quit → relaunch.
final class ShelfEndToEndTests: EndToEndTestCase {
    var server: LocalHTTPServer!

    override func setUpWithError() throws {
        try super.setUpWithError()
        server = try startSampleServer()
    }

    func testDownloadAnIssueFromTheShelfReadItAndFindItAfterRelaunch() throws {
        let environment = TestEnvironment.environment(home: home)
        let subscribed = try TestEnvironment.run(["subscribe", server.url(for: "catalog.plist").absoluteString], environment: environment)
        XCTAssertEqual(subscribed.status, 0, subscribed.errors)
        XCTAssertTrue(subscribed.output.contains("Subscribed to Kettle & Compass"), subscribed.output)

        server.bytesPerSecond = 40_000 // the newest issue takes a few seconds: the progress bar must show
        let binary = try TestEnvironment.binary().path
        var session: TmuxSession? = try TmuxSession(command: binary, environment: environment)
        try session!.waitFor(text: "TAP TO DOWNLOAD")
        let first = try session!.screen()
        XCTAssertTrue(first.contains("Maps & Margins"), first)
        XCTAssertTrue(first.contains("22 September 2026"), first)

        try session!.send("Enter")
        let downloading = try session!.waitFor("a progress bar") { $0.range(of: #"━*─+ +\d{1,2}%"#, options: .regularExpression) != nil }
        XCTAssertTrue(downloading.contains("Maps & Margins"))
        // The interface keeps answering while the download runs.
        try session!.send("j")
        try session!.waitFor(text: "2/6")
        try session!.send("k")
        try session!.waitFor("the download to finish", timeout: 30) { $0.contains("TAP TO READ") && $0.contains("1/6") }

        try session!.send("Enter")
        try session!.waitFor(text: "Reading the Years in a Street Tree")
        try session!.send("j", "Enter")
        try session!.waitFor(text: "When the council felled the old plane tree")
        XCTAssertTrue(try session!.screen().contains("article 2/3"))

        try session!.send("q")     // article → contents
        try session!.waitFor(text: "The Typewriter Mender")
        try session!.send("Escape") // contents → shelf
        try session!.waitFor(text: "TAP TO READ")
        try session!.send("q")     // quit
        session!.waitForExit()
        session = nil

        let listed = try TestEnvironment.run(["list", "--json"], environment: environment)
        let rows = try JSONSerialization.jsonObject(with: Data(listed.output.utf8)) as? [[String: Any]] ?? []
        XCTAssertEqual(rows.first { $0["name"] as? String == "2026-autumn" }?["state"] as? String, "available")

        // Offline now: the issue is still there and marked as being read; continue reading lands in the same article.
        server.stop()
        let again = try TmuxSession(command: binary, environment: environment)
        let relaunched = try again.waitFor(text: "READING")
        XCTAssertTrue(relaunched.contains("TAP TO READ"), relaunched)
        try again.send("c")
        try again.waitFor(text: "When the council felled the old plane tree")
        try again.send("C-c")
        again.waitForExit()
    }

    func testHostileCatalogTextIsShownSafelyAndTheTerminalIsRestoredOnCtrlC() throws {
        let catalog = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><array>
            <dict><key>Name</key><string>evil</string><key>Title</key><string>Evil&#x1B;]2;pwned&#x07; Issue&#x1B;[2J</string>
            <key>Date</key><date>2026-01-01T00:00:00Z</date><key>Content</key><string>evil.epub</string>
            <key>Summary</key><string>Plain &#x9B;31mred</string></dict>
            </array></plist>
            """
        server.setResource("/hostile.plist", data: Data(catalog.utf8), contentType: "application/xml")
        let environment = TestEnvironment.environment(home: home)
        XCTAssertEqual(try TestEnvironment.run(["subscribe", server.url(for: "hostile.plist").absoluteString], environment: environment).status, 0)

        // Run inside a shell so we can see the terminal after the program is gone.
        let session = try TmuxSession(command: "sh", environment: environment)
        try session.send("stty -a | grep -o ' -\\?icanon' ; \(try TestEnvironment.binary().path); echo exited-$?", "Enter")
        let screen = try session.waitFor(text: "Evil Issue")
        XCTAssertFalse(screen.contains("pwned"))
        XCTAssertNotEqual(try session.paneTitle(), "pwned", "an OSC sequence from a catalog reached the terminal")
        try session.send("C-c")
        try session.waitFor(text: "exited-0") // type the next command only once the shell has the terminal back
        try session.send("stty -a | grep -o ' -\\?icanon'; echo restored-\"$((40+2))\"", "Enter")
        let after = try session.waitFor(text: "restored-42")
        XCTAssertEqual(Self.lastTerminalMode(after), "icanon", "the terminal is back in canonical mode after Ctrl-C")
    }

    func testACrashSignalRestoresTheTerminal() throws {
        let environment = TestEnvironment.environment(home: home, sample: true)
        let session = try TmuxSession(command: "sh", environment: environment)
        try session.send("\(try TestEnvironment.binary().path); echo status=$?", "Enter")
        try session.waitFor(text: "TAP TO DOWNLOAD")
        let shell = try session.panePID()
        let child = try XCTUnwrap(Self.children(of: shell).first, "newsstand should be running under the shell")
        kill(child, SIGSEGV)
        try session.waitFor(text: "status=139") // 128 + SIGSEGV: the signal still ends the process
        try session.send("stty -a | grep -o ' -\\?icanon'; echo restored-\"$((40+2))\"", "Enter")
        let after = try session.waitFor(text: "restored-42")
        XCTAssertEqual(Self.lastTerminalMode(after), "icanon", "the terminal is back in canonical mode after the crash")
    }

    /// The last `icanon` / `-icanon` that `stty -a | grep -o` printed on the screen (a prompt may share its line).
    static func lastTerminalMode(_ screen: String) -> String? {
        screen.components(separatedBy: "\n").last { $0.hasSuffix("icanon") }?.split(separator: " ").last.map(String.init)
    }

    static func children(of parent: pid_t) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { pid_t($0) }.filter { pid in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return false }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 2 && pid_t(fields[1]) == parent
        }
    }

    /// The first frame reaches the terminal in the theme's styles: runs of plain text, drawn a run at a time, in theirs,
    /// and the cells drawn one by one after them (the selection bar, after a line of bold) in their own.
    func testTheFirstFrameIsDrawnInTheThemesStyles() throws {
        let environment = TestEnvironment.environment(home: home, sample: true)
        let session = try TmuxSession(command: try TestEnvironment.binary().path + " --theme dark --cover-mode ascii", width: 100, height: 32,
                                      environment: environment)
        try session.waitFor(text: "TAP TO DOWNLOAD")
        let styled = try session.styledScreen()
        let escape = "\u{1b}["
        // dark.theme: header bright-white on 236, bold; the active tab 16 on 215, bold; the selected row 253 on 237 with
        // the bar in the active tab's colour, 215.
        XCTAssertTrue(styled.contains("\(escape)97m\(escape)48;5;236m NEWSSTAND "), styled)
        XCTAssertTrue(styled.contains("\(escape)38;5;16m\(escape)48;5;215m Kettle & Compass"), styled)
        let bar = try XCTUnwrap(styled.components(separatedBy: "\n").first { $0.contains("▌") && $0.contains("Maps & Margins") }, styled)
        let beforeBar = bar[..<bar.range(of: "▌")!.lowerBound]
        let lastReset = beforeBar.range(of: "\(escape)0m", options: .backwards)?.upperBound ?? beforeBar.startIndex
        XCTAssertFalse(beforeBar[lastReset...].contains("\(escape)1m"), "the bar is drawn bold: \(bar)")
        XCTAssertTrue(beforeBar[lastReset...].contains("38;5;215m"), "the bar is not in the active tab's colour: \(bar)")
        try session.send("q")
        session.waitForExit()
    }

    func testResizingRedrawsForTheNewSize() throws {
        let environment = TestEnvironment.environment(home: home, sample: true)
        let session = try TmuxSession(command: try TestEnvironment.binary().path, width: 100, height: 32, environment: environment)
        try session.waitFor(text: "TAP TO DOWNLOAD")
        try session.resize(width: 40, height: 12)
        let small = try session.waitFor("the compact layout") { screen in
            let lines = screen.components(separatedBy: "\n")
            return lines.count >= 12 && lines.prefix(12).allSatisfy { $0.count <= 40 } && screen.contains("1/6")
        }
        XCTAssertTrue(small.contains("Maps & Margins"), small)
        try session.send("q")
        session.waitForExit()
    }

    /// Quitting, by a key or by the terminal going away (SIGHUP), closes the library: SQLite folds its write-ahead log
    /// into the database and empties it, so the next start has none to read back.
    func testQuittingLeavesNoWriteAheadLogBehind() throws {
        let environment = TestEnvironment.environment(home: home, sample: true)
        let log = home.appendingPathComponent(".local/share/newsstand/library.sqlite-wal")
        let binary = try TestEnvironment.binary().path
        for ending in ["q", "SIGHUP"] {
            let session = try TmuxSession(command: binary, environment: environment)
            try session.waitFor(text: "TAP TO DOWNLOAD")
            try session.send("o") // the shelf's order is remembered: a write while the program runs
            try session.waitFor(text: ending == "q" ? "Oldest first" : "By title")
            let deadline = Date().addingTimeInterval(5)
            while Self.fileSize(log) == 0 && Date() < deadline { usleep(50_000) }
            XCTAssertGreaterThan(Self.fileSize(log), 0, "\(ending): the log holds what was written while running")
            if ending == "q" {
                try session.send("q")
            } else {
                // The pane runs the program itself, or a shell that runs it.
                let pane = try session.panePID()
                let program = Self.children(of: pane).first ?? pane
                XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(program)/exe"), binary)
                kill(program, SIGHUP)
            }
            session.waitForExit()
            // The log's file stays, empty, for the next start (`LibraryStore.writeAheadLogLimit`).
            XCTAssertEqual(Self.fileSize(log), 0, "\(ending): the log is left behind")
        }
    }

    func testTheShelfsOrderAndFilterAreRememberedAfterRelaunch() throws {
        let environment = TestEnvironment.environment(home: home, sample: true)
        let binary = try TestEnvironment.binary().path
        var session: TmuxSession? = try TmuxSession(command: binary, environment: environment)
        try session!.waitFor(text: "TAP TO DOWNLOAD")
        try session!.send("o")
        try session!.waitFor(text: "Oldest first · every issue")
        try session!.send("q")
        session!.waitForExit()
        session = nil

        session = try TmuxSession(command: binary, environment: environment)
        let relaunched = try session!.waitFor(text: "TAP TO DOWNLOAD")
        XCTAssertTrue(relaunched.contains("oldest first"), "the status line names the remembered order:\n\(relaunched)")
        // Oldest first: the first row is the oldest issue of the sample, not the newest.
        XCTAssertFalse(relaunched.split(separator: "\n").prefix(4).contains { $0.contains("Maps & Margins") }, relaunched)
        try session!.send("C-c")
        session!.waitForExit()
    }

}
