import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One tmux client in control mode (`tmux -C attach-session`), kept for the whole case: a command goes down its
/// input as a line, and its output comes back between `%begin` and `%end` (or `%error`) lines, with no process
/// started per command. `TmuxLaunchHarness` polls the screen through it: a `tmux capture-pane` client spawned every
/// few milliseconds took most of a core from the program being timed (20% on the shelf's start-up, measured from
/// inside it), more from a program that starts on two threads than from a one-threaded floor.
///
/// The client stays attached to the harness's idle session, so it never sizes a launched program's window; lines
/// from tmux outside a command's block (`%sessions-changed` and other notifications) are skipped.
final class TmuxControlClient {
    /// A command's answer: its output lines, and whether it succeeded (`%end`, not `%error`).
    struct Reply {
        let succeeded: Bool
        let lines: [String]
        /// `MonotonicClock.now()` when the block's last line had been read.
        let endedAt: UInt64
    }

    private let pid: pid_t
    private let input: Int32
    private let output: Int32
    /// Bytes read from the client and not yet taken as lines.
    private var pending: [UInt8] = []
    private var closed = false

    /// Starts `tmux CLIENT-ARGUMENTS -C attach-session -t SESSION` and waits until it answers a first command.
    init(tmux: String, clientArguments: [String], session: String, environment: [String: String]) throws {
        var toClient: [Int32] = [0, 0], fromClient: [Int32] = [0, 0]
        guard pipe(&toClient) == 0, pipe(&fromClient) == 0 else { throw ChildProcess.Failure(description: "no pipe for tmux's control client") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toClient[0], STDIN_FILENO)
        posix_spawn_file_actions_adddup2(&actions, fromClient[1], STDOUT_FILENO)
        posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0)
        for descriptor in toClient + fromClient { posix_spawn_file_actions_addclose(&actions, descriptor) }
        do {
            pid = try ChildProcess.spawn(tmux, clientArguments + ["-C", "attach-session", "-t", session], environment: environment,
                                         actions: &actions).pid
        } catch {
            for descriptor in toClient + fromClient { Glibc.close(descriptor) }
            throw error
        }
        // The child's ends are the child's now.
        Glibc.close(toClient[0])
        Glibc.close(fromClient[1])
        input = toClient[1]
        output = fromClient[0]
        // Attaching answers with a block of its own; a marker command finds where the replies to ours begin.
        let marker = "newsstand-bench-control-ready"
        try send("display-message -p \(marker)")
        while true {
            let reply = try readReply(timeout: 10)
            if reply.lines.contains(marker) { break }
        }
    }

    deinit { close() }

    /// Runs one command (a line of tmux's command language) and returns its reply.
    func run(_ command: String, timeout: Double = 10) throws -> Reply {
        try send(command)
        return try readReply(timeout: timeout)
    }

    /// Ends the client (an empty line detaches it; killed if it is still there a second later) and reaps it.
    func close() {
        guard !closed else { return }
        closed = true
        try? send("")
        Glibc.close(input)
        Glibc.close(output)
        let deadline = MonotonicClock.now() + 1_000_000_000
        var status: Int32 = 0
        while waitpid(pid, &status, WNOHANG) == 0 {
            if MonotonicClock.now() > deadline {
                kill(pid, SIGKILL)
                while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
                return
            }
            usleep(2_000)
        }
    }

    private func send(_ command: String) throws {
        let bytes = Array((command + "\n").utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(input, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw ChildProcess.Failure(description: "tmux's control client stopped reading (\(String(cString: strerror(errno))))") }
            written += count
        }
    }

    /// The next block answering a command of this client: lines outside blocks are notifications, skipped; a
    /// block's end is the `%end` or `%error` line with the same time and number as its `%begin`. Blocks whose flags
    /// are 0 answer commands tmux ran itself (the attach, hooks) and are skipped whole: one of them arriving after
    /// the marker shifted every reply by one (a launch was once given an empty pane pid).
    private func readReply(timeout: Double) throws -> Reply {
        let deadline = MonotonicClock.now() + UInt64(timeout * 1e9)
        var begin: (id: Substring, isOurs: Bool)?
        var lines: [String] = []
        while true {
            let line = try readLine(deadline: deadline)
            guard let opened = begin else {
                if line.hasPrefix("%begin ") { begin = Self.block(line.dropFirst("%begin ".count)) }
                continue
            }
            for (prefix, succeeded) in [("%end ", true), ("%error ", false)] where line.hasPrefix(prefix) {
                if Self.block(line.dropFirst(prefix.count)).id == opened.id {
                    if opened.isOurs { return Reply(succeeded: succeeded, lines: lines, endedAt: MonotonicClock.now()) }
                    begin = nil
                    lines = []
                }
            }
            if begin != nil { lines.append(line) }
        }
    }

    /// `TIME NUMBER` of a block's `%begin TIME NUMBER FLAGS` (its end repeats them), and whether FLAGS says this
    /// client sent the command (1).
    private static func block(_ rest: Substring) -> (id: Substring, isOurs: Bool) {
        let fields = rest.split(separator: " ", maxSplits: 2)
        guard fields.count >= 2 else { return (rest, true) }
        return (rest[fields[0].startIndex..<fields[1].endIndex], fields.count < 3 || fields[2] == "1")
    }

    private func readLine(deadline: UInt64) throws -> String {
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                return line
            }
            let now = MonotonicClock.now()
            guard now < deadline else { throw ChildProcess.Failure(description: "tmux's control client gave no answer in time") }
            var descriptor = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, Int32(min(1_000, (deadline - now) / 1_000_000 + 1)))
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 64 << 10)
            let count = chunk.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw ChildProcess.Failure(description: "tmux's control client ended") }
            pending += chunk[..<count]
        }
    }
}
