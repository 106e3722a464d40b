import CNcursesw
import Foundation

/// Restores the terminal when the process dies from a crash signal, then lets the signal take its course.
///
/// The handler does only what is safe inside a signal handler, whatever thread the signal lands on and
/// whatever the main thread was doing in ncurses: it puts back the terminal modes saved before ncurses
/// started (`tcsetattr`) and writes the sequences that leave the alternate screen, stop mouse reports and
/// show the cursor (`write`). `endwin()` is not safe there: a crash during a frame could leave the terminal raw.
enum CrashGuard {
    static let crashSignals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP]

    /// The terminal's modes before ncurses changed them; read by the handler only.
    nonisolated(unsafe) private static var savedModes = termios()
    nonisolated(unsafe) private static var hasSavedModes = false

    /// Call before ncurses starts. `modes`: the terminal's modes to put back when they are not the current ones (the
    /// start-up questions, still awaiting their answers, have the input neither echo nor wait for lines).
    static func install(restoring modes: termios? = nil) {
        if let modes {
            savedModes = modes
            hasSavedModes = true
        } else {
            hasSavedModes = tcgetattr(STDIN_FILENO, &savedModes) == 0
        }
        for signalNumber in crashSignals {
            signal(signalNumber) { received in
                if CrashGuard.hasSavedModes { tcsetattr(STDIN_FILENO, TCSANOW, &CrashGuard.savedModes) }
                let reset: StaticString = "\u{1B}[?1000l\u{1B}[?1049l\u{1B}[?25h\u{1B}[0m\r\n"
                _ = write(STDOUT_FILENO, reset.utf8Start, reset.utf8CodeUnitCount)
                signal(received, SIG_DFL)
                raise(received)
            }
        }
    }
}
