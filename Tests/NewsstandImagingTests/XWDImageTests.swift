import Foundation
import NewsstandImaging
@testable import TerminalCamera
import XCTest

/// The xwd dumps the terminal camera reads: true-colour ZPixmaps of either byte order; anything else refused.
final class XWDImageTests: XCTestCase {
    /// A dump of `pixels` (0xRRGGBB each) `width` wide, 32 bits a pixel, in `lsbFirst` or MSB-first byte order.
    private func dump(width: Int, pixels: [UInt32], lsbFirst: Bool, format: UInt32 = 2) -> Data {
        let name = Array("x\0".utf8)
        let header: [UInt32] = [UInt32(100 + name.count), 7, format, 24, UInt32(width), UInt32(pixels.count / width), 0,
                                lsbFirst ? 0 : 1, 32, lsbFirst ? 0 : 1, 32, 32, UInt32(width * 4), 4,
                                0xFF0000, 0x00FF00, 0x0000FF, 8, 256, 0, UInt32(width), UInt32(pixels.count / width), 0, 0, 0]
        var data = Data()
        for field in header { withUnsafeBytes(of: field.bigEndian) { data.append(contentsOf: $0) } }
        data.append(contentsOf: name)
        for pixel in pixels {
            withUnsafeBytes(of: lsbFirst ? pixel.littleEndian : pixel.bigEndian) { data.append(contentsOf: $0) }
        }
        return data
    }

    func testTrueColourDumpsOfEitherByteOrderAreRead() throws {
        for lsbFirst in [true, false] {
            let image = try XWDImage.decode(dump(width: 2, pixels: [0xDC28B4, 0x00FF00, 0x000000, 0xFFFFFF], lsbFirst: lsbFirst))
            XCTAssertEqual(image.width, 2)
            XCTAssertEqual(image.height, 2)
            XCTAssertEqual(Array(image.pixels[0..<4]), [0xDC, 0x28, 0xB4, 255])
            XCTAssertEqual(Array(image.pixels[4..<8]), [0, 255, 0, 255])
            XCTAssertEqual(Array(image.pixels[12..<16]), [255, 255, 255, 255])
        }
    }

    func testOtherFormsAndShortDumpsAreRefusedSayingWhat() {
        XCTAssertThrowsError(try XWDImage.decode(dump(width: 1, pixels: [0], lsbFirst: true, format: 1))) {
            XCTAssertTrue("\($0)".contains("format 1"), "\($0)")
        }
        XCTAssertThrowsError(try XWDImage.decode(dump(width: 2, pixels: [0, 0, 0, 0], lsbFirst: true).dropLast(3))) {
            XCTAssertTrue("\($0)".contains("shorter than its 2×2 pixels"), "\($0)")
        }
        XCTAssertThrowsError(try XWDImage.decode(Data()))
    }
}
