import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Questions asked on the controlling terminal (`/dev/tty`), so standard input and output stay free for
/// scripts: a line typed with echo (a user name) or without it (a password).
///
/// While echo is off, the terminal's settings are restored on every way out: the answer, end of input, an
/// error, and the signals that end the program (Ctrl-C, Ctrl-\, SIGTERM, SIGHUP), whose handler restores
/// them and then lets the signal take its course.
enum TerminalInput {
    /// Asks `question` on the terminal and reads a line, echoed. Nil at end of input.
    static func line(_ question: String) throws -> String? {
        let terminal = try openTerminal()
        defer { close(terminal) }
        writeAll(terminal, question)
        return readLine(terminal)
    }

    /// Asks `question` on the terminal and reads a line with echo turned off. Nil at end of input.
    static func secret(_ question: String) throws -> String? {
        let terminal = try openTerminal()
        defer { close(terminal) }
        writeAll(terminal, question)
        guard tcgetattr(terminal, savedSettings) == 0 else {
            throw CommandFailure("cannot turn off echo on the terminal: \(String(cString: strerror(errno)))")
        }
        var quiet = savedSettings.pointee
        quiet.c_lflag &= ~tcflag_t(ECHO | ECHOE | ECHOK | ECHONL)
        savedDescriptor.pointee = terminal
        var previous: [Int32: sigaction] = [:]
        for signalNumber in restoringSignals {
            var old = sigaction()
            sigaction(signalNumber, nil, &old)
            // A signal the program was started ignoring (nohup, a background job) cannot end it: leave it ignored.
            if unsafeBitCast(old.__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self) { continue }
            var action = sigaction()
            action.__sigaction_handler.sa_handler = restoreAndRaise
            sigemptyset(&action.sa_mask)
            sigaction(signalNumber, &action, nil)
            previous[signalNumber] = old
        }
        defer {
            tcsetattr(terminal, TCSAFLUSH, savedSettings)
            savedDescriptor.pointee = -1
            for (signalNumber, old) in previous {
                var old = old
                sigaction(signalNumber, &old, nil)
            }
            writeAll(terminal, "\n")
        }
        guard tcsetattr(terminal, TCSAFLUSH, &quiet) == 0 else {
            throw CommandFailure("cannot turn off echo on the terminal: \(String(cString: strerror(errno)))")
        }
        return readLine(terminal)
    }

    /// Reads the first line of standard input (without its line break); nil when it is empty.
    static func firstLineOfStandardInput() -> String? {
        readLine(STDIN_FILENO)
    }

    // MARK: Restoring the terminal from a signal handler

    /// The signals that end the program while it waits for a password.
    private static let restoringSignals: [Int32] = [SIGINT, SIGQUIT, SIGTERM, SIGHUP]

    private static func openTerminal() throws -> Int32 {
        let terminal = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard terminal >= 0 else { throw CommandFailure("there is no terminal to ask on") }
        return terminal
    }

    /// A line read from `descriptor` byte by byte (so nothing after it is consumed), without `\n` or `\r\n`;
    /// nil when input ended before anything was read.
    private static func readLine(_ descriptor: Int32) -> String? {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let count = read(descriptor, &byte, 1)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 {
                if bytes.isEmpty { return nil }
                break
            }
            if byte == UInt8(ascii: "\n") { break }
            bytes.append(byte)
        }
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func writeAll(_ descriptor: Int32, _ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { return }
            bytes = bytes.dropFirst(count)
        }
    }
}

/// The terminal's settings before echo was turned off, and its descriptor (-1 when echo is on): read by the
/// signal handler, so kept in plain memory rather than Swift variables with access checks.
nonisolated(unsafe) private let savedSettings = UnsafeMutablePointer<termios>.allocate(capacity: 1)
nonisolated(unsafe) private let savedDescriptor: UnsafeMutablePointer<Int32> = {
    let pointer = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
    pointer.initialize(to: -1)
    return pointer
}()

/// Restores the terminal (async-signal-safe calls only), then lets the signal end the program as it would have.
private func restoreAndRaise(_ signalNumber: Int32) {
    let descriptor = savedDescriptor.pointee
    if descriptor >= 0 {
        tcsetattr(descriptor, TCSANOW, savedSettings)
        var newline = UInt8(ascii: "\n")
        _ = write(descriptor, &newline, 1)
    }
    signal(signalNumber, SIG_DFL)
    raise(signalNumber)
}
