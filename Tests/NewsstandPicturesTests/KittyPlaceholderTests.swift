import XCTest
import NewsstandImaging
@testable import NewsstandPictures

/// Kitty's Unicode placeholders, made below the interface: the symbol, its diacritics, and the image id packed
/// into the colour and the third diacritic.
final class KittyPlaceholderTests: XCTestCase {
    func testPlaceholderCellsByteForByte() throws {
        // Picture 527 is kitty image 0x0200_0011: high byte 2, low byte 0x11.
        XCTAssertEqual(KittyPlaceholder.imageID(for: 527), 0x0200_0011)
        let cell = try XCTUnwrap(KittyPlaceholder.cell(picture: 527, row: 1, column: 2))
        XCTAssertEqual(cell.symbol.unicodeScalars.map(\.value), [0x10EEEE, 0x030D, 0x030E, 0x030E], "row 1, column 2, high byte 2")
        XCTAssertEqual(cell.colour, 0x11, "the low byte is the colour")
        XCTAssertEqual(KittyPlaceholder.read(symbol: cell.symbol, colour: cell.colour)?.picture, 527)
        XCTAssertEqual(KittyPlaceholder.read(symbol: cell.symbol, colour: cell.colour)?.row, 1)
        XCTAssertEqual(KittyPlaceholder.read(symbol: cell.symbol, colour: cell.colour)?.column, 2)
        XCTAssertNil(KittyPlaceholder.read(symbol: "x", colour: 1))
        XCTAssertEqual(KittyPlaceholder.maximumSpan, 297)
        XCTAssertEqual(KittyPlaceholder.diacritics.last, 0x1D244)
        XCTAssertNil(KittyPlaceholder.cell(picture: 1, row: 297, column: 0), "beyond the diacritics: no placeholder")
    }

    func testImageIDsNeverHaveALowByteOfZeroAndRoundTrip() {
        XCTAssertEqual(KittyPlaceholder.imageID(for: 1), 1)
        XCTAssertEqual(KittyPlaceholder.imageID(for: 255), 255, "the first 255 pictures are their own image ids")
        XCTAssertEqual(KittyPlaceholder.imageID(for: 256), 0x0100_0001)
        XCTAssertEqual(KittyPlaceholder.imageID(for: TerminalPicture.idCount), 0xFE00_00FF)
        var seen = Set<UInt32>()
        for id in UInt32(1)...TerminalPicture.idCount {
            let image = KittyPlaceholder.imageID(for: id)
            XCTAssertNotEqual(image & 0xFF, 0)
            XCTAssertLessThan(image >> 24, 255)
            XCTAssertEqual(KittyPlaceholder.pictureID(for: image), id)
            seen.insert(image)
        }
        XCTAssertEqual(seen.count, Int(TerminalPicture.idCount), "every picture has its own image id")
    }

    func testTransmitNamesTheImageID() throws {
        let picture = TerminalPicture(id: 300, columns: 1, rows: 1, image: RasterImage(width: 2, height: 2, red: 1, alpha: 255))
        let text = String(decoding: try KittyGraphics.transmit(picture), as: UTF8.self)
        XCTAssertTrue(text.hasPrefix("\u{1B}_Ga=T,U=1,i=\(0x0100_002D),"), String(text.prefix(40)))
        XCTAssertEqual(String(decoding: KittyGraphics.delete(id: 300), as: UTF8.self), "\u{1B}_Ga=d,d=I,i=\(0x0100_002D),q=2\u{1B}\\")
    }
}
