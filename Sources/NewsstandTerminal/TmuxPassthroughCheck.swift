import Foundation
import NewsstandContent
import Synchronization

/// Whether tmux passes escape sequences through to the terminal outside it (`allow-passthrough` `on` or `all`, asked
/// of tmux itself: `tmux show-options -Apv allow-passthrough`). Without it no picture can reach that terminal, and
/// asking through tmux would only wait out the timeout for answers that never come, at every start.
///
/// A tmux client takes 2–12 ms to answer (it starts, connects to the server and waits for it), so the question is
/// started as early as the program knows it will draw the shelf (`start`), runs while the library is opened, and its
/// answer is read when the terminal is asked (`allowsPassthrough`). Bounded: the answer is read for at most a second
/// and 64 bytes; a tmux that says nothing in time is killed and counts as no.
public final class TmuxPassthroughCheck: Sendable {
    /// The tmux asked and the pipe its answer comes through, until the answer is read.
    private struct Question {
        var child: pid_t = 0
        var output: Int32 = -1
        var answer: Bool?
    }

    private let question: Mutex<Question>

    /// Starts the question when the program runs inside tmux (`$TMUX` set and `tmux` on `PATH`); else the answer is no.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        question = Mutex(Self.ask(environment: environment))
    }

    private static func ask(environment: [String: String]) -> Question {
        guard !(environment["TMUX"] ?? "").isEmpty, let tmux = Subprocess.find("tmux", searchPath: environment["PATH"]) else {
            return Question(answer: false)
        }
        var pipeEnds: [Int32] = [-1, -1]
        guard pipe(&pipeEnds) == 0 else { return Question(answer: false) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
        posix_spawn_file_actions_addclose(&actions, pipeEnds[1])
        let arguments = [tmux.path, "show-options", "-Apv", "allow-passthrough"]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        let status = posix_spawn(&child, tmux.path, &actions, nil, &argv, environ)
        close(pipeEnds[1])
        guard status == 0 else {
            close(pipeEnds[0])
            return Question(answer: false)
        }
        return Question(child: child, output: pipeEnds[0])
    }

    deinit {
        _ = allowsPassthrough
    }

    /// tmux's answer: waits for it (at most a second) the first time.
    public var allowsPassthrough: Bool {
        question.withLock { question in
            if let answer = question.answer { return answer }
            let answer = Self.readAnswer(child: question.child, output: question.output)
            question.answer = answer
            return answer
        }
    }

    /// Reads tmux's answer from `output` (closing it) and waits for `child` to end.
    private static func readAnswer(child: pid_t, output: Int32) -> Bool {
        var text: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64)
        let deadline = Date().addingTimeInterval(1)
        var finished = false
        while text.count < 64 {
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { break }
            var poller = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(remaining * 1000) + 1) > 0 else { break }
            let count = buffer.withUnsafeMutableBytes { read(output, $0.baseAddress, 64 - text.count) }
            if count <= 0 { finished = count == 0; break }
            text += buffer[0..<count]
        }
        close(output)
        if !finished { kill(child, SIGKILL) }
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0 && errno == EINTR {}
        let exitedCleanly = finished && (status & 0x7F) == 0 && ((status >> 8) & 0xFF) == 0
        let value = String(decoding: text, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return exitedCleanly && ["on", "all"].contains(value)
    }
}
