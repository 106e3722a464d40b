import NewsstandImaging
import NewsstandTestSupport
import XCTest

/// PNG writing: every picture comes back as it went in, fast or not, incompressible noise too (the buffer is sized
/// from libpng's bound, so the worst case must fit in the one write).
final class ImageEncoderTests: XCTestCase {
    func testPNGRoundTripsSmoothPicturesAndNoiseFastOrNot() throws {
        var generator = SeededRandom(seed: 11)
        let noise = RasterImage(width: 97, height: 61, pixels: (0..<(97 * 61 * 4)).map { _ in UInt8(truncatingIfNeeded: generator.next()) })
        let smooth = SyntheticImages.grey(width: 200, height: 120) { x, y in UInt8((x + y) % 256) }
        for picture in [noise, smooth, SyntheticImages.solid(width: 1, height: 1, red: 1, green: 2, blue: 3)] {
            for fast in [false, true] {
                let data = try ImageEncoder.png(picture, fast: fast)
                XCTAssertEqual(try ImageDecoder.decode(data), picture, "\(picture.width)×\(picture.height), fast: \(fast)")
            }
        }
        // Fast trades size for speed: never smaller than the default on a smooth picture.
        XCTAssertGreaterThanOrEqual(try ImageEncoder.png(smooth, fast: true).count, try ImageEncoder.png(smooth).count)
        XCTAssertThrowsError(try ImageEncoder.png(RasterImage(width: 0, height: 0)))
    }
}
