import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Launches a program in a real terminal and times it to its first complete frame.
///
/// The terminal is a detached tmux session of a fixed size on a private tmux server (its own socket,
/// no configuration file, status line off, so the pane is exactly `width × height`). A launch is
/// `tmux new-session -d -x W -y H -s NAME PROGRAM ARGUMENTS…`; then `capture-pane -p` is polled in a tight
/// loop, through one control-mode client kept for the whole case (`TmuxControlClient`: no process is spawned
/// per capture), until the caller's test says the frame is complete. The time runs from `CLOCK_MONOTONIC` just
/// before the `new-session` client is spawned to the end of the first capture's reply that shows the complete
/// frame, so it includes tmux's own work and is an upper bound by at most one poll period (reported as
/// `pollPeriod`). At that moment the program's `VmHWM` is read from
/// `/proc/PID/status`, where PID is the pane's (`#{pane_pid}`), checked through `/proc/PID/exe` to be
/// the program itself and not a shell. Then the session is killed and the launch waits for the
/// program to be gone, so launches never overlap.
final class TmuxLaunchHarness {
    /// A program to launch: at least one argument, so tmux runs it directly (`execvp`); with none, tmux
    /// would hand it to `sh -c` and the pane's process would be the shell.
    struct Program {
        let executable: URL
        let arguments: [String]
        /// Its whole environment, besides the `PATH` and `LANG` the harness sets and the `TERM`, `TMUX`
        /// and `TMUX_PANE` tmux adds.
        let environment: [String: String]
        let workingDirectory: URL
    }

    /// One launch.
    struct Launch {
        /// Spawn of `tmux new-session` → return of the first capture showing the complete frame.
        let seconds: Double
        /// The program's `VmHWM` when the complete frame was seen.
        let peakResidentBytes: Int
        let pid: pid_t
        /// Captures taken, the last one showing the complete frame.
        let polls: Int
        /// Mean time between the ends of consecutive captures: the resolution of `seconds`.
        let pollPeriod: Double
        let screen: String
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let width: Int
    let height: Int
    /// Pause between captures; each capture (a round trip to the tmux server) takes a fraction of a millisecond more.
    var pollInterval: useconds_t = 500
    /// How long a program has to show its frame (newsboat takes about 10 s on 50,000 cached items here).
    var timeout: Double = 60

    private let tmux: String
    private let socket: String
    private let baseEnvironment: [String: String]
    /// Polls the screens and asks tmux what it knows of a launch, without a process per question.
    private let control: TmuxControlClient
    private var launches = 0

    /// Starts a private tmux server whose socket is in `folder`, kept alive by an idle session, so
    /// no launch pays for starting the server.
    init(folder: URL, width: Int, height: Int) throws {
        guard let tmux = ChildProcess.which("tmux") else { throw Failure(description: "tmux is not installed (make setup installs it)") }
        self.tmux = tmux
        self.width = width
        self.height = height
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        socket = folder.appendingPathComponent("tmux.sock").path
        baseEnvironment = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": folder.path]

        // The server daemonizes from this client: give it no pipe of ours to hold open.
        let status = try Self.spawnDetached(tmux, Self.clientArguments(socket, ["new-session", "-d", "-s", "idle", "-x", String(width), "-y", String(height),
                                                                   "sleep", "2147483647"]), environment: baseEnvironment)
        guard status == 0 else { throw Failure(description: "tmux could not start its server (status \(status))") }
        control = try TmuxControlClient(tmux: tmux, clientArguments: Self.clientArguments(socket, []), session: "idle", environment: baseEnvironment)
        var options: [[String]] = [["set-option", "-g", "status", "off"], ["set-option", "-g", "remain-on-exit", "off"]]
        // The terminal newer tmux announces by default; older ones default to "screen".
        if ["/usr/share/terminfo/t/tmux-256color", "/lib/terminfo/t/tmux-256color"].contains(where: { FileManager.default.fileExists(atPath: $0) }) {
            options.append(["set-option", "-g", "default-terminal", "tmux-256color"])
        }
        for option in options { _ = try client(option) }
    }

    /// Kills the private tmux server and everything still running in it.
    func stop() {
        control.close()
        _ = try? client(["kill-server"])
    }

    /// What the terminal of a launched program is: `TERM` inside the panes.
    var terminalName: String {
        ((try? client(["show-options", "-gv", "default-terminal"]))?.output ?? "?").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Launches `program`, polls the screen until `isComplete` accepts it, reads the program's peak
    /// memory, then kills it. Throws, with the last screen, when the program exits or the time runs out first.
    func launch(_ program: Program, until isComplete: (String) -> Bool) throws -> Launch {
        guard !program.arguments.isEmpty else { throw Failure(description: "\(program.executable.path) needs an argument to run without a shell") }
        launches += 1
        let name = "launch-\(launches)"
        var arguments = ["new-session", "-d", "-s", name, "-x", String(width), "-y", String(height), "-c", program.workingDirectory.path]
        for (key, value) in program.environment.sorted(by: { $0.key < $1.key }) { arguments += ["-e", "\(key)=\(value)"] }
        arguments += [program.executable.path] + program.arguments
        let environment = baseEnvironment.merging(program.environment) { $1 }

        let started = try client(arguments, environment: environment)
        let spawnedAt = started.spawnedAt
        guard started.status == 0 else { throw Failure(description: "tmux new-session failed (status \(started.status)) for \(program.executable.path)") }
        let paneID = try control.run("display-message -p -t \(name) '#{pane_pid}'").lines.joined()
        guard let pid = pid_t(paneID) else {
            _ = try? control.run("kill-session -t \(name)")
            throw Failure(description: "tmux gave no pane pid for \(name): '\(paneID)'")
        }
        // However the launch ends: kill the session (SIGHUP to the program) and wait until the program is gone.
        defer {
            _ = try? control.run("kill-session -t \(name)")
            waitUntilGone(pid)
        }

        var polls = 0
        var firstCaptureEnd: UInt64?
        var screen = ""
        while true {
            let capture = try control.run("capture-pane -p -t \(name)")
            polls += 1
            if firstCaptureEnd == nil { firstCaptureEnd = capture.endedAt }
            guard capture.succeeded else {
                throw Failure(description: "\(program.executable.lastPathComponent) exited before its frame was complete; the screen was:\n\(screen)")
            }
            screen = capture.lines.map { $0 + "\n" }.joined()
            if isComplete(screen) {
                // Read first, check after: the figure is of this moment.
                let peak = ProcessMemory.peakResidentBytes(of: pid)
                try checkIdentity(pid: pid, program: program)
                guard let peak else { throw Failure(description: "no VmHWM in /proc/\(pid)/status") }
                let seconds = MonotonicClock.seconds(from: spawnedAt, to: capture.endedAt)
                let period = polls > 1 ? MonotonicClock.seconds(from: firstCaptureEnd!, to: capture.endedAt) / Double(polls - 1) : 0
                return Launch(seconds: seconds, peakResidentBytes: peak, pid: pid, polls: polls, pollPeriod: period, screen: screen)
            }
            if MonotonicClock.seconds(from: spawnedAt, to: capture.endedAt) > timeout {
                throw Failure(description: "\(program.executable.lastPathComponent) showed no complete frame within \(Int(timeout)) s; the screen was:\n\(screen)")
            }
            usleep(pollInterval)
        }
    }

    /// The pane's process must be the program (tmux ran it directly) and have the environment it was given.
    private func checkIdentity(pid: pid_t, program: Program) throws {
        let expected = program.executable.resolvingSymlinksInPath().path
        let running = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")) ?? "?"
        guard running == expected else {
            throw Failure(description: "pane pid \(pid) runs \(running), not \(expected): its memory would not be the program's")
        }
        let environ = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/environ"))).map { String(decoding: $0, as: UTF8.self) } ?? ""
        let variables = Set(environ.split(separator: "\0").map(String.init))
        for (key, value) in program.environment where !variables.contains("\(key)=\(value)") {
            throw Failure(description: "pane pid \(pid) does not have \(key)=\(value) in its environment")
        }
    }

    /// Waits (up to 5 s, then SIGKILL) until `pid` has exited and been reaped by the tmux server.
    private func waitUntilGone(_ pid: pid_t) {
        let deadline = MonotonicClock.now() + 5_000_000_000
        while Self.isRunning(pid) {
            if MonotonicClock.now() > deadline {
                kill(pid, SIGKILL)
                usleep(50_000)
                if !Self.isRunning(pid) { return }
            }
            usleep(2_000)
        }
    }

    private static func isRunning(_ pid: pid_t) -> Bool {
        guard kill(pid, 0) == 0 else { return false }
        // A zombie has exited; only the server has yet to reap it.
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        guard let close = stat.lastIndex(of: ")") else { return false }
        return !stat[stat.index(after: close)...].hasPrefix(" Z")
    }

    private static func clientArguments(_ socket: String, _ arguments: [String]) -> [String] {
        ["-S", socket, "-f", "/dev/null"] + arguments
    }

    @discardableResult
    private func client(_ arguments: [String], environment: [String: String]? = nil) throws -> ChildProcess.Outcome {
        try ChildProcess.run(tmux, Self.clientArguments(socket, arguments), environment: environment ?? baseEnvironment, quiet: true)
    }

    /// Runs a program with standard input, output and error on /dev/null and waits for it.
    private static func spawnDetached(_ executable: String, _ arguments: [String], environment: [String: String]) throws -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0)
        let (pid, _) = try ChildProcess.spawn(executable, arguments, environment: environment, actions: &actions)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        return ChildProcess.exitStatus(status)
    }
}
