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
}
