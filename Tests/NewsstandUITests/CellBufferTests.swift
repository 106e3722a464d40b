import XCTest
@testable import NewsstandUI

final class CellBufferTests: XCTestCase {
    func testWriteClipsToWidthAndBuffer() {
        var buffer = CellBuffer(width: 10, height: 2)
        XCTAssertEqual(buffer.write("Hello, world", x: 2, y: 0, style: .plain), 8)
        XCTAssertEqual(buffer.write("abcdef", x: 0, y: 1, style: .plain, maxWidth: 3), 3)
        XCTAssertEqual(buffer.lines(), ["  Hello, w", "abc"])
    }

    func testWideCharactersTakeTwoCellsAndAreNeverSplit() {
        var buffer = CellBuffer(width: 5, height: 1)
        XCTAssertEqual(buffer.write("金継ぎ", x: 0, y: 0, style: .plain), 4) // the third would need columns 4–5
        XCTAssertEqual(buffer[0, 0].symbol, "金")
        XCTAssertTrue(buffer[1, 0].isContinuation)
        XCTAssertEqual(buffer[2, 0].symbol, "継")
        XCTAssertEqual(buffer[4, 0].symbol, " ")
        XCTAssertEqual(buffer.lines(), ["金継"])
    }

    func testOverwritingHalfAWideCharacterBlanksTheOtherHalf() {
        var buffer = CellBuffer(width: 4, height: 1)
        buffer.write("金", x: 1, y: 0, style: .plain)
        buffer.write("x", x: 2, y: 0, style: .plain) // right half
        XCTAssertEqual(buffer[1, 0].symbol, " ")
        XCTAssertEqual(buffer[2, 0].symbol, "x")
        buffer.write("継", x: 0, y: 0, style: .plain)
        buffer.write("y", x: 0, y: 0, style: .plain) // left half
        XCTAssertEqual(buffer[1, 0].symbol, " ")
        XCTAssertFalse(buffer.cells.contains { $0.isContinuation })
    }

    func testControlCharactersNeverReachTheBuffer() {
        var buffer = CellBuffer(width: 20, height: 1)
        buffer.write("a\u{1B}[2Jb\u{7}c\u{9B}d", x: 0, y: 0, style: .plain)
        let text = buffer.lines()[0]
        XCTAssertFalse(text.unicodeScalars.contains { $0.value < 0x20 || (0x7F..<0xA0).contains($0.value) })
        XCTAssertTrue(text.hasPrefix("a\u{FFFD}[2Jb\u{FFFD}c\u{FFFD}d"))
    }

    func testZeroSizedBufferIgnoresWrites() {
        var buffer = CellBuffer(width: 0, height: 0)
        XCTAssertEqual(buffer.write("text", x: 0, y: 0, style: .plain), 0)
        buffer.fill(Rect(x: -3, y: -3, width: 10, height: 10), style: .plain)
        XCTAssertEqual(buffer.lines(), [])
    }
}

final class BufferDiffTests: XCTestCase {
    func testIdenticalFramesHaveNoChanges() {
        var buffer = CellBuffer(width: 8, height: 3)
        buffer.write("same", x: 1, y: 1, style: .plain)
        XCTAssertEqual(BufferDiff.changes(from: buffer, to: buffer), [])
    }

    func testOnlyChangedCellsAreReported() {
        var old = CellBuffer(width: 8, height: 2)
        old.write("abcd", x: 0, y: 0, style: .plain)
        var new = old
        new.write("X", x: 2, y: 0, style: .plain)
        new.write("Y", x: 7, y: 1, style: TextStyle(attributes: .bold))
        let changes = BufferDiff.changes(from: old, to: new)
        XCTAssertEqual(changes.map { "\($0.x),\($0.y),\($0.cell.symbol)" }, ["2,0,X", "7,1,Y"])
    }

    func testStyleOnlyChangeIsReported() {
        var old = CellBuffer(width: 3, height: 1)
        old.write("abc", x: 0, y: 0, style: .plain)
        var new = CellBuffer(width: 3, height: 1)
        new.write("abc", x: 0, y: 0, style: .plain)
        new.restyle(Rect(x: 1, y: 0, width: 1, height: 1)) { $0.adding(.reverse) }
        XCTAssertEqual(BufferDiff.changes(from: old, to: new).map(\.x), [1])
    }

    func testFirstFrameOrResizeDrawsEverythingButContinuations() {
        var buffer = CellBuffer(width: 4, height: 2)
        buffer.write("金a", x: 0, y: 0, style: .plain)
        XCTAssertEqual(BufferDiff.changes(from: nil, to: buffer).count, 7)
        XCTAssertEqual(BufferDiff.changes(from: CellBuffer(width: 3, height: 2), to: buffer).count, 7)
    }
}
