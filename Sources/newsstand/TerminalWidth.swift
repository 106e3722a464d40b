import Foundation

/// The width of the terminal on stdout, or 80.
enum TerminalWidth {
    static func current() -> Int {
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0 { return Int(size.ws_col) }
        return 80
    }
}
