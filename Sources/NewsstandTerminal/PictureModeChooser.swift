import Foundation
import NewsstandImaging

/// Decides how pictures are shown: a picture protocol the terminal has said it speaks, else text art.
///
/// `auto` trusts the terminal's own answers (`TerminalAnswers`): kitty graphics when the kitty query was answered
/// (and the terminal is not WezTerm or Konsole, whose sixel serves better), iTerm2's images when the terminal says it is
/// iTerm2, sixel when DA1 lists attribute 4. Under tmux only kitty's Unicode placeholders work (placing pictures
/// directly cannot), and only with `allow-passthrough on`: kitty pictures are chosen when the outer terminal's own
/// XTVERSION, asked through tmux's passthrough, names a terminal that draws placeholders (tmux 3.3 passes that answer
/// back but swallows the kitty query's). Environment hints (`KITTY_WINDOW_ID`,
/// `TERM_PROGRAM`, `LC_TERMINAL`) count only when the terminal answered nothing; `TERM` alone never does.
/// Without colours there are no pictures, and kitty's placeholders need 256 colours (the image id is a colour).
/// Kitty pictures use Unicode placeholders only where the terminal is known to draw them (`hasPlaceholders`:
/// kitty 0.28.0 or later by its XTVERSION, Ghostty; under tmux, the outer terminal's XTVERSION); elsewhere they are
/// placed directly at their cells, with no key the terminal did not claim.
enum PictureModeChooser {
    /// How pictures are shown: a protocol, or nil for text; `text` is the art used when there is no protocol.
    struct Choice: Equatable {
        var picture: PictureProtocol?
        var text: CoverArtMode
        /// Kitty pictures through Unicode placeholders (else placed directly).
        var kittyPlaceholders = false
    }

    /// Terminals that answer the kitty query but do not draw Unicode placeholders.
    static let withoutPlaceholders: Set<String> = ["wezterm", "konsole"]
    /// The first kitty that draws Unicode placeholders.
    static let kittyWithPlaceholders = [0, 28, 0]
    /// Other terminals that answer the kitty query and draw Unicode placeholders.
    static let otherTerminalsWithPlaceholders: Set<String> = ["ghostty"]

    /// Whether the terminal draws kitty's Unicode placeholders: by its XTVERSION name and version, or under tmux by
    /// the outer terminal's, asked through passthrough.
    static func hasPlaceholders(answers: TerminalAnswers, insideTmux: Bool) -> Bool {
        drawsPlaceholders(version: insideTmux ? answers.outerVersion : answers.version)
    }

    /// Whether the terminal that answered XTVERSION with `version` draws kitty's Unicode placeholders.
    static func drawsPlaceholders(version: String?) -> Bool {
        guard let name = TerminalAnswers.name(of: version), let version else { return false }
        if otherTerminalsWithPlaceholders.contains(name) { return true }
        guard name == "kitty" else { return false }
        // `kitty(0.26.5)`: the numbers between the brackets.
        let inside = version.drop { $0 != "(" }.dropFirst().prefix { $0 != ")" }
        let numbers = inside.split(separator: ".").map { Int($0) }
        guard numbers.count >= 2, numbers.allSatisfy({ $0 != nil }) else { return false }
        let parts = numbers.compactMap { $0 } + [0, 0]
        return parts[0..<3].lexicographicallyPrecedes(kittyWithPlaceholders) == false
    }

    static func choose(setting: CoverModeSetting?, answers: TerminalAnswers, colorMode: CursesBackend.ColorMode,
                       environment: [String: String] = ProcessInfo.processInfo.environment) -> Choice {
        let text = CoverModeChooser.choose(colorMode: colorMode, environment: environment)
        guard colorMode != .none else { return Choice(picture: nil, text: .ascii) }
        switch setting ?? .auto {
        case .auto:
            return withPlaceholders(Choice(picture: detect(answers: answers, colorMode: colorMode, environment: environment), text: text),
                                    answers: answers, environment: environment)
        case let explicit:
            if let mode = explicit.textMode { return Choice(picture: nil, text: mode) }
            return withPlaceholders(Choice(picture: explicit.pictureProtocol, text: text), answers: answers, environment: environment)
        }
    }

    private static func withPlaceholders(_ choice: Choice, answers: TerminalAnswers, environment: [String: String]) -> Choice {
        var choice = choice
        choice.kittyPlaceholders = choice.picture == .kitty
            && hasPlaceholders(answers: answers, insideTmux: isInsideTmux(answers: answers, environment: environment))
        return choice
    }

    /// Whether the program runs inside tmux: `$TMUX`, or tmux's own XTVERSION answer.
    static func isInsideTmux(answers: TerminalAnswers, environment: [String: String]) -> Bool {
        !(environment["TMUX"] ?? "").isEmpty || answers.terminalName == "tmux"
    }

    private static func detect(answers: TerminalAnswers, colorMode: CursesBackend.ColorMode, environment: [String: String]) -> PictureProtocol? {
        let hasColorIds = colorMode == .indexed || colorMode == .trueColor
        if isInsideTmux(answers: answers, environment: environment) {
            return hasColorIds && hasPlaceholders(answers: answers, insideTmux: true) ? .kitty : nil
        }
        if answers.isComplete {
            if answers.hasKittyGraphics && hasColorIds && !withoutPlaceholders.contains(answers.terminalName ?? "") { return .kitty }
            if answers.terminalName == "iterm2" { return .iterm }
            if answers.hasSixel { return .sixel }
            return nil
        }
        // The terminal answered nothing in time: its environment may still say what it is.
        if !(environment["KITTY_WINDOW_ID"] ?? "").isEmpty && hasColorIds { return .kitty }
        if environment["TERM_PROGRAM"] == "iTerm.app" || environment["LC_TERMINAL"] == "iTerm2" { return .iterm }
        if environment["TERM_PROGRAM"] == "WezTerm" { return .iterm }
        return nil
    }
}
