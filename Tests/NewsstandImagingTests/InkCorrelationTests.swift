import Foundation
import NewsstandImaging
import NewsstandTestSupport
import TestPictures
import XCTest

/// The fidelity measure itself, and the renderer measured with it on pictures that broke it before.
final class InkCorrelationTests: XCTestCase {
    // MARK: The measure

    func testArtThatFollowsTheLightScoresNearOneAndInvertedArtNearMinusOne() {
        // Left half white, right half black, drawn as dense glyphs on the left and blanks on the right.
        let picture = halves(left: 255, right: 0, width: 80, height: 64)
        let follows = Array(repeating: "@@@@    ", count: 4)
        let inverted = Array(repeating: "    @@@@", count: 4)
        XCTAssertGreaterThan(InkCorrelation(art: follows, picture: picture).perCell, 0.99)
        XCTAssertLessThan(InkCorrelation(art: inverted, picture: picture).perCell, -0.99)
        // On a light background ink should follow darkness instead.
        XCTAssertGreaterThan(InkCorrelation(art: inverted, picture: picture, background: .light).perCell, 0.99)
    }

    func testQuartersSeeWhereInkSitsInsideACell() {
        // Top half bright: `"` (ink at the top) follows it inside the cell, `_` (ink at the bottom) does not.
        var pixels = [UInt8](repeating: 255, count: 8 * 16 * 4)
        for y in 8..<16 { for x in 0..<8 { for c in 0..<3 { pixels[(y * 8 + x) * 4 + c] = 0 } } }
        let picture = RasterImage(width: 8, height: 16, pixels: pixels)
        XCTAssertGreaterThan(InkCorrelation(art: ["\""], picture: picture).subCell, 0.5)
        XCTAssertLessThan(InkCorrelation(art: ["_"], picture: picture).subCell, -0.5)
    }

    func testFlatArtOrFlatPicturesHaveNoCorrelation() {
        let picture = halves(left: 255, right: 0, width: 80, height: 64)
        XCTAssertTrue(InkCorrelation(art: Array(repeating: String(repeating: " ", count: 8), count: 4), picture: picture).perCell.isNaN)
        XCTAssertTrue(InkCorrelation(art: [], picture: picture).subCell.isNaN)
        let grey = RasterImage(width: 40, height: 40, red: 128, green: 128, blue: 128, alpha: 255)
        XCTAssertTrue(InkCorrelation(art: ["@ @ ", " @ @"], picture: grey).perCell.isNaN)
    }

    /// Measured from a screen (the art as a terminal drew it): a screen that shows the picture's light scores 1, one
    /// that shows it inverted -1, a blank one nothing; the screen is sampled as the picture is, whatever its pixel size.
    func testAScreenIsComparedWithThePictureAtTheSameSamples() {
        let picture = halves(left: 255, right: 0, width: 80, height: 64)
        let screen = halves(left: 230, right: 10, width: 8 * 7, height: 4 * 14) // 8 × 4 cells of 7 × 14 pixels
        XCTAssertGreaterThan(InkCorrelation(screen: screen, columns: 8, rows: 4, picture: picture).subCell, 0.99)
        let inverted = halves(left: 10, right: 230, width: 8 * 7, height: 4 * 14)
        XCTAssertLessThan(InkCorrelation(screen: inverted, columns: 8, rows: 4, picture: picture).perCell, -0.99)
        let blank = RasterImage(width: 56, height: 56, red: 0, green: 0, blue: 0, alpha: 255)
        XCTAssertTrue(InkCorrelation(screen: blank, columns: 8, rows: 4, picture: picture).subCell.isNaN)
        XCTAssertTrue(InkCorrelation(screen: screen, columns: 0, rows: 4, picture: picture).perCell.isNaN)
    }

    // MARK: The renderer, measured

    /// Thresholds a renderer that keeps each cell's light relative to the whole picture meets, and one that saturates
    /// mid-tones or stretches cells on their own fails (the renderer before tone mapping scored 0.69–0.72 per cell and
    /// 0.39–0.65 per quarter on these; now 0.92–0.98 and 0.79–0.97).
    func testAsciiArtCarriesThePicturesLightOnGeneratedCovers() {
        for size in [(40, 30), (120, 60)] {
            for picture in TestPicture.allCases {
                let score = measure(picture.image(), columns: size.0, rows: size.1)
                XCTAssertGreaterThan(score.perCell, 0.9, "\(picture.rawValue) at \(size.0)×\(size.1): \(score)")
                XCTAssertGreaterThan(score.subCell, 0.75, "\(picture.rawValue) at \(size.0)×\(size.1): \(score)")
            }
        }
    }

    func testAsciiArtCarriesThePhotosLight() throws {
        let photo = try ImageDecoder.decode(Data(contentsOf: try TestFiles.corpus("jpeg/jpeg-decoder/reftest/images/rgb.jpg")))
        for size in [(40, 30), (120, 60)] {
            let score = measure(photo, columns: size.0, rows: size.1)
            XCTAssertGreaterThan(score.perCell, 0.85, "photo at \(size.0)×\(size.1): \(score)")
            XCTAssertGreaterThan(score.subCell, 0.75, "photo at \(size.0)×\(size.1): \(score)")
        }
    }

    func testLightBackgroundArtFollowsTheDarkness() {
        let score = measure(TestPicture.titleBand.image(), columns: 40, rows: 30, background: .light)
        XCTAssertGreaterThan(score.perCell, 0.9, "\(score)")
    }

    // MARK: Helpers

    /// Renders `picture` as ASCII art and scores the cells the picture fills.
    private func measure(_ picture: RasterImage, columns: Int, rows: Int, background: TerminalBackground = .dark) -> InkCorrelation {
        let options = AsciiArtOptions(columns: columns, rows: rows, background: background)
        let art = AsciiArtRenderer.render(picture, options: options)
        let fit = AsciiArtRenderer.fittedSize(imageWidth: picture.width, imageHeight: picture.height, options: options)
        let left = (columns - fit.columns) / 2, top = (rows - fit.rows) / 2
        let region = art.lines[top..<(top + fit.rows)].map { String(Array($0)[left..<(left + fit.columns)]) }
        return InkCorrelation(art: region, picture: picture, background: background)
    }

    private func halves(left: UInt8, right: UInt8, width: Int, height: Int) -> RasterImage {
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let value = x < width / 2 ? left : right
                for c in 0..<3 { pixels[(y * width + x) * 4 + c] = value }
            }
        }
        return RasterImage(width: width, height: height, pixels: pixels)
    }
}
