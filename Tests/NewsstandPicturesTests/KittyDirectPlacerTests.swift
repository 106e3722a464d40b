import XCTest
import NewsstandImaging
import NewsstandUI
@testable import NewsstandPictures

/// Kitty pictures placed directly at their cells (no Unicode placeholders), with only the keys every kitty
/// graphics terminal knows.
final class KittyDirectPlacerTests: XCTestCase {
    private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
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

    func testPlacedDirectlyWithTheKeysEveryKittyKnows() throws {
        let a = PictureOutputTests.picture(id: 7, columns: 3, rows: 2) // 12 × 12 pixels: cells of 4 × 6
        let encoder = PictureOutputTests.encoder(.kittyDirect)
        var placer = KittyDirectPlacer(encoder: encoder)
        PictureOutputTests.encodeAhead(frame([(a, 2, 1)]), encoder)
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
        PictureOutputTests.encodeAhead(frame([(a, 0, 0)]), encoder) // sent bytes are not kept: made again
        let afresh = placer.update(for: frame([(a, 0, 0)]))
        XCTAssertEqual(text(afresh.before), "\u{1B}_Ga=d,d=I,i=7,q=2\u{1B}\\")
        XCTAssertEqual(text(afresh.after), text(try KittyGraphics.transmit(a, forPlaceholders: false) + back.after))

        // Quitting deletes every picture with its data.
        XCTAssertEqual(text(placer.deleteAll()), "\u{1B}_Ga=d,d=I,i=7,q=2\u{1B}\\")
        XCTAssertEqual(placer.deleteAll(), [])
    }

    func testPicturesBeyondCapacityAreFreedWhenNotShown() {
        let a = PictureOutputTests.picture(id: 1), b = PictureOutputTests.picture(id: 2)
        let encoder = PictureOutputTests.encoder(.kittyDirect)
        var placer = KittyDirectPlacer(capacity: 1, encoder: encoder)
        PictureOutputTests.encodeAhead(frame([(a, 0, 0)]), encoder)
        _ = placer.update(for: frame([(a, 0, 0)]))
        PictureOutputTests.encodeAhead(frame([(b, 4, 0)]), encoder)
        let next = placer.update(for: frame([(b, 4, 0)]))
        XCTAssertEqual(text(next.before), "\u{1B}_Ga=d,d=i,i=1,p=1,q=2\u{1B}\\")
        XCTAssertTrue(text(next.after).hasSuffix("\u{1B}_Ga=d,d=I,i=1,q=2\u{1B}\\"), "over capacity, the picture not shown is freed")
        XCTAssertEqual(placer.sent, [2])
    }
}
