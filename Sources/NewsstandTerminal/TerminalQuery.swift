import Foundation
import NewsstandContent
import NewsstandImaging
import NewsstandPictures

/// Asks the terminal what it can show, before ncurses starts: writes the queries, reads the answers for a
/// short while (until DA1's answer, asked last, arrives) and gives them to `TerminalAnswers` to parse
/// (`TerminalQuestions` writes and reads, at once or apart).
enum TerminalQuery {
    /// The kitty graphics query (a 1×1 picture to check, not keep), the cell size, XTVERSION, the background
    /// colour (OSC 11), and DA1 last. Inside tmux the kitty query, a second XTVERSION and a second DA1 go through
    /// tmux's passthrough, so only an outer terminal that tmux lets through (`allow-passthrough on`) answers them:
    /// its XTVERSION says which terminal draws the pictures, and its DA1 marks the end of its answers. tmux (3.3 and
    /// later) answers OSC 11 itself, with the outer terminal's colour.
    static func queries(throughTmux: Bool) -> [UInt8] {
        let kitty = Array("\u{1B}_Gi=\(TerminalAnswers.kittyQueryID),s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\".utf8)
        let local = Array("\u{1B}[16t\u{1B}[>0q\u{1B}]11;?\u{1B}\\\u{1B}[c".utf8)
        guard throughTmux else { return kitty + local }
        return TmuxPassthrough.wrap(kitty) + local + TmuxPassthrough.wrap(Array("\u{1B}[>0q".utf8)) + TmuxPassthrough.wrap(Array("\u{1B}[c".utf8))
    }

    /// Asks and reads the answers, waiting at most `timeout`; a terminal that answers nothing costs that long once.
    /// Keys typed meanwhile come back in `typed`, for the backend to read as keys.
    static func ask(throughTmux: Bool, timeout: TimeInterval = 0.25) -> TerminalAnswers {
        TerminalQuestions.send(throughTmux: throughTmux, timeout: timeout)?.read() ?? TerminalAnswers()
    }

    /// The cell size in pixels: from the kernel's window size when the terminal fills in its pixels,
    /// else from the terminal's answer, else `CellPixelSize.fallback`.
    static func cellPixelSize(answers: TerminalAnswers) -> CellPixelSize {
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0, size.ws_xpixel > 0, size.ws_ypixel > 0 {
            return CellPixelSize(width: Int(size.ws_xpixel) / Int(size.ws_col), height: Int(size.ws_ypixel) / Int(size.ws_row))
        }
        return answers.cellPixelSize ?? .fallback
    }
}
