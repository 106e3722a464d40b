import Foundation
import NewsstandImaging
import Synchronization

/// The start-up questions (`TerminalQuery.queries`) written to the terminal now and their answers read later: written as
/// soon as the program knows it will ask (before the library is opened), read when the theme and the pictures are
/// chosen, so that the round trip to the terminal runs while the library opens rather than after it. When the terminal
/// answers, asking then costs nothing: the answers are waiting when they are read.
///
/// Until the answers are read, the terminal's input neither echoes nor waits for a line (an answer is never shown nor
/// held back); reading them restores it. Bounded: answers are read until DA1's (asked last) arrives, for at most
/// `timeout` after the questions went out, and at most 16 KB. Keys typed meanwhile come back in `typed`.
public final class TerminalQuestions: Sendable {
    private let throughTmux: Bool
    private let saved: termios
    private let deadline: Date
    /// Once read, the answers (later reads give the same).
    private let answers = Mutex<TerminalAnswers?>(nil)

    private init(throughTmux: Bool, saved: termios, deadline: Date) {
        self.throughTmux = throughTmux
        self.saved = saved
        self.deadline = deadline
    }

    /// The terminal's modes before the questions went out, which reading the answers puts back.
    var modesBefore: termios { saved }

    /// Whether a start outside tmux asks the terminal before its first frame, so that the questions can go out at once:
    /// the theme follows the background, or covers may be pictures (colours, and no cover mode chosen that is not a
    /// picture protocol). A theme's own `cover-mode`, known only once it is read, may still choose text: the answers are
    /// then read and left unused.
    public static func areAskedBeforeTheFirstFrame(followsBackground: Bool, coverSetting: CoverModeSetting?, colorsEnabled: Bool, environment: [String: String]) -> Bool {
        followsBackground || TerminalApp.mayShowPictures(colorMode: colorsEnabled ? ColorModeDetector.detect(environment) : .none,
                                                         coverSetting: coverSetting)
    }

    /// Writes the questions; nil (nothing written) when standard input or output is not a terminal.
    public static func send(throughTmux: Bool = false, timeout: TimeInterval = 0.25) -> TerminalQuestions? {
        let input = STDIN_FILENO
        guard isatty(input) == 1 && isatty(STDOUT_FILENO) == 1 else { return nil }
        var saved = termios()
        guard tcgetattr(input, &saved) == 0 else { return nil }
        // A crash before the answers are read puts the modes back too.
        CrashGuard.install(restoring: saved)
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        tcsetattr(input, TCSANOW, &raw)
        let questions = TerminalQuestions(throughTmux: throughTmux, saved: saved, deadline: Date().addingTimeInterval(timeout))
        let request = TerminalQuery.queries(throughTmux: throughTmux)
        _ = request.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
        return questions
    }

    /// The answers, read once (later calls give the same) until DA1's arrives or the window closes; the terminal's
    /// input modes are restored.
    func read() -> TerminalAnswers {
        if let answers = answers.withLock({ $0 }) { return answers }
        let input = STDIN_FILENO
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1024)
        while received.count < 16_384 {
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { break }
            var poller = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(remaining * 1000) + 1) > 0 else { break }
            let count = buffer.withUnsafeMutableBytes { Glibc.read(input, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            received += buffer[0..<count]
            if TerminalAnswers.parse(received).primaryAnswerCount >= (throughTmux ? 2 : 1) { break }
        }
        var saved = saved
        tcsetattr(input, TCSANOW, &saved)
        let parsed = TerminalAnswers.parse(received)
        answers.withLock { $0 = parsed }
        return parsed
    }

    /// Reads what is still to come and restores the terminal, for a program that asked and will not use the answers
    /// (it stopped with an error, or needs none after all).
    public func finish() {
        _ = read()
    }
}
