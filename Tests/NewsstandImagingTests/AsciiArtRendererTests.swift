import XCTest
@testable import NewsstandImaging

final class AsciiArtRendererTests: XCTestCase {
    private let masks = GlyphMasks.standard
    /// The glyph a fully lit cell takes (the most ink any glyph has).
    private var densest: Character { masks.densest }
    private func coverage(_ glyph: Character) -> Float { masks.coverage(of: glyph) ?? -1 }

    private func characters(_ art: TextArt, row: Int) -> [Character] { Array(art.lines[row]) }

    private func assertWellFormed(_ art: TextArt, columns: Int, rows: Int, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(art.columns, columns, file: file, line: line)
        XCTAssertEqual(art.rows, rows, file: file, line: line)
        XCTAssertEqual(art.lines.count, rows, file: file, line: line)
        XCTAssertEqual(art.foreground.count, columns * rows, file: file, line: line)
        XCTAssertEqual(art.background.count, columns * rows, file: file, line: line)
        for text in art.lines {
            XCTAssertEqual(text.count, columns, "line length", file: file, line: line)
            XCTAssertEqual(text.utf8.count, columns, "line must be single-byte ASCII", file: file, line: line)
            XCTAssertTrue(text.utf8.allSatisfy { $0 >= 0x20 && $0 <= 0x7E }, "non-printable in \(text)", file: file, line: line)
        }
    }

    // MARK: Known answers

    func testVerticalEdgeInsideACellTakesAGlyphWithAStemOnItsInkedSide() {
        // 64 px over 8 columns: column 4 spans x 32..<40 and the edge sits at x = 36, in its middle.
        let image = SyntheticImages.grey(width: 64, height: 64) { x, _ in x < 36 ? 0 : 255 }
        for background in [TerminalBackground.dark, .light] {
            let art = AsciiArtRenderer.render(image, options: AsciiArtOptions(columns: 8, rows: 4, background: background))
            assertWellFormed(art, columns: 8, rows: 4)
            let dim: Character = background == .dark ? " " : densest
            let bright: Character = background == .dark ? densest : " "
            for row in 0..<4 {
                let line = characters(art, row: row)
                XCTAssertEqual(Array(line[0..<4]), [dim, dim, dim, dim], "\(background): \(art.text)")
                XCTAssertEqual(Array(line[5..<8]), [bright, bright, bright], "\(background): \(art.text)")
                // Ink on the right (dark background: the bright side) or on the left (light background: the dark side),
                // as a vertical stroke down most of the cell.
                let edge = line[4]
                let centroid = masks.centroid(of: edge)!
                if background == .dark { XCTAssertGreaterThan(centroid.x, 1.6, "\(edge)") } else { XCTAssertLessThan(centroid.x, 1.4, "\(edge)") }
                XCTAssertGreaterThanOrEqual(masks.inkedRows(of: edge, columns: background == .dark ? 2..<4 : 0..<2), 5, "\(edge)")
            }
        }
    }

    func testHalfBlackHalfWhiteIsDenseOnTheBrightSideOnDarkBackgroundAndInvertedOnLight() {
        let image = SyntheticImages.grey(width: 40, height: 40) { x, _ in x < 20 ? 0 : 255 }
        let dark = AsciiArtRenderer.render(image, options: AsciiArtOptions(columns: 10, rows: 5))
        let light = AsciiArtRenderer.render(image, options: AsciiArtOptions(columns: 10, rows: 5, background: .light))
        assertWellFormed(dark, columns: 10, rows: 5)
        assertWellFormed(light, columns: 10, rows: 5)
        for row in 0..<5 {
            XCTAssertEqual(dark.lines[row], "     " + String(repeating: densest, count: 5))
            XCTAssertEqual(light.lines[row], String(repeating: densest, count: 5) + "     ")
        }
    }

    func testHorizontalEdgeTakesAGlyphHeavyOnItsBrightSide() {
        // 4 rows of 16 px; the edge at y = 40 is the middle of row 2.
        let image = SyntheticImages.grey(width: 32, height: 64) { _, y in y < 40 ? 0 : 255 }
        let art = AsciiArtRenderer.render(image, options: AsciiArtOptions(columns: 4, rows: 4))
        assertWellFormed(art, columns: 4, rows: 4)
        XCTAssertEqual(Array(art.lines[0..<2]), ["    ", "    "], art.text)
        XCTAssertEqual(art.lines[3], String(repeating: densest, count: 4), art.text)
        let edge = Set(art.lines[2])
        XCTAssertEqual(edge.count, 1, art.text)
        XCTAssertGreaterThan(masks.centroid(of: edge.first!)!.y, 3.9, "ink in the lower half: \(art.text)")
    }

    func testDiagonalStrokesBecomeSlashes() {
        // 8×8 cells of 10×20 px; a stroke through the cells where column + row == 7 (rising) or column == row (falling),
        // a tenth of a cell either side of the diagonal.
        let rising = SyntheticImages.grey(width: 80, height: 160) { x, y in abs(Double(x) / 10 + Double(y) / 20 - 8) < 0.1 ? 255 : 0 }
        let falling = SyntheticImages.grey(width: 80, height: 160) { x, y in abs(Double(x) / 10 - Double(y) / 20) < 0.1 ? 255 : 0 }
        let up = AsciiArtRenderer.render(rising, options: AsciiArtOptions(columns: 8, rows: 8))
        let down = AsciiArtRenderer.render(falling, options: AsciiArtOptions(columns: 8, rows: 8))
        assertWellFormed(up, columns: 8, rows: 8)
        assertWellFormed(down, columns: 8, rows: 8)
        // The corner cells hold only a sliver of the stroke; every other cell on it is a slash.
        for row in 1..<7 {
            XCTAssertEqual(characters(up, row: row)[7 - row], "/", up.text)
            XCTAssertEqual(characters(down, row: row)[row], "\\", down.text)
            XCTAssertEqual(characters(up, row: row)[0..<(6 - row)].filter { $0 != " " }.count, 0, up.text)
        }
    }

    func testDiagonalEdgeLeavesTheDarkSideBlankAndFillsTheBrightSide() {
        let rising = SyntheticImages.grey(width: 80, height: 160) { x, y in Double(x) / 80 + Double(y) / 160 > 1 ? 255 : 0 }
        let up = AsciiArtRenderer.render(rising, options: AsciiArtOptions(columns: 8, rows: 8))
        for row in 0..<8 {
            let line = characters(up, row: row)
            XCTAssertEqual(line[0..<(7 - row)].filter { $0 != " " }.count, 0, up.text)
            XCTAssertEqual(line[(8 - row)...].filter { $0 != densest }.count, 0, up.text)
            XCTAssertNotEqual(line[7 - row], " ", up.text)
        }
    }

    func testThinBrightLinesBecomeStrokes() {
        let vertical = SyntheticImages.grey(width: 80, height: 160) { x, _ in (39...40).contains(x) ? 255 : 0 }
        let art = AsciiArtRenderer.render(vertical, options: AsciiArtOptions(columns: 8, rows: 8))
        for row in 0..<8 {
            // The line sits on the boundary of columns 3 and 4, so one of them is a stroke and the rest is blank.
            let line = characters(art, row: row)
            XCTAssertTrue(line.contains("|") || line.filter { $0 != " " }.count <= 2, art.text)
        }
        let centred = SyntheticImages.grey(width: 80, height: 160) { x, _ in (34...35).contains(x) ? 255 : 0 }
        let centredArt = AsciiArtRenderer.render(centred, options: AsciiArtOptions(columns: 8, rows: 8))
        for row in 0..<8 { XCTAssertEqual(centredArt.lines[row], "   |    ", centredArt.text) }
        // A horizontal line two sub-pixels thick through the middle of row 2.
        let horizontal = SyntheticImages.grey(width: 40, height: 80) { _, y in (38...41).contains(y) ? 255 : 0 }
        let horizontalArt = AsciiArtRenderer.render(horizontal, options: AsciiArtOptions(columns: 5, rows: 5))
        XCTAssertTrue(horizontalArt.lines[2].allSatisfy { "-=+".contains($0) }, horizontalArt.text)
        XCTAssertEqual(horizontalArt.lines.enumerated().filter { $0.offset != 2 }.map(\.element), Array(repeating: "     ", count: 4))
    }

    func testHorizontalGradientHasMonotoneDensity() {
        let image = SyntheticImages.grey(width: 256, height: 64) { x, _ in UInt8(x) }
        for background in [TerminalBackground.dark, .light] {
            for dither in [false, true] {
                let art = AsciiArtRenderer.render(image, options: AsciiArtOptions(columns: 32, rows: 4, background: background, ditherErrors: dither))
                assertWellFormed(art, columns: 32, rows: 4)
                for row in 0..<4 {
                    let levels = characters(art, row: row).map { coverage($0) }
                    XCTAssertFalse(levels.contains(-1), art.lines[row])
                    let ordered = background == .dark ? levels : levels.reversed()
                    if !dither {
                        XCTAssertEqual(ordered, ordered.sorted(), "density must not decrease: \(art.lines[row])")
                    }
                    XCTAssertEqual(ordered.first, 0, art.lines[row])
                    XCTAssertEqual(ordered.last, coverage(densest), art.lines[row])
                }
            }
        }
    }

    func testLowContrastPicturesAreStretchedGently() {
        // Lightness 0.31 and 0.63: stretched to at most twice their difference, so the dark half keeps a little ink
        // and the bright half gets far more, each half one flat glyph.
        let image = SyntheticImages.grey(width: 40, height: 40) { x, _ in x < 20 ? 80 : 160 }
        let art = AsciiArtRenderer.render(image, options: AsciiArtOptions(columns: 10, rows: 5))
        let row = Array(art.lines[2])
        XCTAssertEqual(Set(row[0..<5]).count, 1, art.text)
        XCTAssertEqual(Set(row[5..<10]).count, 1, art.text)
        let dark = coverage(row[0]), bright = coverage(row[9])
        XCTAssertGreaterThan(dark, 0, art.text)
        XCTAssertGreaterThan(bright, 3 * dark, art.text)
        XCTAssertGreaterThan(bright, 0.7 * coverage(densest), art.text)
    }

    func testFlatGreyFieldsTakeGlyphsOfIncreasingCoverageAndNoLetters() {
        var coverages: [Float] = []
        for level in [0.1, 0.5, 0.9] {
            let byte = UInt8(level * 255)
            let art = AsciiArtRenderer.render(SyntheticImages.grey(width: 32, height: 32) { _, _ in byte }, options: AsciiArtOptions(columns: 8, rows: 4))
            let glyphs = Set(art.text.filter { $0 != "\n" })
            XCTAssertEqual(glyphs.count, 1, "a flat field is one glyph: \(art.text)")
            XCTAssertFalse(glyphs.contains { $0.isLetter }, "flat areas are not letters: \(art.text)")
            coverages.append(coverage(glyphs.first!))
        }
        XCTAssertLessThan(coverages[0], coverages[1])
        XCTAssertLessThan(coverages[1], coverages[2])
    }

    func testAWhiteBandOverAMidGreyBodyStaysLighter() {
        // Top quarter white, the rest mid-grey with a black corner (so the picture spans the full range).
        let picture = SyntheticImages.grey(width: 64, height: 64) { x, y in y < 16 ? 255 : (x < 8 && y >= 56 ? 0 : 128) }
        let art = AsciiArtRenderer.render(picture, options: AsciiArtOptions(columns: 16, rows: 8))
        let band = art.lines[0..<2].joined().map(coverage).reduce(0, +) / 32
        let body = art.lines[3..<6].joined().map(coverage).reduce(0, +) / 48
        XCTAssertGreaterThan(band, body * 1.5, art.text)
        XCTAssertGreaterThan(body, 0, art.text)
    }

    func testFlatPicturesKeepTheirBrightness() {
        let black = AsciiArtRenderer.render(SyntheticImages.grey(width: 8, height: 8) { _, _ in 0 }, options: AsciiArtOptions(columns: 4, rows: 2))
        let white = AsciiArtRenderer.render(SyntheticImages.grey(width: 8, height: 8) { _, _ in 255 }, options: AsciiArtOptions(columns: 4, rows: 2))
        let grey = AsciiArtRenderer.render(SyntheticImages.grey(width: 8, height: 8) { _, _ in 128 }, options: AsciiArtOptions(columns: 4, rows: 2))
        XCTAssertEqual(black.lines, ["    ", "    "])
        XCTAssertEqual(white.lines, [String(repeating: densest, count: 4), String(repeating: densest, count: 4)])
        // Mid-grey keeps its place in the middle of the range: about half the densest glyph's ink.
        XCTAssertEqual(Set(grey.text.filter { $0 != "\n" }).count, 1, grey.text)
        XCTAssertEqual(coverage(grey.lines[0].first!), 0.5 * coverage(densest), accuracy: 0.15 * coverage(densest), grey.text)
    }

    // MARK: Layout

    func testAspectIsPreservedAndThePictureCentred() {
        let options = AsciiArtOptions(columns: 40, rows: 20, cellAspect: 2)
        // A square picture is 40 cells wide × 20 cells tall: 20 rows of height-2 cells are 40 widths tall.
        let square = AsciiArtRenderer.render(SyntheticImages.solid(width: 100, height: 100, red: 255, green: 255, blue: 255), options: options)
        XCTAssertTrue(AsciiArtRenderer.fittedSize(imageWidth: 100, imageHeight: 100, options: options) == (40, 20))
        XCTAssertTrue(square.lines.allSatisfy { $0 == String(repeating: densest, count: 40) })
        // A 2:1 landscape picture: 40 × 10, rows 5..<15.
        let wide = AsciiArtRenderer.render(SyntheticImages.solid(width: 200, height: 100, red: 255, green: 255, blue: 255), options: options)
        for (row, line) in wide.lines.enumerated() {
            XCTAssertEqual(line, (5..<15).contains(row) ? String(repeating: densest, count: 40) : String(repeating: " ", count: 40))
        }
        // A 1:2 portrait picture (a cover): 20 × 20, columns 10..<30.
        let tall = AsciiArtRenderer.render(SyntheticImages.solid(width: 100, height: 200, red: 255, green: 255, blue: 255), options: options)
        for line in tall.lines {
            XCTAssertEqual(line, String(repeating: " ", count: 10) + String(repeating: densest, count: 20) + String(repeating: " ", count: 10))
        }
        // With square cells the square picture is 20 × 20.
        XCTAssertTrue(AsciiArtRenderer.fittedSize(imageWidth: 100, imageHeight: 100, options: AsciiArtOptions(columns: 40, rows: 20, cellAspect: 1)) == (20, 20))
    }

    func testPaddingCellsHaveNoColourAndPictureCellsTheirAverage() {
        let red = SyntheticImages.solid(width: 100, height: 200, red: 255, green: 0, blue: 0)
        let art = AsciiArtRenderer.render(red, options: AsciiArtOptions(columns: 40, rows: 20, mode: .asciiColor))
        XCTAssertNil(art.foreground(column: 0, row: 0))
        XCTAssertNil(art.background(column: 0, row: 0))
        XCTAssertEqual(art.foreground(column: 20, row: 10), RGBColor(red: 255, green: 0, blue: 0))
        XCTAssertNil(art.background(column: 20, row: 10))
        let plain = AsciiArtRenderer.render(red, options: AsciiArtOptions(columns: 40, rows: 20))
        XCTAssertFalse(plain.hasColors, "ascii mode carries no colour")
    }

    func testDegenerateSizesNeverCrash() {
        let image = SyntheticImages.grey(width: 16, height: 16) { x, y in UInt8((x * 16 + y) % 256) }
        XCTAssertEqual(AsciiArtRenderer.render(image, options: AsciiArtOptions(columns: 0, rows: 10)), .empty)
        XCTAssertEqual(AsciiArtRenderer.render(image, options: AsciiArtOptions(columns: 10, rows: 0)), .empty)
        XCTAssertEqual(AsciiArtRenderer.render(image, options: AsciiArtOptions(columns: -3, rows: -3)), .empty)

        let cases: [(RasterImage, Int, Int, Double)] = [
            (SyntheticImages.solid(width: 1, height: 1, red: 200, green: 10, blue: 10), 1, 1, 2),
            (SyntheticImages.solid(width: 1, height: 1, red: 200, green: 10, blue: 10), 80, 24, 2),
            (SyntheticImages.grey(width: 10_000, height: 1) { x, _ in UInt8(x % 256) }, 80, 24, 2),
            (SyntheticImages.grey(width: 1, height: 10_000) { _, y in UInt8(y % 256) }, 80, 24, 2),
            (SyntheticImages.grey(width: 3, height: 5) { x, y in UInt8((x + y) * 20) }, 1, 1, 2),
            (RasterImage(width: 0, height: 0, pixels: []), 12, 3, 2),
            (RasterImage(width: 0, height: 7, pixels: []), 12, 3, 2),
            (image, 7, 3, .nan),
            (image, 7, 3, 0),
            (image, 7, 3, .infinity),
            (image, 300, 100, 2.3),
            (RasterImage(width: 4, height: 4), 6, 6, 2), // fully transparent
        ]
        for (picture, columns, rows, aspect) in cases {
            for background in [TerminalBackground.dark, .light] {
                let art = AsciiArtRenderer.render(picture, options: AsciiArtOptions(columns: columns, rows: rows, cellAspect: aspect, background: background, ditherErrors: true))
                assertWellFormed(art, columns: columns, rows: rows)
            }
        }
        let blank = AsciiArtRenderer.render(RasterImage(width: 0, height: 0, pixels: []), options: AsciiArtOptions(columns: 5, rows: 2))
        XCTAssertEqual(blank.lines, ["     ", "     "])
    }

    func testDitheringMixesNeighbouringLevelsInFlatAreas() {
        // A dim flat level (between two glyphs' coverage) with a black block top left and a white block bottom
        // right, so the stretch keeps it dim: plain rendering uses one glyph for it, dithering a mixture.
        let picture = SyntheticImages.grey(width: 64, height: 64) { x, y in x < 8 && y < 8 ? 0 : (x >= 56 && y >= 56 ? 255 : 35) }
        let plain = AsciiArtRenderer.render(picture, options: AsciiArtOptions(columns: 16, rows: 8))
        let dithered = AsciiArtRenderer.render(picture, options: AsciiArtOptions(columns: 16, rows: 8, ditherErrors: true))
        assertWellFormed(dithered, columns: 16, rows: 8)
        let flatRows = 1..<7
        XCTAssertEqual(Set(plain.lines[flatRows].joined()).count, 1, plain.text)
        XCTAssertNotEqual(plain.lines[3].first, " ", plain.text)
        XCTAssertGreaterThanOrEqual(Set(dithered.lines[flatRows].joined()).count, 2, dithered.text)
        // Diffusing the error brings the mean ink close to the wanted level (grey 35 is lightness 0.137).
        let wanted: Float = 35.0 / 255 * coverage(densest) * Float(flatRows.count * 16)
        let plainInk = plain.lines[flatRows].joined().map { coverage($0) }.reduce(0, +)
        let ditheredInk = dithered.lines[flatRows].joined().map { coverage($0) }.reduce(0, +)
        XCTAssertEqual(ditheredInk, wanted, accuracy: wanted * 0.15, dithered.text)
        XCTAssertLessThanOrEqual(abs(ditheredInk - wanted), abs(plainInk - wanted) + 0.5, plain.text)
    }
}
