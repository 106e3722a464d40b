import Foundation
import NewsstandTestSupport
import XCTest

/// Under tmux, kitty pictures follow the terminal outside tmux. The test plays that terminal: a tmux client (its own
/// server, `allow-passthrough on`) runs on a pseudo-terminal, and the test answers tmux's questions and, through
/// tmux's passthrough, the program's, as kitty 0.35 or as Debian 12's kitty 0.26, which draws no Unicode
/// placeholders. Then it looks at the graphics commands that reach the outer terminal.
final class TmuxPicturesEndToEndTests: EndToEndTestCase {
    /// Starts the shelf in tmux in a terminal that calls itself `version`, answering every question until the shelf is
    /// drawn and, when `until` is given, until that reaches the terminal (or `timeout` passes). `arguments` follow the
    /// program's name.
    private func shelf(outerVersion version: String, arguments: String = "", until expected: [UInt8]?, timeout: TimeInterval) throws -> (PseudoTerminal, Bool) {
        guard let tmux = ["/usr/bin/tmux", "/usr/local/bin/tmux"].first(where: FileManager.default.isExecutableFile(atPath:)) else {
            throw TestRequirement.absent("tmux is not installed (`make test` installs it)")
        }
        let socket = home.appendingPathComponent("tmux.sock").path
        let config = home.appendingPathComponent("tmux.conf")
        try "set -g allow-passthrough on\nset -g status off\nset -g default-terminal tmux-256color\n".write(to: config, atomically: true, encoding: .utf8)
        var environment = TestEnvironment.environment(home: home, sample: true)
        for name in ["TMUX", "TMUX_PANE", "COLORTERM", "COLORFGBG", "KITTY_WINDOW_ID"] { environment[name] = nil }
        /// Runs a tmux command on the test's server and waits for it (posix_spawn and waitpid, as `TmuxSession` does:
        /// Foundation's Process can miss the exit of a tmux client that started the server).
        func tmuxCommand(_ arguments: [String]) throws {
            let argv = ([tmux, "-S", socket, "-f", config.path] + arguments).map { strdup($0) } + [nil]
            let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
            defer { (argv + envp).forEach { free($0) } }
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            for descriptor in [Int32(0), 1, 2] { posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY, 0) }
            var pid: pid_t = 0
            let status = posix_spawn(&pid, tmux, &actions, nil, argv, envp)
            guard status == 0 else { throw TestRequirement.broken("cannot run tmux: error \(status)") }
            var exitStatus: Int32 = 0
            while waitpid(pid, &exitStatus, 0) == -1 && errno == EINTR {}
        }
        // The server starts detached, its pane waiting for the signal `go`; the client attaches on the test's
        // pseudo-terminal, and the program starts once that terminal has answered tmux's own questions.
        try tmuxCommand(["new-session", "-d", "-x", "100", "-y", "30", "\(tmux) -S \(socket) wait-for go; exec \(try TestEnvironment.binary().path) \(arguments)"])
        addTeardownBlock { try? tmuxCommand(["kill-server"]) }
        let terminal = try PseudoTerminal(["-S", socket, "attach-session"], environment: environment, executable: URL(fileURLWithPath: tmux))
        var answerer = OuterTerminal(version: version)
        let deadline = Date().addingTimeInterval(timeout)
        var drawn = false, started = false
        let startAt = Date().addingTimeInterval(1)
        while Date() < deadline {
            terminal.read(for: 0.02)
            terminal.write(answerer.answers(to: terminal.output))
            if !started && Date() > startAt {
                started = true
                try tmuxCommand(["wait-for", "-S", "go"])
            }
            drawn = drawn || terminal.contains(Array("Small Engines".utf8))
            if drawn && (expected.map { terminal.contains($0) } ?? true) { return (terminal, true) }
        }
        XCTAssertTrue(drawn, "the shelf is drawn in tmux")
        return (terminal, false)
    }

    func testKittyWithPlaceholdersOutsideTmuxGetsPictures() throws {
        let (_, arrived) = try shelf(outerVersion: "kitty(0.35.2)", until: Array("\u{1B}_Ga=T,U=1,".utf8), timeout: 30)
        XCTAssertTrue(arrived, "covers sent as placeholder pictures through tmux")
    }

    /// With a fixed theme the first frame is drawn before tmux and the terminal are asked: the pictures come after it.
    func testKittyWithPlaceholdersOutsideTmuxGetsPicturesWithAFixedTheme() throws {
        let (_, arrived) = try shelf(outerVersion: "kitty(0.35.2)", arguments: "--theme dark", until: Array("\u{1B}_Ga=T,U=1,".utf8), timeout: 30)
        XCTAssertTrue(arrived, "covers sent as placeholder pictures through tmux, after the first frame")
    }

    func testDebiansKittyOutsideTmuxGetsTextArtAndNoGraphicsCommand() throws {
        let (terminal, _) = try shelf(outerVersion: "kitty(0.26.5)", until: nil, timeout: 30)
        terminal.read(for: 3) // the covers are made after the first frame
        XCTAssertTrue(terminal.contains(Array("\u{1B}_Gi=31,".utf8)), "the kitty query went through tmux")
        XCTAssertFalse(terminal.contains(Array("\u{1B}_Ga=".utf8)), "no picture sent, so no key kitty 0.26 does not know")
    }
}

/// The terminal outside tmux, as the test plays it: finds each question in what reached it and answers as kitty does.
private struct OuterTerminal {
    let version: String
    /// How far the output has been read for questions.
    private var offset = 0
    /// The beginnings of the questions answered.
    static let questions = ["\u{1B}[c", "\u{1B}[0c", "\u{1B}[>c", "\u{1B}[>0c", "\u{1B}[>q", "\u{1B}[>0q", "\u{1B}[16t", "\u{1B}]10;?",
                            "\u{1B}]11;?", "\u{1B}_G"].map { Array($0.utf8) }

    init(version: String) {
        self.version = version
    }

    /// The answers to the questions in `output` after those already answered.
    mutating func answers(to output: [UInt8]) -> [UInt8] {
        var reply: [UInt8] = []
        while let escape = output[offset...].firstIndex(of: 0x1B) {
            let rest = output[escape...]
            func starts(_ text: String) -> Bool { rest.starts(with: Array(text.utf8)) }
            // A question cut off at the end of what has arrived is answered when the rest comes.
            if Self.questions.contains(where: { $0.count > rest.count && $0.starts(with: rest) }) { break }
            var consumed = 1
            if starts("\u{1B}[c") || starts("\u{1B}[0c") {
                reply += Array("\u{1B}[?62;c".utf8)
            } else if starts("\u{1B}[>c") || starts("\u{1B}[>0c") {
                reply += Array("\u{1B}[>1;4000;35c".utf8)
            } else if starts("\u{1B}[>q") || starts("\u{1B}[>0q") {
                reply += Array("\u{1B}P>|\(version)\u{1B}\\".utf8)
            } else if starts("\u{1B}[16t") {
                reply += Array("\u{1B}[6;20;10t".utf8)
            } else if starts("\u{1B}]10;?") || starts("\u{1B}]11;?") {
                reply += Array("\u{1B}]1\(starts("\u{1B}]10") ? 0 : 1);rgb:\(starts("\u{1B}]10") ? "dddd/dddd/dddd" : "0000/0000/0000")\u{1B}\\".utf8)
            } else if starts("\u{1B}_G") {
                guard let end = rest.indices.first(where: { $0 + 1 < output.endIndex && output[$0] == 0x1B && output[$0 + 1] == UInt8(ascii: "\\") && $0 > escape })
                else { break }
                let command = String(decoding: output[escape..<end], as: UTF8.self)
                if command.contains("a=q") { reply += Array("\u{1B}_Gi=31;OK\u{1B}\\".utf8) }
                consumed = end + 2 - escape
            }
            offset = escape + consumed
        }
        return reply
    }
}
