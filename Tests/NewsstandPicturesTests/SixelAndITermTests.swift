import XCTest
import CSixel
import NewsstandImaging
@testable import NewsstandPictures

/// Sixel (through libsixel) and iTerm2 inline images from small pictures.
final class SixelAndITermTests: XCTestCase {
    /// 4×6: the left half red, the right half blue, the bottom-right pixel transparent.
    static var small: RasterImage {
        var pixels: [UInt8] = []
        for y in 0..<6 {
            pixels += [255, 0, 0, 255, 255, 0, 0, 255, 0, 0, 255, 255] + (y == 5 ? [0, 0, 0, 0] : [0, 0, 255, 255])
        }
        return RasterImage(width: 4, height: 6, pixels: pixels)
    }

    func testSixelByteForByte() throws {
        let text = String(decoding: try SixelEncoder.encode(Self.small, background: .white), as: UTF8.self)
        // DCS, raster attributes 1:1 and 4×6 pixels, the palette in percent (libsixel keeps 5 bits a channel, so
        // 255 is 97%; the one white pixel, composited from the transparent one, is too rare for its palette and takes
        // the nearest colour, red), then one band of six rows: colour 0 (red) "~~" on columns 0–1 (all six rows), "?"
        // (none) on column 2, "_" (row 5) on column 3; "$" back to the band's start; colour 1 (blue) "??" to skip two
        // columns, "~" on column 2 and "^" (rows 0–4) on column 3.
        XCTAssertEqual(text, "\u{1B}Pq\"1;1;4;6#0;2;97;0;0#1;2;0;0;97#0~~?_$#1??~^\u{1B}\\")
    }

    func testSixelStructureOfALargerPicture() throws {
        let image = RasterImage(width: 40, height: 30, red: 0, green: 128, blue: 0, alpha: 255)
        let text = String(decoding: try SixelEncoder.encode(image, background: .black), as: UTF8.self)
        XCTAssertTrue(text.hasPrefix("\u{1B}P"), "a DCS")
        XCTAssertTrue(text.contains("q\"1;1;40;30"), "raster attributes give the size")
        XCTAssertTrue(text.contains("#0;2;0;50;0"), "the one colour, in percent")
        XCTAssertEqual(text.filter { $0 == "-" }.count, 4, "30 rows are five bands of six, with a \"-\" between bands")
        XCTAssertTrue(text.hasSuffix("\u{1B}\\"))
        XCTAssertThrowsError(try SixelEncoder.encode(RasterImage(width: 0, height: 0), background: .black))
    }

    /// libsixel is opened at the first sixel picture, not linked: the system's opens, and a missing one is a plain
    /// error naming it and the package, not a crash.
    func testLibsixelOpensAtRunTimeAndAMissingOneIsNamed() throws {
        XCTAssertNil(newsstand_sixel_library_failure().map { String(cString: $0) })
        var missing = newsstand_sixel()
        // dlerror's words live in a buffer the next dl call frees: copied at once.
        let failure = String(cString: try XCTUnwrap(newsstand_sixel_open("libnewsstand-no-such-sixel.so.1", &missing)))
        XCTAssertTrue(failure.contains("libnewsstand-no-such-sixel.so.1"), failure)
        var table = newsstand_sixel()
        XCTAssertNil(newsstand_sixel_open(NEWSSTAND_SIXEL_SONAME, &table))
        XCTAssertNotNil(table.encode)
        let error = failure.withCString { SixelEncoder.Failure.libraryUnavailable($0) }
        XCTAssertTrue(error.description.hasPrefix("sixel pictures need libsixel.so.1 (Debian's libsixel1 package), which could not be loaded: "),
                      error.description)
    }

    func testCompositingOverTheBackground() {
        let half = RasterImage(width: 1, height: 1, pixels: [255, 0, 0, 128])
        XCTAssertEqual(SixelEncoder.composited(half, over: .white), [255, 127, 127])
        XCTAssertEqual(SixelEncoder.composited(half, over: .black), [128, 0, 0])
    }

    func testITermInlineImage() throws {
        let bytes = try ITermImages.inline(Self.small, columns: 3, rows: 2)
        let text = String(decoding: bytes, as: UTF8.self)
        let png = try ImageEncoder.png(Self.small, fast: true)
        XCTAssertEqual(text, "\u{1B}]1337;File=inline=1;size=\(png.count);width=3;height=2;preserveAspectRatio=0:"
                       + png.base64EncodedString() + "\u{7}")
        let payload = text.split(separator: ":").last!.dropLast()
        XCTAssertEqual(try ImageDecoder.decode(try XCTUnwrap(Data(base64Encoded: String(payload)))), Self.small)
    }
}
