import CNcursesw
import Foundation

/// Restores the terminal when the process dies from a crash signal, then lets the signal take its course.
enum CrashGuard {
    static let crashSignals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP]

    static func install() {
        for signalNumber in crashSignals {
            signal(signalNumber) { received in
                endwin()
                signal(received, SIG_DFL)
                raise(received)
            }
        }
    }
}
