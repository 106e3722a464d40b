import Foundation
import NewsstandImaging

/// Decides how pictures are shown: a picture protocol the terminal has said it speaks, else text art.
///
/// `auto` trusts the terminal's own answers (`TerminalAnswers`): kitty graphics when the kitty query was answered
/// (and the terminal is not one known to lack Unicode placeholders), iTerm2's images when the terminal says it is
/// iTerm2, sixel when DA1 lists attribute 4. Under tmux only kitty works, and only with `allow-passthrough on`
/// (the query is sent through tmux, so its answer proves that). Environment hints (`KITTY_WINDOW_ID`,
/// `TERM_PROGRAM`, `LC_TERMINAL`) count only when the terminal answered nothing; `TERM` alone never does.
/// Without colours there are no pictures, and kitty's placeholders need 256 colours (the image id is a colour).
enum PictureModeChooser {
    /// How pictures are shown: a protocol, or nil for text; `text` is the art used when there is no protocol.
    struct Choice: Equatable {
        var picture: PictureProtocol?
        var text: CoverArtMode
    }

    /// Terminals that answer the kitty query but do not draw Unicode placeholders.
    static let withoutPlaceholders: Set<String> = ["wezterm", "konsole"]

    static func choose(setting: CoverModeSetting?, answers: TerminalAnswers, colorMode: CursesBackend.ColorMode,
                       environment: [String: String] = ProcessInfo.processInfo.environment) -> Choice {
        let text = CoverModeChooser.choose(colorMode: colorMode, environment: environment)
        guard colorMode != .none else { return Choice(picture: nil, text: .ascii) }
        switch setting ?? .auto {
        case .auto:
            return Choice(picture: detect(answers: answers, colorMode: colorMode, environment: environment), text: text)
        case let explicit:
            if let mode = explicit.textMode { return Choice(picture: nil, text: mode) }
            return Choice(picture: explicit.pictureProtocol, text: text)
        }
    }

    /// Whether the program runs inside tmux: `$TMUX`, or tmux's own XTVERSION answer.
    static func isInsideTmux(answers: TerminalAnswers, environment: [String: String]) -> Bool {
        !(environment["TMUX"] ?? "").isEmpty || answers.terminalName == "tmux"
    }

    private static func detect(answers: TerminalAnswers, colorMode: CursesBackend.ColorMode, environment: [String: String]) -> PictureProtocol? {
        let hasColorIds = colorMode == .indexed || colorMode == .trueColor
        if isInsideTmux(answers: answers, environment: environment) {
            return answers.hasKittyGraphics && hasColorIds ? .kitty : nil
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
