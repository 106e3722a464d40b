import XCTest
import NewsstandImaging
import NewsstandUI
@testable import NewsstandTerminal

/// The terminal's background colour (OSC 11) read from its answer, and the theme `auto` chooses from it.
final class TerminalBackgroundTests: XCTestCase {
    private func parse(_ text: String) -> TerminalAnswers { TerminalAnswers.parse(Array(text.utf8)) }
    private func color(_ red: UInt8, _ green: UInt8, _ blue: UInt8) -> RGBColor { RGBColor(red: red, green: green, blue: blue) }

    func testReadsEveryFormOfTheAnswer() {
        // xterm's answer as it starts (white background), ended by ST; and by BEL, as xterm answers a BEL-ended question.
        XCTAssertEqual(parse("\u{1B}]11;rgb:ffff/ffff/ffff\u{1B}\\\u{1B}[?62c").background, .white)
        XCTAssertEqual(parse("\u{1B}]11;rgb:0000/0000/0000\u{7}\u{1B}[?62c").background, .black)
        // 1 to 4 hex digits a channel, each scaled to 8 bits.
        XCTAssertEqual(BackgroundColorAnswer.parse(oscBody: "11;rgb:ff/ff/d7"), color(255, 255, 215))
        XCTAssertEqual(BackgroundColorAnswer.parse(oscBody: "11;rgb:f/8/0"), color(255, 136, 0))
        XCTAssertEqual(BackgroundColorAnswer.parse(oscBody: "11;rgb:fff/800/000"), color(255, 128, 0))
        XCTAssertEqual(BackgroundColorAnswer.parse(oscBody: "11;rgb:1e1e/2020/3030"), color(30, 32, 48))
        XCTAssertEqual(BackgroundColorAnswer.parse(oscBody: "11;RGB:FFFF/FFFF/DDDD"), color(255, 255, 221), "hex digits in either case")
        XCTAssertEqual(BackgroundColorAnswer.parse(oscBody: "11;rgba:0000/0000/0000/8000"), .black, "alpha ignored")
        XCTAssertEqual(BackgroundColorAnswer.parse(oscBody: "11;#fdf6e3"), color(253, 246, 227))
        XCTAssertEqual(BackgroundColorAnswer.parse(oscBody: "11;#fff"), .white)
        XCTAssertEqual(BackgroundColorAnswer.parse(oscBody: "11;#ffff00000000"), color(255, 0, 0))
    }

    func testIgnoresGarbage() {
        for body in ["11;", "11;?", "11;rgb:", "11;rgb:ff/ff", "11;rgb:ff/ff/ff/ff", "11;rgb:fffff/0/0", "11;rgb:gg/00/00",
                     "11;rgb://", "11;#ffff", "11;#zzzzzz", "11;white", "10;rgb:ffff/ffff/ffff", "4;1;rgb:ff/00/00",
                     "11;rgb:+f/0/0", "11;rgb:" + String(repeating: "f", count: 80)] {
            XCTAssertNil(BackgroundColorAnswer.parse(oscBody: body), body)
        }
        // An answer that never ends, or is cut by another sequence, gives no colour and loses nothing after it.
        let cut = parse("\u{1B}]11;rgb:ffff/ffff/ffff\u{1B}[?62;4c")
        XCTAssertNil(cut.background)
        XCTAssertTrue(cut.isComplete, "DA1 after an abandoned OSC is still read")
        XCTAssertTrue(cut.hasSixel)
        XCTAssertNil(parse("\u{1B}]11;rgb:ffff/ffff/ffff").background, "not ended")
        XCTAssertFalse(parse("\u{1B}]11;rgb:ffff/ffff/ffff").isComplete)
        XCTAssertEqual(parse("\u{1B}]11;rgb:zz/zz/zz\u{1B}\\ab\u{1B}[?62c").typed, Array("ab".utf8), "garbage is no key either")
    }

    func testTheQuestionIsAskedBeforeDA1() {
        let local = String(decoding: TerminalQuery.queries(throughTmux: false), as: UTF8.self)
        XCTAssertTrue(local.hasSuffix("\u{1B}]11;?\u{1B}\\\u{1B}[c"), "asked with ST, before DA1 ends the answers")
        let tmux = String(decoding: TerminalQuery.queries(throughTmux: true), as: UTF8.self)
        XCTAssertTrue(tmux.contains("\u{1B}[>0q\u{1B}]11;?\u{1B}\\\u{1B}[c"), "asked of tmux itself, which answers it")
    }

    func testLightOrDarkFromTheAnswerThenCOLORFGBGThenDark() {
        XCTAssertEqual(BackgroundChooser.choose(answer: .white, colorForegroundBackground: "15;0"), .light, "the answer wins")
        XCTAssertEqual(BackgroundChooser.choose(answer: color(253, 246, 227), colorForegroundBackground: nil), .light, "solarized light")
        XCTAssertEqual(BackgroundChooser.choose(answer: color(0, 43, 54), colorForegroundBackground: nil), .dark, "solarized dark")
        XCTAssertEqual(BackgroundChooser.choose(answer: color(30, 30, 30), colorForegroundBackground: "0;15"), .dark)
        XCTAssertEqual(BackgroundChooser.choose(answer: color(128, 128, 128), colorForegroundBackground: nil), .light, "mid grey takes black ink")
        XCTAssertEqual(BackgroundChooser.choose(answer: color(100, 100, 100), colorForegroundBackground: nil), .dark)
        XCTAssertEqual(BackgroundChooser.choose(answer: nil, colorForegroundBackground: "0;15"), .light)
        XCTAssertEqual(BackgroundChooser.choose(answer: nil, colorForegroundBackground: "0;default;7"), .light)
        XCTAssertEqual(BackgroundChooser.choose(answer: nil, colorForegroundBackground: "15;0"), .dark)
        XCTAssertEqual(BackgroundChooser.choose(answer: nil, colorForegroundBackground: "7;8"), .dark)
        for unknown in ["", "default", "15;default", "0;99", "x;y", String(repeating: "1;", count: 40) + "15"] {
            XCTAssertEqual(BackgroundChooser.choose(answer: nil, colorForegroundBackground: unknown), .dark, unknown)
        }
        XCTAssertEqual(BackgroundChooser.choose(answer: nil, colorForegroundBackground: nil), .dark)
    }

    func testAutoChoosesTheThemeForTheBackground() {
        let dark = Theme(name: "dark"), light = Theme(name: "paper", isLight: true)
        let automatic = ThemeChoice.followingBackground(dark: dark, light: light)
        XCTAssertTrue(automatic.followsBackground)
        XCTAssertEqual(automatic.theme(for: .light).name, "paper")
        XCTAssertEqual(automatic.theme(for: .dark).name, "dark")
        let fixed = ThemeChoice.fixed(dark)
        XCTAssertFalse(fixed.followsBackground)
        XCTAssertEqual(fixed.theme(for: .light).name, "dark", "a theme the user named stays")
    }
}
