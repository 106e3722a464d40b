import XCTest
@testable import NewsstandImaging

final class ResamplerTests: XCTestCase {
    func testCheckerboardAveragesToMidGreyInLinearLight() {
        let board = SyntheticImages.grey(width: 64, height: 64) { x, y in (x + y) % 2 == 0 ? 0 : 255 }
        let small = Resampler.areaAverage(board, width: 8, height: 8)
        XCTAssertEqual(small.width, 8)
        XCTAssertEqual(small.height, 8)
        for y in 0..<8 {
            for x in 0..<8 {
                let p = small.pixel(x: x, y: y)
                XCTAssertEqual(Double(p.red), 188, accuracy: 1, "linear-light mean of 0 and 255 is sRGB ~188, not 128")
                XCTAssertEqual(p.red, p.green)
                XCTAssertEqual(p.alpha, 255)
            }
        }
        let one = Resampler.areaAverage(board, width: 1, height: 1)
        XCTAssertEqual(Double(one.pixels[0]), 188, accuracy: 1)
    }

    func testFractionalCoverageIsAreaWeighted() {
        // 3 px → 2 px: the middle pixel is split between both outputs.
        let row = SyntheticImages.grey(width: 3, height: 1) { x, _ in x == 0 ? 255 : 0 }
        let out = Resampler.areaAverage(row, width: 2, height: 1)
        // Left output = 2/3 white + 1/3 black in linear light.
        XCTAssertEqual(Double(out.pixels[0]), Double(SRGB.encodeByte(2.0 / 3)), accuracy: 1)
        XCTAssertEqual(out.pixels[4], 0)
    }

    func testTransparentPixelsDoNotBleedTheirColour() {
        var pixels: [UInt8] = []
        for x in 0..<4 { pixels += x < 2 ? [255, 0, 0, 0] : [0, 0, 255, 255] }
        let image = RasterImage(width: 4, height: 1, pixels: pixels)
        let out = Resampler.areaAverage(image, width: 1, height: 1)
        XCTAssertEqual(out.pixels[0], 0)
        XCTAssertEqual(out.pixels[2], 255)
        XCTAssertEqual(Double(out.pixels[3]), 128, accuracy: 1)
    }

    func testSameSizeIsUnchangedAndUpscalingRepeatsPixels() {
        let image = SyntheticImages.grey(width: 5, height: 3) { x, y in UInt8(x * 40 + y) }
        XCTAssertEqual(Resampler.areaAverage(image, width: 5, height: 3), image)
        let dot = SyntheticImages.solid(width: 1, height: 1, red: 10, green: 120, blue: 250)
        let big = Resampler.areaAverage(dot, width: 3, height: 4)
        for y in 0..<4 { for x in 0..<3 { XCTAssertTrue(big.pixel(x: x, y: y) == (10, 120, 250, 255)) } }
    }

    func testDegenerateSizes() {
        let image = SyntheticImages.grey(width: 5, height: 3) { _, _ in 7 }
        XCTAssertEqual(Resampler.areaAverage(image, width: 0, height: 3).pixels.count, 0)
        XCTAssertEqual(Resampler.areaAverage(image, width: -1, height: -1).width, 0)
        let fromEmpty = Resampler.areaAverage(RasterImage(width: 0, height: 0, pixels: []), width: 2, height: 2)
        XCTAssertEqual(fromEmpty.pixels, [UInt8](repeating: 0, count: 16))
        let extreme = SyntheticImages.grey(width: 10_000, height: 1) { x, _ in UInt8(x % 256) }
        XCTAssertEqual(Resampler.areaAverage(extreme, width: 3, height: 7).pixels.count, 3 * 7 * 4)
    }
}
