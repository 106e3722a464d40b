import Foundation

/// Works out how many colours to use from the environment: NO_COLOR, COLORTERM and TERM.
enum ColorModeDetector {
    static func detect(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> CursesBackend.ColorMode {
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return .none }
        let colorTerm = (environment["COLORTERM"] ?? "").lowercased()
        if colorTerm == "truecolor" || colorTerm == "24bit" { return .trueColor }
        if (environment["TERM"] ?? "").contains("256color") { return .indexed }
        return .basic
    }

    /// The terminal type to use instead of `TERM=xterm` when the terminal said it is xterm (XTVERSION `XTerm(n)`,
    /// answered only by xterms long past 256 colours): xterm sets `TERM=xterm` for its programs, which tells
    /// ncurses 8 colours, and themes drawn in 8 lose their shades. Nil when there is nothing to change or
    /// `xterm-256color` is not in the terminfo database.
    static func betterTerminalType(answers: TerminalAnswers, environment: [String: String], colorMode: CursesBackend.ColorMode,
                                   terminfoHas: (String) -> Bool = hasTerminfo) -> String? {
        guard colorMode == .basic, environment["TERM"] == "xterm", answers.terminalName == "xterm", terminfoHas("xterm-256color") else { return nil }
        return "xterm-256color"
    }

    /// Whether the terminfo database has an entry for `name`, where ncurses looks.
    static func hasTerminfo(_ name: String) -> Bool {
        let environment = ProcessInfo.processInfo.environment
        var directories = [environment["TERMINFO"], environment["HOME"].map { $0 + "/.terminfo" }].compactMap { $0 }
        directories += (environment["TERMINFO_DIRS"] ?? "").split(separator: ":").map(String.init)
        directories += ["/etc/terminfo", "/lib/terminfo", "/usr/share/terminfo", "/usr/lib/terminfo"]
        let first = name.prefix(1), hex = String(name.utf8.first ?? 0, radix: 16)
        return directories.contains { directory in
            ["\(directory)/\(first)/\(name)", "\(directory)/\(hex)/\(name)"].contains { FileManager.default.fileExists(atPath: $0) }
        }
    }
}
