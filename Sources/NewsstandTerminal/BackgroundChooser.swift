import NewsstandImaging

/// Decides whether the terminal's background is light or dark: from its answer to OSC 11 when it gave one,
/// else from `COLORFGBG` (set by rxvt, Konsole and others: `15;0` is light text on a dark background), else dark.
enum BackgroundChooser {
    static func choose(answer: RGBColor?, colorForegroundBackground: String?) -> TerminalBackground {
        if let answer { return isLight(answer) ? .light : .dark }
        if let colorForegroundBackground, let background = background(fromColorFGBG: colorForegroundBackground) { return background }
        return .dark
    }

    /// A colour is light when its relative luminance is above that of mid grey (CIE L* 50, luminance 0.18):
    /// black text then reads better on it than white.
    static func isLight(_ color: RGBColor) -> Bool {
        ContrastRatio.luminance(color) > 0.18
    }

    /// The background `COLORFGBG` names: its last field, a colour index (`fg;bg` or `fg;default;bg`); indexes 7
    /// and 9–15 are light, 0–6 and 8 dark; anything else says nothing.
    static func background(fromColorFGBG value: String) -> TerminalBackground? {
        guard value.utf8.count <= 32, let last = value.split(separator: ";").last, let index = Int(last) else { return nil }
        switch index {
        case 0...6, 8: return .dark
        case 7, 9...15: return .light
        default: return nil
        }
    }
}
