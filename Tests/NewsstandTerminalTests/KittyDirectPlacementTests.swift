import XCTest
import NewsstandImaging
import NewsstandPictures
import NewsstandUI
@testable import NewsstandTerminal

/// Kitty by what the terminal can do: Unicode placeholders only where it is known to draw them; elsewhere
/// pictures placed directly at their cells (`KittyDirectPlacerTests`).
final class KittyDirectPlacementTests: XCTestCase {
    private func answers(_ text: String) -> TerminalAnswers { TerminalAnswers.parse(Array(text.utf8)) }

    func testPlaceholdersOnlyForKittyFrom0_28AndKnownTerminals() {
        let kitty0265 = "\u{1B}_Gi=31;OK\u{1B}\\\u{1B}P>|kitty(0.26.5)\u{1B}\\\u{1B}[?62;c"
        func choice(_ text: String, _ environment: [String: String] = ["LANG": "C.UTF-8"], setting: CoverModeSetting? = nil) -> PictureModeChooser.Choice {
            PictureModeChooser.choose(setting: setting, answers: answers(text), colorMode: .indexed, environment: environment)
        }
        XCTAssertEqual(choice(kitty0265).picture, .kitty, "Debian 12's kitty answers the query: kitty pictures")
        XCTAssertFalse(choice(kitty0265).kittyPlaceholders, "but no placeholders before 0.28")
        XCTAssertTrue(choice(TerminalAnswersTests.kitty).kittyPlaceholders, "kitty 0.35.2")
        XCTAssertTrue(choice("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}P>|kitty(0.28.0)\u{1B}\\\u{1B}[?62;c").kittyPlaceholders)
        XCTAssertTrue(choice("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}P>|kitty(1.0)\u{1B}\\\u{1B}[?62;c").kittyPlaceholders)
        XCTAssertFalse(choice("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}P>|kitty(0.27.99)\u{1B}\\\u{1B}[?62;c").kittyPlaceholders)
        XCTAssertFalse(choice("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}P>|kitty(x.y)\u{1B}\\\u{1B}[?62;c").kittyPlaceholders, "a version unread is no proof")
        XCTAssertTrue(choice("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}P>|ghostty 1.1.3\u{1B}\\\u{1B}[?62;22c").kittyPlaceholders)
        XCTAssertFalse(choice("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[?62;c").kittyPlaceholders, "no name: placed directly")
        XCTAssertEqual(choice("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[?62;c").picture, .kitty)
        XCTAssertFalse(choice("", ["KITTY_WINDOW_ID": "3", "LANG": "C.UTF-8"]).kittyPlaceholders, "an environment hint tells no version")
        XCTAssertFalse(choice("", setting: .kitty).kittyPlaceholders, "asked for by name, still only what the terminal claimed")
        XCTAssertTrue(choice(TerminalAnswersTests.tmuxInsideKitty, ["TMUX": "x", "LANG": "C.UTF-8"]).kittyPlaceholders,
                      "under tmux only placeholders can follow the panes")
        XCTAssertFalse(choice(TerminalAnswersTests.tmuxInsideOldKitty, ["TMUX": "x", "LANG": "C.UTF-8"]).kittyPlaceholders,
                       "under tmux, the outer kitty's own version decides")
        XCTAssertFalse(choice(TerminalAnswersTests.xtermVT340).kittyPlaceholders, "sixel is no kitty")
    }
}
