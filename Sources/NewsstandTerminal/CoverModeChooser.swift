import Foundation
import NewsstandImaging

/// Picks how covers are drawn from what the terminal can show: half blocks in colour where it has
/// 256 colours or more and a UTF-8 locale, coloured ASCII with fewer colours, plain ASCII without colour.
enum CoverModeChooser {
    static func choose(colorMode: CursesBackend.ColorMode, environment: [String: String] = ProcessInfo.processInfo.environment) -> CoverArtMode {
        let locale = (environment["LC_ALL"].flatMap { $0.isEmpty ? nil : $0 } ?? environment["LC_CTYPE"].flatMap { $0.isEmpty ? nil : $0 }
                      ?? environment["LANG"] ?? "").lowercased()
        let isUTF8 = locale.contains("utf-8") || locale.contains("utf8")
        switch colorMode {
        case .none: return .ascii
        case .basic: return .asciiColor
        case .indexed, .trueColor: return isUTF8 ? .blocks : .asciiColor
        }
    }
}
