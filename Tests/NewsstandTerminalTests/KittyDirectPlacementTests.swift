import XCTest
import NewsstandImaging
import NewsstandPictures
import NewsstandUI
@testable import NewsstandTerminal

/// Kitty by what the terminal can do: Unicode placeholders only where it is known to draw them; elsewhere
/// pictures placed directly at their cells, with only the keys every kitty graphics terminal knows.
final class KittyDirectPlacementTests: XCTestCase {
    private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
    private func answers(_ text: String) -> TerminalAnswers { TerminalAnswers.parse(Array(text.utf8)) }
    private func frame(_ pictures: [(TerminalPicture, x: Int, y: Int)]) -> CellBuffer { PictureOutputTests.frame(pictures) }

    /// The keys of every kitty graphics command in `output`.
    private func graphicsKeys(_ output: String) -> Set<String> {
        var keys: Set<String> = []
        for command in output.components(separatedBy: "\u{1B}_G").dropFirst() {
            let control = command.prefix { $0 != ";" && $0 != "\u{1B}" }
            for pair in control.split(separator: ",") { keys.insert(String(pair.prefix { $0 != "=" })) }
        }
        return keys
    }

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

    func testPlacedDirectlyWithTheKeysEveryKittyKnows() throws {
        let a = PictureOutputTests.picture(id: 7, columns: 3, rows: 2) // 12 × 12 pixels: cells of 4 × 6
        var placer = KittyDirectPlacer()
        let first = placer.update(for: frame([(a, 2, 1)]))
        XCTAssertEqual(first.before, [])
        let expected = try KittyGraphics.transmit(a, forPlaceholders: false)
            + Array("\u{1B}7\u{1B}[2;3H\u{1B}_Ga=p,i=7,p=1,x=0,y=0,w=12,h=12,c=3,r=2,C=1,q=2\u{1B}\\\u{1B}8".utf8)
        XCTAssertEqual(text(first.after), text(expected), "sent once, placed at row 2, column 3 (1-based), the cursor kept")
        XCTAssertTrue(text(first.after).hasPrefix("\u{1B}_Ga=t,i=7,q=2,f=100,m=0;"), text(first.after).prefix(40).debugDescription)
        XCTAssertEqual(graphicsKeys(text(first.after)), ["a", "i", "q", "f", "m", "p", "x", "y", "w", "h", "c", "r", "C"], "no U")

        let same = placer.update(for: frame([(a, 2, 1)]))
        XCTAssertEqual(same.before + same.after, [], "nothing moved: nothing sent")

        // Scrolled up one row: the picture's top row is off the screen; the rest is placed again, not sent again.
        let scrolled = placer.update(for: frame([(a, 2, -1)]))
        XCTAssertEqual(scrolled.before, [], "placing it again moves its one placement")
        XCTAssertEqual(text(scrolled.after), "\u{1B}7\u{1B}[1;3H\u{1B}_Ga=p,i=7,p=1,x=0,y=6,w=12,h=6,c=3,r=1,C=1,q=2\u{1B}\\\u{1B}8")

        // Another screen: the placement is deleted before the frame, the picture's data kept.
        let gone = placer.update(for: frame([]))
        XCTAssertEqual(text(gone.before), "\u{1B}_Ga=d,d=i,i=7,p=1,q=2\u{1B}\\")
        XCTAssertEqual(gone.after, [])
        let back = placer.update(for: frame([(a, 0, 0)]))
        XCTAssertEqual(text(back.after), "\u{1B}7\u{1B}[1;1H\u{1B}_Ga=p,i=7,p=1,x=0,y=0,w=12,h=12,c=3,r=2,C=1,q=2\u{1B}\\\u{1B}8")

        // A resize or cleared screen (which frees kitty's pictures): each is freed outright, sent and placed again.
        placer.forgetScreen()
        let afresh = placer.update(for: frame([(a, 0, 0)]))
        XCTAssertEqual(text(afresh.before), "\u{1B}_Ga=d,d=I,i=7,q=2\u{1B}\\")
        XCTAssertEqual(text(afresh.after), text(try KittyGraphics.transmit(a, forPlaceholders: false) + back.after))

        // Quitting deletes every picture with its data.
        XCTAssertEqual(text(placer.deleteAll()), "\u{1B}_Ga=d,d=I,i=7,q=2\u{1B}\\")
        XCTAssertEqual(placer.deleteAll(), [])
    }

    func testPicturesBeyondCapacityAreFreedWhenNotShown() {
        let a = PictureOutputTests.picture(id: 1), b = PictureOutputTests.picture(id: 2)
        var placer = KittyDirectPlacer(capacity: 1)
        _ = placer.update(for: frame([(a, 0, 0)]))
        let next = placer.update(for: frame([(b, 4, 0)]))
        XCTAssertEqual(text(next.before), "\u{1B}_Ga=d,d=i,i=1,p=1,q=2\u{1B}\\")
        XCTAssertTrue(text(next.after).hasSuffix("\u{1B}_Ga=d,d=I,i=1,q=2\u{1B}\\"), "over capacity, the picture not shown is freed")
        XCTAssertEqual(placer.sent, [2])
    }
}
