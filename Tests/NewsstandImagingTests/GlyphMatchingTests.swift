import NewsstandTestSupport
import XCTest
@testable import NewsstandImaging

/// Glyph choice by mask matching: canonical cell patterns, and whole pictures re-drawn and scored by how their ink
/// follows the light (`InkCorrelation`).
final class GlyphMatchingTests: XCTestCase {
    private let masks = GlyphMasks.standard

    /// The glyph chosen for a cell whose lightness at sub-pixel (x in 0..<4, y in 0..<8) is `ink(x, y)` (0...1), handed
    /// over as the ASCII renderer does: the brightest the picture gets is the densest glyph's coverage.
    private func glyph(_ ink: (Int, Int) -> Float) -> Character {
        var target = [Float](repeating: 0, count: GlyphMasks.samplesPerCell)
        let range = masks.means.last!
        for y in 0..<GlyphMasks.rows { for x in 0..<GlyphMasks.columns { target[y * GlyphMasks.columns + x] = ink(x, y) * range } }
        return masks.glyphs[masks.nearest(to: target)]
    }

    // MARK: Canonical patterns

    func testTheTableHoldsEveryPrintableASCIIGlyphButLowercaseOnce() {
        XCTAssertEqual(masks.glyphs.count, 95 - 26)
        XCTAssertEqual(Set(masks.glyphs).count, 95 - 26)
        XCTAssertFalse(masks.glyphs.contains { $0.isLowercase }, "lowercase letters read as words, not tone")
        XCTAssertEqual(masks.glyphs.first, " ")
        XCTAssertEqual(masks.means, masks.means.sorted())
        XCTAssertEqual(AsciiArtRenderer.glyphsByCoverage, masks.glyphs)
    }

    func testFullAndEmptyCells() {
        let full = glyph { _, _ in 1 }
        XCTAssertEqual(full, masks.densest)
        XCTAssertEqual(masks.coverage(of: full)!, masks.means.last!, accuracy: 0.01, "a full cell takes a glyph about the densest, got \(full)")
        XCTAssertTrue("@#%&WMB8".contains(full), "and an even one, not a letter's shape: \(full)")
        XCTAssertEqual(glyph { _, _ in 0 }, " ")
    }

    func testHalfFilledCellsTakeGlyphsHeavyOnThatSide() {
        let left = glyph { x, _ in x < 2 ? 1 : 0 }, right = glyph { x, _ in x >= 2 ? 1 : 0 }
        let top = glyph { _, y in y < 4 ? 1 : 0 }, bottom = glyph { _, y in y >= 4 ? 1 : 0 }
        // The cell centre is (1.5, 3.5); the font's glyphs sit a little high (their centre is about 3.3).
        XCTAssertLessThan(masks.centroid(of: left)!.x, 1.2, "left half: \(left)")
        XCTAssertGreaterThan(masks.centroid(of: right)!.x, 1.7, "right half: \(right)")
        XCTAssertLessThan(masks.centroid(of: top)!.y, 3.0, "top half: \(top)")
        XCTAssertGreaterThan(masks.centroid(of: bottom)!.y, 3.8, "bottom half: \(bottom)")
        // A bright band high in the cell (sub-pixel rows 1 and 2, where the font's capitals begin): a glyph that is
        // all top, such as ^ or ".
        let cap = glyph { _, y in (1...2).contains(y) ? 1 : 0 }
        XCTAssertTrue("^\"'`*".contains(cap), "high band: \(cap)")
        XCTAssertTrue("^\"".contains(glyph { x, y in (1...2).contains(y) && (1...2).contains(x) ? 1 : 0 }))
    }

    func testStrokesTakeTheirGlyphs() {
        XCTAssertEqual(glyph { x, _ in (1...2).contains(x) ? 1 : 0 }, "|")
        // Tone first: a faint stroke takes less ink than a bright one, still centred.
        let faint = glyph { x, _ in (1...2).contains(x) ? 0.4 : 0 }
        XCTAssertLessThan(masks.coverage(of: faint)!, masks.coverage(of: "|")!, "a faint stroke: \(faint)")
        XCTAssertEqual(masks.centroid(of: faint)!.x, 1.5, accuracy: 0.3, "a faint stroke: \(faint)")
        // Diagonals one sub-pixel wide, corner to corner.
        func onDiagonal(_ x: Int, _ y: Int, rising: Bool) -> Float {
            let u = (Float(x) + 0.5) / 4, v = (Float(y) + 0.5) / 8
            return abs(rising ? u + v - 1 : u - v) < 0.2 ? 1 : 0
        }
        XCTAssertEqual(glyph { onDiagonal($0, $1, rising: true) }, "/")
        XCTAssertEqual(glyph { onDiagonal($0, $1, rising: false) }, "\\")
        XCTAssertTrue("=-".contains(glyph { _, y in (3...4).contains(y) ? 1 : 0 }), "horizontal stroke")
        XCTAssertEqual(glyph { _, y in y == 7 ? 1 : 0 }, "_")
    }

    func testTheSearchFindsTheSameGlyphAsTryingEveryOne() {
        // The early stop by mean must never change the answer: compare with a brute-force search on random cells.
        var generator = SeededRandom(seed: 7)
        for _ in 0..<2000 {
            var target = [Float](repeating: 0, count: GlyphMasks.samplesPerCell)
            let style = generator.next() % 3
            for i in 0..<GlyphMasks.samplesPerCell {
                let r = Float(generator.next() % 1000) / 999
                target[i] = style == 0 ? r : style == 1 ? (r > 0.7 ? 1 : 0) : r * 0.3
            }
            let chosen = masks.nearest(to: target)
            let brute = (0..<masks.glyphs.count).min { masks.cost($0, target) < masks.cost($1, target) }!
            XCTAssertEqual(masks.cost(chosen, target), masks.cost(brute, target), accuracy: 1e-4)
        }
    }

    // MARK: Whole pictures

    /// Large printed letters and shapes, white on black, re-rendered as ASCII and scored by how the ink follows the
    /// light inside cells (NEWSSTAND_ART_PREVIEW=1 prints the scores and the art). Matching shapes must do better
    /// than a ramp of the same glyphs chosen by each cell's mean alone.
    func testLargeLettersAndShapesSurviveTheRoundTrip() {
        let picture = Self.lettersAndShapes()
        // 480 × 256 px with 2:1 cells → 60 × 16 cells of 8 × 16 px.
        let options = AsciiArtOptions(columns: 60, rows: 16)
        XCTAssertTrue(AsciiArtRenderer.fittedSize(imageWidth: picture.width, imageHeight: picture.height, options: options) == (60, 16))
        let art = AsciiArtRenderer.render(picture, options: options)
        let score = InkCorrelation(art: art.lines, picture: picture)

        // Baseline: each cell's glyph chosen by mean ink alone (the nearest coverage), as a density ramp would.
        let sampled = Resampler.areaAverage(picture, width: 60 * 4, height: 16 * 8)
        let range = masks.means.last!
        var rampLines: [String] = []
        for row in 0..<16 {
            var line = ""
            for column in 0..<60 {
                var ink: Float = 0
                for y in 0..<8 { for x in 0..<4 { ink += Float(sampled.pixels[((row * 8 + y) * 240 + column * 4 + x) * 4]) / 255 } }
                ink = ink / 32 * range
                line.append(masks.glyphs[masks.means.indices.min { abs(masks.means[$0] - ink) < abs(masks.means[$1] - ink) }!])
            }
            rampLines.append(line)
        }
        let ramp = InkCorrelation(art: rampLines, picture: picture)
        let message = "matched \(score), ramp \(ramp)\n\(art.text)\n\(rampLines.joined(separator: "\n"))"
        if ProcessInfo.processInfo.environment["NEWSSTAND_ART_PREVIEW"] != nil { print(message) }
        XCTAssertGreaterThan(score.perCell, 0.9, message)
        XCTAssertGreaterThan(score.subCell, ramp.subCell + 0.03, message)
    }

    func testAsciiColorCarriesBrightnessInTheColourAndShapeInTheGlyph() {
        // Left: mid-grey, right: white. In ascii mode the grey half gets less ink than the white half; in
        // ascii-color mode the colour says how bright it is, so both flat halves take the same (densest-looking) glyph.
        let picture = SyntheticImages.grey(width: 64, height: 64) { x, y in x < 8 && y < 8 ? 0 : x < 32 ? 90 : 255 }
        let plain = AsciiArtRenderer.render(picture, options: AsciiArtOptions(columns: 16, rows: 8))
        let colored = AsciiArtRenderer.render(picture, options: AsciiArtOptions(columns: 16, rows: 8, mode: .asciiColor))
        let row = 4
        let plainLeft = Array(plain.lines[row])[2], plainRight = Array(plain.lines[row])[12]
        XCTAssertLessThan(masks.coverage(of: plainLeft)!, masks.coverage(of: plainRight)!, plain.text)
        let coloredLeft = Array(colored.lines[row])[2], coloredRight = Array(colored.lines[row])[12]
        XCTAssertEqual(coloredLeft, coloredRight, colored.text)
        XCTAssertNotEqual(coloredLeft, " ")
        let left = colored.foreground(column: 2, row: row)!, right = colored.foreground(column: 12, row: row)!
        XCTAssertEqual(Int(left.red), 90, accuracy: 2)
        XCTAssertEqual(Int(right.red), 255, accuracy: 1)
    }

    // MARK: Helpers

    /// "NEWS" in `BitmapFont` glyphs magnified 7×, then a filled disc, a triangle and a ring: 480 × 256 px.
    static func lettersAndShapes() -> RasterImage {
        let width = 480, height = 256, scale = 7
        let word = Array("NEWS").map { BitmapFont.glyph($0) }
        return SyntheticImages.grey(width: width, height: height) { x, y in
            // Letters: 4 × 56 px wide, from x = 8, rows from y = 8 (each 112 px tall).
            let lx = x - 8, ly = y - 8
            if lx >= 0, ly >= 0, lx < 4 * BitmapFont.width * scale, ly < BitmapFont.height * scale {
                let letter = lx / (BitmapFont.width * scale)
                let fx = (lx % (BitmapFont.width * scale)) / scale, fy = ly / scale
                if word[letter][fy * BitmapFont.width + fx] != 0 { return 255 }
            }
            let dx = Double(x), dy = Double(y)
            // Disc centred at (300, 190), radius 50.
            if (dx - 300) * (dx - 300) + (dy - 190) * (dy - 190) < 2500 { return 255 }
            // Triangle, apex (400, 140), base y = 240 from 340 to 460.
            if dy <= 240, dy >= 140, abs(dx - 400) <= (dy - 140) * 0.6 { return 255 }
            // Ring centred at (80, 200), radii 30...42.
            let r = ((dx - 80) * (dx - 80) + (dy - 200) * (dy - 200)).squareRoot()
            if r >= 30 && r <= 42 { return 255 }
            return 0
        }
    }
}
