import XCTest
import NewsstandImaging
@testable import NewsstandTerminal

/// Picture support detected from what terminals answer to the start-up queries.
///
/// The xterm and tmux answers were recorded on the project machine (xterm 379 under Xvfb, tmux 3.3a) by writing
/// `TerminalQuery.queries` to the terminal; the others are the answers those terminals' sources and documentation give.
final class TerminalAnswersTests: XCTestCase {
    static let kitty = "\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[6;20;10t\u{1B}P>|kitty(0.35.2)\u{1B}\\\u{1B}[?62;c"
    static let wezterm = "\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[6;19;9t\u{1B}P>|WezTerm 20240203-110809-5046fc22\u{1B}\\\u{1B}[?65;4;6;18;22c"
    static let foot = "\u{1B}[6;17;8t\u{1B}P>|foot(1.16.2)\u{1B}\\\u{1B}[?62;4;22c"
    static let xtermVT340 = "\u{1B}P>|XTerm(379)\u{1B}\\\u{1B}[?63;1;2;4;6;9;15;16;22;28c"
    static let xterm = "\u{1B}P>|XTerm(379)\u{1B}\\\u{1B}[?64;1;2;6;9;15;16;17;18;21;22;28c"
    static let iterm2 = "\u{1B}P>|iTerm2 3.5.0\u{1B}\\\u{1B}[?62;4c"
    static let tmux = "\u{1B}P>|tmux 3.3a\u{1B}\\\u{1B}[?1;2c"
    /// tmux's own answers, then, through passthrough, kitty's XTVERSION and DA1. Recorded from tmux 3.3a with
    /// `allow-passthrough on` inside a pseudo-terminal answering as kitty: tmux passes these two answers back to the
    /// program, and swallows the graphics query's answer (`ESC _ G i=31;OK`), which it does not know.
    static let tmuxInsideKitty = "\u{1B}P>|tmux 3.3a\u{1B}\\\u{1B}[?1;2c\u{1B}P>|kitty(0.35.2)\u{1B}\\\u{1B}[?62;c"
    /// The same inside Debian 12's kitty, which draws no Unicode placeholders.
    static let tmuxInsideOldKitty = "\u{1B}P>|tmux 3.3a\u{1B}\\\u{1B}[?1;2c\u{1B}P>|kitty(0.26.5)\u{1B}\\\u{1B}[?62;c"
    /// The same inside xterm: no kitty graphics.
    static let tmuxInsideXterm = "\u{1B}P>|tmux 3.3a\u{1B}\\\u{1B}[?1;2c\u{1B}P>|XTerm(379)\u{1B}\\\u{1B}[?64;1;2;6;9;15;16;17;18;21;22;28c"

    private func parse(_ text: String) -> TerminalAnswers { TerminalAnswers.parse(Array(text.utf8)) }

    func testParsesEachAnswer() {
        let kitty = parse(Self.kitty)
        XCTAssertTrue(kitty.hasKittyGraphics)
        XCTAssertEqual(kitty.version, "kitty(0.35.2)")
        XCTAssertEqual(kitty.terminalName, "kitty")
        XCTAssertEqual(kitty.primaryAttributes, [62])
        XCTAssertEqual(kitty.cellPixelSize, CellPixelSize(width: 10, height: 20))
        XCTAssertFalse(kitty.hasSixel)

        let xterm = parse(Self.xtermVT340)
        XCTAssertFalse(xterm.hasKittyGraphics)
        XCTAssertTrue(xterm.hasSixel)
        XCTAssertEqual(xterm.terminalName, "xterm")
        XCTAssertNil(xterm.cellPixelSize)
        XCTAssertFalse(parse(Self.xterm).hasSixel, "plain xterm (vt420 id) has no sixel")

        XCTAssertEqual(parse(Self.tmux).terminalName, "tmux")
        let throughTmux = parse(Self.tmuxInsideKitty)
        XCTAssertEqual(throughTmux.primaryAnswerCount, 2, "tmux's DA1 and the outer terminal's")
        XCTAssertEqual(throughTmux.primaryAttributes, [1, 2], "the first DA1 is tmux's")
        XCTAssertEqual(throughTmux.version, "tmux 3.3a", "tmux answers first")
        XCTAssertEqual(throughTmux.outerVersion, "kitty(0.35.2)", "the XTVERSION after tmux's DA1 is the outer terminal's")
        XCTAssertEqual(throughTmux.outerTerminalName, "kitty")
        XCTAssertNil(parse(Self.kitty).outerVersion, "outside tmux there is only the terminal")
        XCTAssertEqual(String(decoding: TerminalQuery.queries(throughTmux: true), as: UTF8.self),
                       "\u{1B}Ptmux;\u{1B}\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\u{1B}\\\u{1B}\\\u{1B}[16t\u{1B}[>0q\u{1B}]11;?\u{1B}\\\u{1B}[c"
                       + "\u{1B}Ptmux;\u{1B}\u{1B}[>0q\u{1B}\\\u{1B}Ptmux;\u{1B}\u{1B}[c\u{1B}\\")
        XCTAssertEqual(parse(Self.iterm2).terminalName, "iterm2")
        XCTAssertEqual(parse(Self.wezterm).terminalName, "wezterm")
    }

    func testIncompleteAndForeignBytes() {
        XCTAssertFalse(parse("").isComplete, "a terminal that answers nothing")
        XCTAssertFalse(parse("\u{1B}P>|XTerm(379)\u{1B}\\").isComplete, "no DA1 yet")
        XCTAssertFalse(parse("\u{1B}_Gi=31;OK").hasKittyGraphics, "an unfinished answer counts for nothing")
        let noisy = parse("jk\u{1B}[A\u{1B}_Gi=31;ENOENT:unsupported\u{1B}\\\u{1B}[?62;4c")
        XCTAssertFalse(noisy.hasKittyGraphics, "an error answer is no")
        XCTAssertTrue(noisy.hasSixel, "keys typed meanwhile are no answer")
        XCTAssertEqual(noisy.typed, Array("jk\u{1B}[A".utf8), "and are kept to be read as keys")
        XCTAssertEqual(parse(Self.xtermVT340).typed, [])
        let hostile = parse("\u{1B}P>|ev\u{1B}[2Jil\u{7}\u{1B}[?62c")
        XCTAssertEqual(hostile.version, "ev", "a name stops at a control character")
        XCTAssertEqual(parse("\u{1B}[6;99999;99999t\u{1B}[?62c").cellPixelSize, CellPixelSize(width: 64, height: 128), "clamped")
    }

    private func choose(_ answers: String, _ environment: [String: String] = ["LANG": "C.UTF-8"],
                        setting: CoverModeSetting? = nil, colors: CursesBackend.ColorMode = .indexed) -> PictureProtocol? {
        PictureModeChooser.choose(setting: setting, answers: parse(answers), colorMode: colors, environment: environment).picture
    }

    func testAutoPicksFromTheAnswers() {
        XCTAssertEqual(choose(Self.kitty), .kitty)
        XCTAssertEqual(choose(Self.wezterm), .sixel, "WezTerm answers the kitty query but draws no placeholders")
        XCTAssertEqual(choose(Self.foot), .sixel)
        XCTAssertEqual(choose(Self.xtermVT340), .sixel)
        XCTAssertNil(choose(Self.xterm))
        XCTAssertEqual(choose(Self.iterm2), .iterm, "iTerm2 gets its own protocol")
        XCTAssertNil(choose(Self.tmux, ["TMUX": "/tmp/tmux-0/default,1,0"]))
        XCTAssertEqual(choose(Self.tmuxInsideKitty, ["TMUX": "/tmp/tmux-0/default,1,0"]), .kitty, "kitty 0.35 answered through passthrough")
        XCTAssertNil(choose(Self.tmuxInsideOldKitty, ["TMUX": "/tmp/tmux-0/default,1,0"]),
                     "kitty 0.26 draws no placeholders, and under tmux nothing else can follow the panes: text")
        XCTAssertNil(choose(Self.tmuxInsideXterm, ["TMUX": "/tmp/tmux-0/default,1,0"]), "xterm through tmux: text")
        XCTAssertNil(choose(Self.tmux + "\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[?62;c", ["TMUX": "x"]),
                     "a graphics answer with no outer XTVERSION names no terminal known to draw placeholders")
        XCTAssertEqual(choose("\u{1B}P>|tmux 3.3a\u{1B}\\\u{1B}[?1;2c\u{1B}P>|ghostty 1.1.3\u{1B}\\\u{1B}[?62;22c", ["TMUX": "x"]), .kitty)
        XCTAssertNil(choose(Self.tmux, ["TMUX": "x", "KITTY_WINDOW_ID": "1"]), "under tmux an environment hint is not enough")
        XCTAssertNil(choose(Self.kitty, colors: .basic), "kitty's image id needs 256 colours")
        XCTAssertNil(choose(Self.kitty, colors: .none))
    }

    func testEnvironmentOnlyWhenNothingAnswered() {
        XCTAssertNil(choose("", ["TERM": "xterm-kitty"]), "TERM alone is no evidence")
        XCTAssertEqual(choose("", ["KITTY_WINDOW_ID": "3"]), .kitty)
        XCTAssertEqual(choose("", ["TERM_PROGRAM": "iTerm.app"]), .iterm)
        XCTAssertEqual(choose("", ["TERM_PROGRAM": "WezTerm"]), .iterm)
        XCTAssertNil(choose(Self.xterm, ["KITTY_WINDOW_ID": "3"]), "a terminal that answered is believed over its environment")
    }

    func testExplicitSettingsWin() {
        XCTAssertEqual(choose("", setting: .sixel), .sixel)
        XCTAssertNil(choose(Self.kitty, setting: .blocks))
        let choice = PictureModeChooser.choose(setting: .asciiColor, answers: parse(Self.kitty), colorMode: .trueColor, environment: [:])
        XCTAssertEqual(choice, PictureModeChooser.Choice(picture: nil, text: .asciiColor))
        XCTAssertEqual(PictureModeChooser.choose(setting: .kitty, answers: parse(""), colorMode: .indexed, environment: ["LANG": "C.UTF-8"]),
                       PictureModeChooser.Choice(picture: .kitty, text: .blocks), "the text fallback still follows the colours")
    }

    func testSettingSpelling() {
        XCTAssertEqual(CoverModeSetting.spelledOut, "auto, kitty, sixel, iterm, blocks, ascii-color or ascii")
        XCTAssertEqual(CoverModeSetting(rawValue: "ascii-color")?.textMode, .asciiColor)
        XCTAssertEqual(CoverModeSetting.sixel.pictureProtocol, .sixel)
        XCTAssertNil(CoverModeSetting.auto.pictureProtocol)
    }
}
