import XCTest
@testable import NewsstandUI

/// A frame kept between runs comes back cell for cell, and bytes that are not such a frame (cut short, lengthened,
/// naming a style that is not there, holding a control character) come back as nothing rather than as a screen.
final class CellBufferArchiveTests: XCTestCase {
    func testAFrameComesBackCellForCell() throws {
        var buffer = CellBuffer(width: 12, height: 3, style: TextStyle(background: .rgb(250, 248, 240)))
        buffer.write("Maps & Margins", x: 0, y: 0, style: TextStyle(foreground: .indexed(24), attributes: [.bold]))
        buffer.write("日本 é ▀▀", x: 1, y: 1, style: TextStyle(foreground: .basic(3), background: .default, attributes: [.reverse, .underline]))
        buffer.write("TAP", x: 9, y: 2, style: .plain)
        let bytes = try XCTUnwrap(CellBufferArchive.encode(buffer))
        let back = try XCTUnwrap(CellBufferArchive.decode(bytes[...]))
        XCTAssertEqual(back, buffer)
        XCTAssertTrue(back[2, 1].isContinuation, "the wide character's second cell is kept as such")
        XCTAssertLessThan(bytes.count, 12 * 3 * 6, "each style is written once")
    }

    func testAnEmptyFrameComesBack() throws {
        let buffer = CellBuffer(width: 0, height: 0)
        XCTAssertEqual(CellBufferArchive.decode(try XCTUnwrap(CellBufferArchive.encode(buffer))[...]), buffer)
    }

    func testAFrameWithAPictureIsNotKept() {
        var buffer = CellBuffer(width: 4, height: 2)
        buffer.set(1, 1, PictureCell(id: 7, row: 0, column: 0).cell)
        XCTAssertNil(CellBufferArchive.encode(buffer))
    }

    func testBytesThatAreNotAFrameGiveNothing() throws {
        var buffer = CellBuffer(width: 5, height: 2)
        buffer.write("ab", x: 0, y: 0, style: TextStyle(foreground: .rgb(1, 2, 3)))
        let bytes = try XCTUnwrap(CellBufferArchive.encode(buffer))
        for length in 0..<bytes.count {
            XCTAssertNil(CellBufferArchive.decode(bytes[..<length]), "cut to \(length) bytes")
        }
        XCTAssertNil(CellBufferArchive.decode((bytes + [0])[...]), "a byte too many")
        var wrongMagic = bytes
        wrongMagic[0] = UInt8(ascii: "X")
        XCTAssertNil(CellBufferArchive.decode(wrongMagic[...]))
        var newerVersion = bytes
        newerVersion[4] = 2
        XCTAssertNil(CellBufferArchive.decode(newerVersion[...]))
        // Header: magic, version, width, height, style count (2); two styles of 9 bytes; then the first cell's style index.
        let firstCell = 4 + 1 + 2 + 2 + 2 + 2 * 9
        var missingStyle = bytes
        missingStyle[firstCell] = 9
        XCTAssertNil(CellBufferArchive.decode(missingStyle[...]), "a style index past the table")
        var unknownColor = bytes
        unknownColor[11] = 7
        XCTAssertNil(CellBufferArchive.decode(unknownColor[...]), "a colour of no known kind")
        var huge = bytes
        huge[5] = 0xFF
        huge[6] = 0xFF
        XCTAssertNil(CellBufferArchive.decode(huge[...]), "a width larger than any terminal is refused before anything is made")
    }

    func testAControlCharacterOrBrokenUTF8IsRefused() throws {
        var buffer = CellBuffer(width: 3, height: 1)
        buffer.write("abc", x: 0, y: 0, style: .plain)
        let bytes = try XCTUnwrap(CellBufferArchive.encode(buffer))
        let firstSymbol = 4 + 1 + 2 + 2 + 2 + 9 + 2 + 1
        XCTAssertEqual(bytes[firstSymbol], UInt8(ascii: "a"))
        for replacement: UInt8 in [0x1B, 0x07, 0x7F, 0xFF, 0x80] {
            var changed = bytes
            changed[firstSymbol] = replacement
            XCTAssertNil(CellBufferArchive.decode(changed[...]), "byte \(replacement) in a symbol")
        }
        var c1 = bytes
        c1.replaceSubrange((firstSymbol - 1)...firstSymbol, with: [2, 0xC2, 0x9B])
        XCTAssertNil(CellBufferArchive.decode(c1[...]), "CSI as a C1 character")
    }
}
