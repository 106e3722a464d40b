import Foundation
import XCTest
@testable import NewsstandImaging

/// Format sniffing, size guards and EXIF orientation, on generated or patched files.
final class ImageDecoderTests: XCTestCase {
    func testFormatIsSniffedFromTheBytes() {
        XCTAssertEqual(ImageDecoder.format(of: Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0])), .png)
        XCTAssertEqual(ImageDecoder.format(of: Data([0xFF, 0xD8, 0xFF, 0xE0])), .jpeg)
        XCTAssertNil(ImageDecoder.format(of: Data()))
        XCTAssertNil(ImageDecoder.format(of: Data("GIF89a".utf8)))
        XCTAssertNil(ImageDecoder.format(of: Data([0xFF, 0xD8])))
        // Works on Data slices whose indices don't start at zero.
        let sliced = Data([0, 0, 0xFF, 0xD8, 0xFF, 0xDB]).dropFirst(2)
        XCTAssertEqual(ImageDecoder.format(of: sliced), .jpeg)
    }

    func testFormatsAreNamedWhetherOrNotTheyAreDecoded() {
        func name(_ bytes: [UInt8]) -> String? { ImageDecoder.formatName(of: Data(bytes)) }
        XCTAssertEqual(name([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), "PNG")
        XCTAssertEqual(name([0xFF, 0xD8, 0xFF, 0xE0]), "JPEG")
        XCTAssertEqual(name(Array("GIF87a".utf8)), "GIF")
        XCTAssertEqual(name(Array("RIFF\u{0}\u{1}\u{0}\u{0}WEBPVP8 ".utf8)), "WebP")
        XCTAssertEqual(name([0, 0, 0, 0x1C] + Array("ftypavif".utf8)), "AVIF")
        XCTAssertEqual(name([0, 0, 0, 0x18] + Array("ftypheic".utf8)), "HEIF")
        XCTAssertEqual(name([0xFF, 0x0A, 0x01]), "JPEG XL")
        XCTAssertEqual(name(Array("II*".utf8) + [0, 8, 0]), "TIFF")
        XCTAssertEqual(name(Array("BM".utf8) + [0x36, 0, 0, 0]), "BMP")
        XCTAssertNil(name(Array("RIFF\u{0}\u{0}\u{0}\u{0}WAVE".utf8)), "a RIFF that is not WebP")
        XCTAssertNil(name(Array("<html>".utf8)))
        XCTAssertNil(name([]))
    }

    func testUnknownBytesThrowInPlainWords() {
        XCTAssertThrowsError(try ImageDecoder.decode(Data("hello, world".utf8))) { error in
            XCTAssertEqual(error as? ImageDecodingError, ImageDecodingError("not a PNG or JPEG image"))
        }
        XCTAssertThrowsError(try ImageDecoder.decode(Data("GIF89a\u{1}\u{0}\u{1}\u{0}".utf8))) { error in
            XCTAssertEqual(error as? ImageDecodingError, ImageDecodingError("a GIF image, not PNG or JPEG"), "a format it knows by name is named")
        }
        XCTAssertThrowsError(try ImageDecoder.decode(Data())) { error in
            XCTAssertEqual((error as? ImageDecodingError)?.description, "not a PNG or JPEG image")
        }
        XCTAssertThrowsError(try ImageDecoder.decode(Data([0xFF, 0xD8, 0xFF]))) // JPEG signature, nothing else
    }

    func testAbsurdPNGDimensionsAreRefusedBeforeAllocating() throws {
        let png = PNGBuilder.header(width: 30_000, height: 30_000) + PNGBuilder.chunk("IDAT", [0x78, 0x9C, 0x03, 0x00]) + PNGBuilder.chunk("IEND", [])
        XCTAssertThrowsError(try ImageDecoder.decode(png)) { error in
            XCTAssertTrue((error as? ImageDecodingError)?.description.contains("too large") ?? false, "\(error)")
        }
    }

    func testAPixelLimitRefusesLargeImagesInPlainWordsAndLetsSmallerOnesThrough() throws {
        let png = PNGBuilder.header(width: 12_000, height: 10_000) + PNGBuilder.chunk("IDAT", [0x78, 0x9C, 0x03, 0x00]) + PNGBuilder.chunk("IEND", [])
        XCTAssertThrowsError(try ImageDecoder.decode(png, maximumPixels: 50_000_000)) { error in
            XCTAssertEqual((error as? ImageDecodingError)?.description,
                           "image too large: PNG is 12000x10000 (120.0 megapixels), limit is 50.0 megapixels")
        }
        let small = try ImageEncoder.png(SyntheticImages.solid(width: 40, height: 30, red: 9, green: 9, blue: 9))
        XCTAssertThrowsError(try ImageDecoder.decode(small, maximumPixels: 1_199))
        XCTAssertEqual(try ImageDecoder.decode(small, maximumPixels: 1_200).width, 40)
        let jpeg = try ImageEncoder.jpeg(SyntheticImages.solid(width: 40, height: 30, red: 9, green: 9, blue: 9))
        XCTAssertThrowsError(try ImageDecoder.decode(jpeg, targetSize: (5, 4), maximumPixels: 1_199), "the stored size counts, not the scaled one") { error in
            XCTAssertTrue("\(error)".hasPrefix("image too large: JPEG is 40x30"), "\(error)")
        }
        XCTAssertEqual(try ImageDecoder.decode(jpeg, maximumPixels: 1_200).height, 30)
    }

    func testTruncatedPNGThrows() throws {
        let folder = try Corpora.folder("pngsuite/png")
        let data = try Data(contentsOf: folder.appendingPathComponent("basn6a08.png"))
        for length in [8, 20, 33, 60, data.count - 20] {
            XCTAssertThrowsError(try ImageDecoder.decode(data.prefix(length)), "cut at \(length)")
        }
    }

    func testAbsurdJPEGDimensionsAreRefused() throws {
        let folder = try Corpora.folder("jpeg/libjpeg-turbo")
        var bytes = [UInt8](try Data(contentsOf: folder.appendingPathComponent("testorig.jpg")))
        let sof = try XCTUnwrap((0..<(bytes.count - 1)).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 })
        // SOF0: FF C0, length(2), precision(1), height(2), width(2)
        bytes[sof + 5] = 0xEA; bytes[sof + 6] = 0x60 // height 60000
        bytes[sof + 7] = 0xEA; bytes[sof + 8] = 0x60 // width 60000
        XCTAssertThrowsError(try ImageDecoder.decode(Data(bytes))) { error in
            XCTAssertTrue((error as? ImageDecodingError)?.description.contains("too large") ?? false, "\(error)")
        }
    }

    // MARK: EXIF orientation

    /// testorig.jpg with an APP1 Exif segment holding `orientation` spliced in after SOI.
    private func orientedJPEG(_ orientation: UInt16, bigEndian: Bool = false) throws -> Data {
        let folder = try Corpora.folder("jpeg/libjpeg-turbo")
        let original = [UInt8](try Data(contentsOf: folder.appendingPathComponent("testorig.jpg")))
        func u16(_ v: UInt16) -> [UInt8] { bigEndian ? [UInt8(v >> 8), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8)] }
        func u32(_ v: UInt32) -> [UInt8] { bigEndian ? u16(UInt16(v >> 16)) + u16(UInt16(v & 0xFFFF)) : u16(UInt16(v & 0xFFFF)) + u16(UInt16(v >> 16)) }
        var tiff: [UInt8] = bigEndian ? [0x4D, 0x4D] : [0x49, 0x49]
        tiff += u16(42) + u32(8)                                   // header, IFD0 at offset 8
        tiff += u16(2)                                             // two entries
        tiff += u16(0x010F) + u16(2) + u32(4) + [0x41, 0x42, 0x43, 0]    // Make = "ABC"
        tiff += u16(0x0112) + u16(3) + u32(1) + u16(orientation) + [0, 0] // Orientation
        tiff += u32(0)
        let payload: [UInt8] = Array("Exif".utf8) + [0, 0] + tiff
        let length = payload.count + 2
        let app1: [UInt8] = [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
        return Data(Array(original[0..<2]) + app1 + Array(original[2...]))
    }

    func testExifOrientationIsApplied() throws {
        let upright = try ImageDecoder.decode(orientedJPEG(1))
        XCTAssertEqual(upright.width, 227)
        XCTAssertEqual(upright.height, 149)
        let w = upright.width, h = upright.height

        let expectations: [(UInt16, Int, Int, (Int, Int) -> (Int, Int))] = [
            (2, w, h, { x, y in (w - 1 - x, y) }),
            (3, w, h, { x, y in (w - 1 - x, h - 1 - y) }),
            (4, w, h, { x, y in (x, h - 1 - y) }),
            (5, h, w, { x, y in (y, x) }),
            (6, h, w, { x, y in (y, h - 1 - x) }),
            (7, h, w, { x, y in (w - 1 - y, h - 1 - x) }),
            (8, h, w, { x, y in (w - 1 - y, x) }),
        ]
        for (orientation, outW, outH, source) in expectations {
            for bigEndian in [false, true] {
                let image = try ImageDecoder.decode(orientedJPEG(orientation, bigEndian: bigEndian))
                XCTAssertEqual(image.width, outW, "orientation \(orientation)")
                XCTAssertEqual(image.height, outH, "orientation \(orientation)")
                for (x, y) in [(0, 0), (outW - 1, 0), (0, outH - 1), (outW - 1, outH - 1), (outW / 3, outH / 2)] {
                    let (sx, sy) = source(x, y)
                    XCTAssertTrue(image.pixel(x: x, y: y) == upright.pixel(x: sx, y: sy), "orientation \(orientation) at \(x),\(y)")
                }
            }
        }
        // Nonsense orientations are ignored.
        XCTAssertEqual(try ImageDecoder.decode(orientedJPEG(0)), upright)
        XCTAssertEqual(try ImageDecoder.decode(orientedJPEG(9)), upright)
    }

    func testTargetSizeHintIsReadInUprightTerms() throws {
        // Rotated 90°, the upright picture is 149 × 227; a 40 × 57 hint allows 1/2 (75 × 114) but not 1/4 (38 × 57).
        let image = try ImageDecoder.decode(orientedJPEG(6), targetSize: (40, 57))
        XCTAssertEqual(image.width, 75)
        XCTAssertEqual(image.height, 114)
    }
}

/// Minimal PNG chunk writer for hostile test files.
enum PNGBuilder {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    static func header(width: UInt32, height: UInt32) -> Data {
        var ihdr: [UInt8] = []
        for v in [width, height] { ihdr += [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        ihdr += [8, 6, 0, 0, 0] // 8-bit RGBA, deflate, no filter variant, not interlaced
        return Data(signature) + chunk("IHDR", ihdr)
    }

    static func chunk(_ type: String, _ body: [UInt8]) -> Data {
        let typeBytes = Array(type.utf8)
        let n = UInt32(body.count)
        var out: [UInt8] = [UInt8(n >> 24), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)]
        out += typeBytes + body
        let crc = crc32(typeBytes + body)
        out += [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
        return Data(out)
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
