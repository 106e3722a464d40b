import XCTest
@testable import NewsstandImaging

/// Known answers for the `ascii-color` and `blocks` modes, and the encoder used to make test pictures.
final class RenderModeTests: XCTestCase {
    private func halves(width: Int, height: Int, top: (UInt8, UInt8, UInt8), bottom: (UInt8, UInt8, UInt8)) -> RasterImage {
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            let c = y < height / 2 ? top : bottom
            for x in 0..<width {
                let i = (y * width + x) * 4
                pixels[i] = c.0; pixels[i + 1] = c.1; pixels[i + 2] = c.2
            }
        }
        return RasterImage(width: width, height: height, pixels: pixels)
    }

    private func assertClose(_ color: RGBColor?, _ expected: RGBColor, tolerance: Int = 1, file: StaticString = #filePath, line: UInt = #line) {
        guard let color else { return XCTFail("no colour, expected \(expected)", file: file, line: line) }
        XCTAssertLessThanOrEqual(abs(Int(color.red) - Int(expected.red)), tolerance, "\(color) vs \(expected)", file: file, line: line)
        XCTAssertLessThanOrEqual(abs(Int(color.green) - Int(expected.green)), tolerance, "\(color) vs \(expected)", file: file, line: line)
        XCTAssertLessThanOrEqual(abs(Int(color.blue) - Int(expected.blue)), tolerance, "\(color) vs \(expected)", file: file, line: line)
    }

    func testBlocksPutTheTopPixelInTheForegroundAndTheBottomInTheBackground() {
        let red = RGBColor(red: 255, green: 0, blue: 0), blue = RGBColor(red: 0, green: 0, blue: 255)
        // A square picture with square cells in 4×1 cells fits in one cell, centred: top pixel red, bottom blue.
        let image = halves(width: 40, height: 40, top: (255, 0, 0), bottom: (0, 0, 255))
        let art = AsciiArtRenderer.render(image, options: AsciiArtOptions(columns: 4, rows: 1, cellAspect: 1, mode: .blocks))
        XCTAssertEqual(art.rows, 1)
        XCTAssertEqual(art.lines, [" ▀  "])
        assertClose(art.foreground(column: 1, row: 0), red)
        assertClose(art.background(column: 1, row: 0), blue)
        XCTAssertNil(art.foreground(column: 0, row: 0))
        XCTAssertNil(art.background(column: 3, row: 0))

        let full = AsciiArtRenderer.render(halves(width: 20, height: 10, top: (255, 0, 0), bottom: (0, 0, 255)),
                                           options: AsciiArtOptions(columns: 4, rows: 1, cellAspect: 2, mode: .blocks))
        XCTAssertEqual(full.lines, ["▀▀▀▀"])
        for column in 0..<4 {
            assertClose(full.foreground(column: column, row: 0), red)
            assertClose(full.background(column: column, row: 0), blue)
        }
        for line in full.lines { XCTAssertEqual(line.count, 4, "one grapheme per cell") }
    }

    func testBlocksTakeTwoPixelsPerCellDownAPicture() {
        // 4 rows of cells, 8 pixel rows: stripes of 1 pixel alternate white and black.
        let image = SyntheticImages.grey(width: 8, height: 8) { _, y in y.isMultiple(of: 2) ? 255 : 0 }
        let art = AsciiArtRenderer.render(image, options: AsciiArtOptions(columns: 8, rows: 4, cellAspect: 2, mode: .blocks))
        XCTAssertEqual(art.lines, Array(repeating: String(repeating: "▀", count: 8), count: 4))
        for row in 0..<4 {
            assertClose(art.foreground(column: 3, row: row), .white)
            assertClose(art.background(column: 3, row: row), .black)
        }
    }

    func testAsciiColorLetsTheColourCarryTheLightAndColoursEachCellWithItsAverage() {
        // Left half green, right half magenta; each cell is 4 source pixels wide, the split falls inside column 2.
        var pixels = [UInt8](repeating: 255, count: 10 * 20 * 4)
        for y in 0..<20 {
            for x in 0..<10 {
                let i = (y * 10 + x) * 4
                if x < 5 { pixels[i] = 0; pixels[i + 1] = 200; pixels[i + 2] = 0 } else { pixels[i] = 200; pixels[i + 1] = 0; pixels[i + 2] = 200 }
            }
        }
        let image = RasterImage(width: 10, height: 20, pixels: pixels)
        let options = AsciiArtOptions(columns: 5, rows: 5, cellAspect: 2)
        var colored = options
        colored.mode = .asciiColor
        let plain = AsciiArtRenderer.render(image, options: options)
        let art = AsciiArtRenderer.render(image, options: colored)
        // In ascii the glyphs carry the light: bright green takes more ink than darker magenta. In ascii-color the
        // colour carries it, so every flat cell takes the same glyph, the one of the brightest flat cell.
        let densest = AsciiArtRenderer.render(RasterImage(width: 4, height: 8, red: 255, green: 255, blue: 255, alpha: 255),
                                              options: AsciiArtOptions(columns: 1, rows: 1)).lines[0]
        XCTAssertNotEqual(Array(plain.lines[2])[0], Array(plain.lines[2])[4], plain.text)
        XCTAssertEqual(art.lines.map { String(Array($0)[0..<2]) + String(Array($0)[3..<5]) },
                       Array(repeating: String(repeating: densest, count: 4), count: 5), art.text)
        XCTAssertTrue(art.lines.allSatisfy { Array($0)[2] != " " }, art.text)
        XCTAssertTrue(art.lines.allSatisfy { $0.utf8.allSatisfy { $0 >= 0x20 && $0 <= 0x7E } })
        let fit = AsciiArtRenderer.fittedSize(imageWidth: 10, imageHeight: 20, options: options)
        XCTAssertEqual(fit.columns, 5)
        // Columns 0-1 are pure green, 3-4 pure magenta, column 2 half and half (averaged in linear light).
        assertClose(art.foreground(column: 0, row: 2), RGBColor(red: 0, green: 200, blue: 0))
        assertClose(art.foreground(column: 4, row: 2), RGBColor(red: 200, green: 0, blue: 200))
        let linear200 = powf((200.0 / 255 + 0.055) / 1.055, 2.4)
        let mixed = UInt8((1.055 * powf(linear200 / 2, 1 / 2.4) - 0.055) * 255 + 0.5)
        assertClose(art.foreground(column: 2, row: 2), RGBColor(red: mixed, green: mixed, blue: mixed), tolerance: 2)
        for row in 0..<5 { XCTAssertNil(art.background(column: 1, row: row), "ascii-color sets foregrounds only") }
    }

    func testAsciiModeHasNoColourAtAll() {
        let image = halves(width: 30, height: 60, top: (255, 0, 0), bottom: (0, 0, 255))
        let art = AsciiArtRenderer.render(image, options: AsciiArtOptions(columns: 12, rows: 8))
        XCTAssertFalse(art.hasColors)
        XCTAssertTrue(art.foreground.allSatisfy { $0 == nil } && art.background.allSatisfy { $0 == nil })
        XCTAssertFalse(art.text.contains("\u{1B}"))
    }

    func testTransparentPixelsAreCompositedOverTheBackground() {
        let clear = RasterImage(width: 4, height: 8) // transparent black
        let dark = AsciiArtRenderer.render(clear, options: AsciiArtOptions(columns: 2, rows: 2, mode: .blocks))
        let light = AsciiArtRenderer.render(clear, options: AsciiArtOptions(columns: 2, rows: 2, background: .light, mode: .blocks))
        XCTAssertEqual(dark.foreground(column: 0, row: 0), .black)
        XCTAssertEqual(light.foreground(column: 0, row: 0), .white)
        XCTAssertEqual(light.background(column: 1, row: 1), .white)
    }

    func testEveryModeGivesExactlyColumnsCellsPerLine() {
        let image = SyntheticImages.grey(width: 37, height: 91) { x, y in UInt8((x * 7 + y * 3) % 256) }
        for mode in CoverArtMode.allCases {
            for (columns, rows) in [(1, 1), (12, 8), (40, 30), (33, 5)] {
                let art = AsciiArtRenderer.render(image, options: AsciiArtOptions(columns: columns, rows: rows, mode: mode))
                XCTAssertEqual(art.lines.count, rows)
                XCTAssertEqual(art.foreground.count, columns * rows)
                for line in art.lines {
                    XCTAssertEqual(line.count, columns, "\(mode)")
                    XCTAssertTrue(line.allSatisfy { mode == .blocks ? ($0 == "▀" || $0 == " ") : $0.isASCII }, "\(mode): \(line)")
                }
            }
        }
    }

    func testEncodedImagesDecodeBackToTheSamePixels() throws {
        let image = halves(width: 24, height: 16, top: (250, 20, 30), bottom: (10, 40, 220))
        let png = try ImageEncoder.png(image)
        XCTAssertEqual(ImageDecoder.format(of: png), .png)
        XCTAssertEqual(try ImageDecoder.decode(png), image)
        let jpeg = try ImageEncoder.jpeg(image, quality: 95)
        XCTAssertEqual(ImageDecoder.format(of: jpeg), .jpeg)
        let decoded = try ImageDecoder.decode(jpeg)
        XCTAssertEqual(decoded.width, 24)
        let p = decoded.pixel(x: 5, y: 2)
        XCTAssertLessThan(abs(Int(p.red) - 250) + abs(Int(p.green) - 20) + abs(Int(p.blue) - 30), 30)
    }
}
