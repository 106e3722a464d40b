import XCTest
import NewsstandImaging
import NewsstandUI
@testable import NewsstandPictures

/// What the backend sends for the pictures of successive frames: kitty pictures once, sixel pictures drawn after
/// the frame where they are, erased where they were.
final class PictureOutputTests: XCTestCase {
    static func picture(id: UInt32, columns: Int = 2, rows: Int = 2) -> TerminalPicture {
        TerminalPicture(id: id, columns: columns, rows: rows, image: RasterImage(width: columns * 4, height: rows * 6, red: 200, alpha: 255))
    }

    /// A 10×6 frame with `picture` drawn from (x, y), its rows above the frame cut off as an article scrolls.
    static func frame(_ pictures: [(TerminalPicture, x: Int, y: Int)]) -> CellBuffer {
        var buffer = CellBuffer(width: 10, height: 6)
        for (picture, x, y) in pictures {
            for row in 0..<picture.rows { buffer.placePictureRow(picture, row: row, x: x, y: y + row) }
        }
        return buffer
    }

    private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    /// An encoding queue with the protocol's own encoder.
    static func encoder(_ output: PictureEncodingQueue.Output) -> PictureEncodingQueue {
        PictureEncodingQueue(encode: PictureEncodingQueue.encoder(for: output))
    }

    /// Encodes what `frame` shows (its whole pictures and visible parts) and waits, so that the next update finds
    /// the bytes ready, as a frame drawn after the encoder's `onReady` does.
    static func encodeAhead(_ frame: CellBuffer, _ encoder: PictureEncodingQueue) {
        for picture in frame.pictures.values { encoder.prepare(.whole(picture), of: picture) }
        for placement in PicturePlacement.find(in: frame) {
            let part = PictureEncodingQueue.Part(id: placement.id, row: placement.row, column: placement.column,
                                                 rows: placement.rows, columns: placement.columns)
            encoder.prepare(part, of: frame.pictures[placement.id]!)
        }
        encoder.waitUntilIdle()
    }

    func testKittySendsEachPictureOnceAndDeletesThemAtTheEnd() throws {
        let a = Self.picture(id: 1), b = Self.picture(id: 2)
        let encoder = Self.encoder(.kittyPlaceholders(throughTmux: false))
        var sender = KittyPictureSender(throughTmux: false, capacity: 1, encoder: encoder)
        Self.encodeAhead(Self.frame([(a, 0, 0)]), encoder)
        let first = sender.commands(for: Self.frame([(a, 0, 0)]))
        XCTAssertEqual(first, try KittyGraphics.transmit(a))
        XCTAssertEqual(sender.commands(for: Self.frame([(a, 0, 2)])), [], "scrolling moves cells, sends nothing")
        Self.encodeAhead(Self.frame([(b, 0, 0)]), encoder)
        let second = text(sender.commands(for: Self.frame([(b, 0, 0)])))
        XCTAssertTrue(second.hasPrefix("\u{1B}_Ga=T,U=1,i=2,"), second)
        XCTAssertTrue(second.hasSuffix("\u{1B}_Ga=d,d=I,i=1,q=2\u{1B}\\"), "over capacity, the picture not shown is deleted")
        XCTAssertEqual(sender.sent, [2])
        XCTAssertEqual(text(sender.deleteAll()), "\u{1B}_Ga=d,d=I,i=2,q=2\u{1B}\\")
        XCTAssertEqual(sender.deleteAll(), [])

        let tmuxEncoder = Self.encoder(.kittyPlaceholders(throughTmux: true))
        var throughTmux = KittyPictureSender(throughTmux: true, encoder: tmuxEncoder)
        Self.encodeAhead(Self.frame([(a, 0, 0)]), tmuxEncoder)
        XCTAssertTrue(text(throughTmux.commands(for: Self.frame([(a, 0, 0)]))).hasPrefix("\u{1B}Ptmux;\u{1B}\u{1B}_Ga=T"))
    }

    func testPlacementsAreWholeRectangles() {
        let a = Self.picture(id: 3, columns: 3, rows: 4)
        XCTAssertEqual(PicturePlacement.find(in: Self.frame([(a, 2, -2)])),
                       [PicturePlacement(id: 3, x: 2, y: 0, row: 2, column: 0, rows: 2, columns: 3)], "scrolled half off the top")
        var covered = Self.frame([(a, 2, 1)])
        covered.write("x", x: 3, y: 2, style: .plain)
        XCTAssertEqual(PicturePlacement.find(in: covered), [], "a picture with text over it is not drawn")
    }

    func testSixelDrawnAfterTheFrameAndErasedOnScroll() throws {
        let a = Self.picture(id: 4)
        let encoder = Self.encoder(.sixel(background: .black))
        var drawer = OverlayPictureDrawer(encoder: encoder)
        Self.encodeAhead(Self.frame([(a, 1, 1)]), encoder)
        let first = drawer.update(for: Self.frame([(a, 1, 1)]))
        XCTAssertEqual(first.erase, [])
        let sixel = try SixelEncoder.encode(a.image, background: .black)
        XCTAssertEqual(first.draw, Array("\u{1B}7\u{1B}[2;2H".utf8) + sixel + Array("\u{1B}8".utf8), "at row 2, column 2 (1-based)")

        let again = drawer.update(for: Self.frame([(a, 1, 1)]))
        XCTAssertEqual(again.erase, [])
        XCTAssertEqual(again.draw, [], "an unchanged frame draws nothing")

        let scrolled = drawer.update(for: Self.frame([(a, 1, 0)]))
        XCTAssertEqual(scrolled.erase, [Rect(x: 1, y: 1, width: 2, height: 2)], "where it was is erased")
        XCTAssertTrue(text(scrolled.draw).hasPrefix("\u{1B}7\u{1B}[1;2H\u{1B}P"), "and it is drawn where it is")

        Self.encodeAhead(Self.frame([(a, 1, -1)]), encoder)
        let partly = drawer.update(for: Self.frame([(a, 1, -1)]))
        let bottomHalf = try SixelEncoder.encode(PictureEncodingQueue.crop(a.image, x: 0, y: 6, width: 8, height: 6), background: .black)
        XCTAssertEqual(partly.draw, Array("\u{1B}7\u{1B}[1;2H".utf8) + bottomHalf + Array("\u{1B}8".utf8), "only the visible row is drawn")

        let otherScreen = drawer.update(for: CellBuffer(width: 10, height: 6))
        XCTAssertEqual(otherScreen.erase, [Rect(x: 1, y: 0, width: 2, height: 1)])
        XCTAssertEqual(otherScreen.draw, [])
        XCTAssertEqual(text(OverlayPictureDrawer.eraseCommands(otherScreen.erase)), "\u{1B}7\u{1B}[0m\u{1B}[1;2H\u{1B}[2X\u{1B}8")

        _ = drawer.update(for: Self.frame([(a, 1, 1)]))
        drawer.forgetScreen()
        XCTAssertFalse(drawer.update(for: Self.frame([(a, 1, 1)])).draw.isEmpty, "after the screen was cleared, pictures are drawn again")
    }

    func testITermDrawnOverItsCells() throws {
        let a = Self.picture(id: 5, columns: 3, rows: 1)
        let encoder = Self.encoder(.iterm)
        var drawer = OverlayPictureDrawer(encoder: encoder)
        Self.encodeAhead(Self.frame([(a, 0, 5)]), encoder)
        let work = drawer.update(for: Self.frame([(a, 0, 5)]))
        XCTAssertEqual(work.draw, Array("\u{1B}7\u{1B}[6;1H".utf8) + (try ITermImages.inline(a.image, columns: 3, rows: 1)) + Array("\u{1B}8".utf8))
    }
}
