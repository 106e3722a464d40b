import Foundation
import NewsstandTestSupport
import XCTest

/// A detached tmux session on a private server, for driving the real program as a person would.
final class TmuxSession {
    let socket = "newsstand-test-\(UUID().uuidString.prefix(8))"
    let name = "e2e"

    /// Starts `command` in a terminal of the given size.
    init(command: String, width: Int = 100, height: Int = 32, environment: [String: String]) throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux") || Self.which("tmux") != nil else {
            throw TestRequirement.absent("tmux is not installed (make test installs it)")
        }
        let assignments = environment.map { "\($0.key)=\(Self.quote($0.value))" }.joined(separator: " ")
        try tmux(["new-session", "-d", "-s", name, "-x", "\(width)", "-y", "\(height)", "env -i \(assignments) \(command)"])
        _ = try? tmux(["set-option", "-t", name, "remain-on-exit", "on"])
    }

    deinit {
        _ = try? tmux(["kill-server"])
    }

    /// Types keys (tmux key names: Enter, Escape, C-c, Down, or literal text).
    func send(_ keys: String...) throws {
        try tmux(["send-keys", "-t", name] + keys)
    }

    /// The screen as text.
    func screen() throws -> String {
        try tmux(["capture-pane", "-p", "-t", name])
    }

    /// The screen as text with its styles, as tmux holds them: SGR sequences where the style changes.
    func styledScreen() throws -> String {
        try tmux(["capture-pane", "-e", "-p", "-t", name])
    }

    /// Waits until the screen satisfies `condition`, polling; fails with the last screen if it never does. The screen
    /// returned is settled: tmux can be caught halfway through a frame (its first lines new, the rest the last frame's),
    /// so once the condition holds the screen is read again until two reads agree, and that one is returned while it
    /// still satisfies the condition (a message that has gone meanwhile leaves the first match returned).
    @discardableResult
    func waitFor(_ description: String, timeout: TimeInterval = 15, file: StaticString = #filePath, line: UInt = #line,
                 _ condition: (String) -> Bool) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var last = ""
        while Date() < deadline {
            last = try screen()
            if condition(last) { return try settled(from: last, condition) }
            usleep(100_000)
        }
        XCTFail("timed out waiting for \(description); the screen was:\n\(last)", file: file, line: line)
        throw TestRequirement.broken("gave up after the failed wait for \(description)")
    }

    /// `first` read again every 30 ms until two reads agree (at most 10 reads), if the agreed screen satisfies `condition`.
    private func settled(from first: String, _ condition: (String) -> Bool) throws -> String {
        var previous = first
        for _ in 0..<10 {
            usleep(30_000)
            let next = try screen()
            if next == previous { return condition(next) ? next : first }
            previous = next
        }
        return first
    }

    @discardableResult
    func waitFor(text: String, timeout: TimeInterval = 15, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        try waitFor("“\(text)”", timeout: timeout, file: file, line: line) { $0.contains(text) }
    }

    /// Whether the program in the pane has exited.
    var hasExited: Bool {
        ((try? tmux(["display-message", "-p", "-t", name, "#{pane_dead}"])) ?? "1").trimmingCharacters(in: .whitespacesAndNewlines) == "1"
    }

    func waitForExit(timeout: TimeInterval = 10, file: StaticString = #filePath, line: UInt = #line) {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if hasExited { return }
            usleep(100_000)
        }
        XCTFail("the program did not exit", file: file, line: line)
    }

    func resize(width: Int, height: Int) throws {
        try tmux(["resize-window", "-t", name, "-x", "\(width)", "-y", "\(height)"])
    }

    /// The process id of the program the pane started.
    func panePID() throws -> pid_t {
        guard let pid = pid_t(try tmux(["display-message", "-p", "-t", name, "#{pane_pid}"]).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw TestRequirement.broken("tmux did not say the pane's process id")
        }
        return pid
    }

    /// The path of the pane's terminal (`/dev/pts/N`), to look at its settings from outside (`stty -F`).
    func paneTTY() throws -> String {
        try tmux(["display-message", "-p", "-t", name, "#{pane_tty}"]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Where the terminal's cursor is (tmux's `#{cursor_x}`, `#{cursor_y}`, from 0), and whether it is shown.
    func cursor() throws -> (x: Int, y: Int, visible: Bool) {
        let fields = try tmux(["display-message", "-p", "-t", name, "#{cursor_x} #{cursor_y} #{cursor_flag}"])
            .split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        guard fields.count == 3 else { throw TestRequirement.broken("tmux did not report the cursor") }
        return (fields[0], fields[1], fields[2] == 1)
    }

    func paneTitle() throws -> String {
        try tmux(["display-message", "-p", "-t", name, "#{pane_title}"]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Runs the tmux client with posix_spawn and waitpid. Not Foundation's Process: the tmux server
    /// that new-session forks inherits the descriptor Process watches, so Process never sees the client exit.
    @discardableResult
    private func tmux(_ arguments: [String]) throws -> String {
        let outputFile = FileManager.default.temporaryDirectory.appendingPathComponent("tmux-\(UUID().uuidString).out")
        defer { try? FileManager.default.removeItem(at: outputFile) }
        let executable = Self.which("tmux") ?? "/usr/bin/tmux"
        let argv = ([executable, "-L", socket, "-f", "/dev/null"] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputFile.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var pid: pid_t = 0
        let status = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        guard status == 0 else { throw TestRequirement.broken("cannot run tmux: error \(status)") }
        var exitStatus: Int32 = 0
        while waitpid(pid, &exitStatus, 0) == -1 && errno == EINTR {}
        return String(decoding: (try? Data(contentsOf: outputFile)) ?? Data(), as: UTF8.self)
    }

    private static func which(_ program: String) -> String? {
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let path = "\(directory)/\(program)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }

    private static func quote(_ value: String) -> String {
        "'" + value.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
