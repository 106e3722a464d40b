import XCTest
import NewsstandImaging
@testable import NewsstandUI

/// Pictures as picture cells in the cell buffer: written, read back, clipped, and moved by the diff on scroll.
final class PictureCellTests: XCTestCase {
    static func picture(id: UInt32, columns: Int = 3, rows: Int = 2) -> TerminalPicture {
        TerminalPicture(id: id, columns: columns, rows: rows, image: RasterImage(width: columns * 2, height: rows * 4))
    }

    func testAPictureCellIsABlankCellThatNamesItsPicture() {
        let cell = PictureCell(id: 527, row: 1, column: 2).cell
        XCTAssertEqual(cell.symbol, " ", "the interface writes no protocol's symbols")
        XCTAssertEqual(cell.style, .plain)
        XCTAssertEqual(PictureCell(cell), PictureCell(id: 527, row: 1, column: 2))
        XCTAssertNil(PictureCell(Cell(symbol: "x")))
        XCTAssertNil(PictureCell(Cell()))
        XCTAssertNotEqual(cell, Cell(), "the diff sees a picture cell as changed from a blank one")
    }

    /// A picture cell is eight bytes, so that a cell, which has room for one, stays 40: a screen's buffer is made for
    /// every frame. Its row and column read back as given, clamped to 16 bits.
    func testAPictureCellIsSmallAndKeepsItsPlace() {
        XCTAssertEqual(MemoryLayout<PictureCell>.size, 8)
        XCTAssertLessThanOrEqual(MemoryLayout<Cell>.stride, 40)
        let cell = PictureCell(id: .max, row: 65_535, column: 300)
        XCTAssertEqual([cell.id, UInt32(cell.row), UInt32(cell.column)], [.max, 65_535, 300])
        XCTAssertEqual(PictureCell(id: 1, row: -3, column: 70_000), PictureCell(id: 1, row: 0, column: 65_535), "clamped")
        XCTAssertNotEqual(PictureCell(id: 1, row: 2, column: 3), PictureCell(id: 1, row: 3, column: 2))
    }

    func testPlacingClipsAndRecordsThePicture() {
        var buffer = CellBuffer(width: 4, height: 3)
        let picture = Self.picture(id: 5)
        buffer.placePicture(picture, in: Rect(x: 2, y: 2, width: 2, height: 5))
        XCTAssertEqual(buffer.pictures[5], picture)
        XCTAssertEqual(PictureCell(buffer[2, 2]), PictureCell(id: 5, row: 0, column: 0))
        XCTAssertEqual(PictureCell(buffer[3, 2]), PictureCell(id: 5, row: 0, column: 1))
        XCTAssertNil(PictureCell(buffer[1, 2]))
        XCTAssertEqual((0..<3).flatMap { y in (0..<4).compactMap { PictureCell(buffer[$0, y]) } }.count, 2, "clipped to the area and buffer")
        var empty = CellBuffer(width: 4, height: 3)
        empty.placePicture(picture, in: Rect(x: 0, y: 5, width: 4, height: 2))
        XCTAssertTrue(empty.pictures.isEmpty, "a picture wholly off the buffer is not recorded")
    }

    func testScrollingMovesThePlaceholdersInTheDiff() {
        let picture = Self.picture(id: 9, columns: 2, rows: 2)
        func frame(top: Int) -> CellBuffer {
            var buffer = CellBuffer(width: 3, height: 3)
            for row in 0..<2 { buffer.placePictureRow(picture, row: row, x: 0, y: top + row) }
            return buffer
        }
        let changes = BufferDiff.changes(from: frame(top: 1), to: frame(top: 0))
        let moved = changes.map { ($0.x, $0.y, PictureCell($0.cell)) }
        XCTAssertEqual(moved.count, 6, "rows 0–2 of column 0–1 change")
        XCTAssertTrue(moved.contains { $0.0 == 0 && $0.1 == 0 && $0.2 == PictureCell(id: 9, row: 0, column: 0) })
        XCTAssertTrue(moved.contains { $0.0 == 1 && $0.1 == 1 && $0.2 == PictureCell(id: 9, row: 1, column: 1) })
        XCTAssertTrue(moved.contains { $0.0 == 0 && $0.1 == 2 && $0.2 == nil }, "the row the picture left is blanked")
    }
}
