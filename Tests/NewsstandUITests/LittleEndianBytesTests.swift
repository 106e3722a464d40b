import XCTest
@testable import NewsstandUI

/// The little-endian fields of Newsstand's own files: written low byte first, read back in order, and nothing read
/// past the end.
final class LittleEndianBytesTests: XCTestCase {
    func testIntegersGoLowByteFirstAndComeBack() {
        var bytes: [UInt8] = []
        bytes.append(littleEndian: UInt16(0x0102))
        bytes.append(littleEndian: UInt64(0x0102_0304_0506_0708))
        bytes.append(7)
        XCTAssertEqual(bytes, [0x02, 0x01, 0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01, 7])
        bytes.withUnsafeBufferPointer { buffer in
            var reader = LittleEndianReader(buffer)
            XCTAssertEqual(reader.integer(UInt16.self), 0x0102)
            XCTAssertEqual(reader.integer(UInt64.self), 0x0102_0304_0506_0708)
            XCTAssertEqual(Array(reader.rest), [7])
            XCTAssertEqual(reader.byte(), 7)
            XCTAssertTrue(reader.isAtEnd)
            XCTAssertNil(reader.byte())
        }
    }

    func testNothingIsReadPastTheEnd() {
        let bytes: [UInt8] = [1, 2, 3]
        bytes.withUnsafeBufferPointer { buffer in
            var reader = LittleEndianReader(buffer)
            XCTAssertNil(reader.integer(UInt64.self), "eight bytes from three")
            XCTAssertNil(reader.take(-1))
            XCTAssertEqual(reader.integer(UInt16.self), 0x0201, "a failed read takes nothing")
            XCTAssertNil(reader.integer(UInt16.self))
            XCTAssertEqual(reader.take(1).map(Array.init), [3])
            XCTAssertTrue(reader.isAtEnd)
            XCTAssertEqual(reader.take(0)?.count, 0)
        }
    }

    func testAnExpectedHeaderIsReadOnlyWhenItIsThere() {
        let bytes: [UInt8] = Array("NSLS".utf8) + [1]
        bytes.withUnsafeBufferPointer { buffer in
            var reader = LittleEndianReader(buffer)
            XCTAssertFalse(reader.expect(Array("NSCB".utf8)), "another magic")
            XCTAssertFalse(reader.expect(bytes + [0]), "more than there is")
            XCTAssertTrue(reader.expect(Array("NSLS".utf8)))
            XCTAssertEqual(reader.byte(), 1, "a refused header took nothing; an accepted one took only itself")
            XCTAssertTrue(reader.isAtEnd)
        }
    }
}
