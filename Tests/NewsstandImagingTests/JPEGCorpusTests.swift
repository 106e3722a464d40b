import Foundation
import XCTest
@testable import NewsstandImaging

/// image-rs/jpeg-decoder reference and crash tests, plus libjpeg-turbo's own test images.
final class JPEGCorpusTests: XCTestCase {
    /// Largest per-sample difference between two same-sized images, ignoring alpha.
    private func maxDifference(_ a: RasterImage, _ b: RasterImage) -> Int {
        var worst = 0
        for i in 0..<a.pixels.count where i % 4 != 3 {
            worst = max(worst, abs(Int(a.pixels[i]) - Int(b.pixels[i])))
        }
        return worst
    }

    private func meanDifference(_ a: RasterImage, _ b: RasterImage) -> Double {
        var total = 0
        for i in 0..<a.pixels.count where i % 4 != 3 {
            total += abs(Int(a.pixels[i]) - Int(b.pixels[i]))
        }
        return Double(total) / Double(max(1, a.pixels.count / 4 * 3))
    }

    func testReferenceJPEGsDecodeToTheSizeAndPixelsOfTheirReferencePNG() throws {
        let folder = try Corpora.folder("jpeg/jpeg-decoder/reftest/images")
        let disabled = Set(["ycck.jpg", "jpg-size-3x3.jpg", "jpg-size-4x4.jpg", "jpg-size-6x6.jpg"])
        let jpegs = Corpora.allFiles(under: folder, withExtension: "jpg")
        XCTAssertGreaterThanOrEqual(jpegs.count, 30)
        var compared = 0
        for jpeg in jpegs {
            let name = jpeg.lastPathComponent
            let referenceURL = jpeg.deletingPathExtension().appendingPathExtension("png")
            let image: RasterImage
            do {
                image = try ImageDecoder.decode(Data(contentsOf: jpeg))
            } catch {
                XCTFail("\(name) should decode but threw \(error)"); continue
            }
            guard FileManager.default.fileExists(atPath: referenceURL.path) else { continue } // ycck.jpg has none
            let reference = try ImageDecoder.decode(Data(contentsOf: referenceURL))
            XCTAssertEqual(image.width, reference.width, name)
            XCTAssertEqual(image.height, reference.height, name)
            guard image.width == reference.width, image.height == reference.height, !disabled.contains(name) else { continue }
            // Upstream's rule: every sample within +-3 (CMYK files included, via the EXPECTED.md formula).
            let worst = maxDifference(image, reference)
            XCTAssertLessThanOrEqual(worst, 3, "\(name): worst sample difference \(worst)")
            compared += 1
        }
        XCTAssertGreaterThanOrEqual(compared, 25)
    }

    func testScaledDecodesMatchTheReferenceScaledPNGs() throws {
        let folder = try Corpora.folder("jpeg/jpeg-decoder/reftest/images")
        let data = try Data(contentsOf: folder.appendingPathComponent("rgb.jpg"))
        let full = try ImageDecoder.decode(data)
        XCTAssertEqual(full.width, 500)
        for (w, h) in [(250, 167), (125, 84), (63, 42)] {
            let scaled = try ImageDecoder.decode(data, targetSize: (w, h))
            XCTAssertEqual(scaled.width, w)
            XCTAssertEqual(scaled.height, h)
            let reference = try ImageDecoder.decode(Data(contentsOf: folder.appendingPathComponent("rgb_\(w)x\(h).png")))
            XCTAssertEqual(reference.width, w)
            // The references come from jpeg-decoder's own reduced IDCT; libjpeg-turbo's 1/2 and 1/4 scaled IDCTs and
            // chroma upsampling differ by a few levels on average (1/8 matches within +-3), so compare on average.
            XCTAssertLessThanOrEqual(meanDifference(scaled, reference), 6.0, "rgb.jpg at \(w)x\(h)")
        }
    }

    func testScaledDecodePicksTheSmallestScaleNotBelowTheHint() throws {
        let folder = try Corpora.folder("jpeg/jpeg-decoder/reftest/images")
        let data = try Data(contentsOf: folder.appendingPathComponent("grayscale_large.jpg"))
        let full = try ImageDecoder.decode(data)
        func expected(_ denominator: Int) -> (Int, Int) {
            ((full.width + denominator - 1) / denominator, (full.height + denominator - 1) / denominator)
        }
        XCTAssertGreaterThanOrEqual(full.width, 64)
        // A tiny hint gets the 1/8 scale.
        var image = try ImageDecoder.decode(data, targetSize: (1, 1))
        XCTAssertEqual(image.width, expected(8).0); XCTAssertEqual(image.height, expected(8).1)
        // Just over 1/4 of the size needs the 1/2 scale.
        image = try ImageDecoder.decode(data, targetSize: (expected(4).0 + 1, 1))
        XCTAssertEqual(image.width, expected(2).0); XCTAssertEqual(image.height, expected(2).1)
        // Exactly 1/4 is enough for 1/4.
        image = try ImageDecoder.decode(data, targetSize: (expected(4).0, expected(4).1))
        XCTAssertEqual(image.width, expected(4).0)
        // A hint larger than the source leaves it at full size.
        image = try ImageDecoder.decode(data, targetSize: (full.width * 3, full.height * 3))
        XCTAssertEqual(image.width, full.width); XCTAssertEqual(image.height, full.height)
        // The height matters too.
        image = try ImageDecoder.decode(data, targetSize: (1, expected(2).1 + 1))
        XCTAssertEqual(image.width, full.width)
    }

    func testCorruptAndFuzzedJPEGsNeverCrashOrHang() throws {
        let folder = try Corpora.folder("jpeg/jpeg-decoder/crashtest/images")
        let files = Corpora.allFiles(under: folder, withExtension: "jpg")
        XCTAssertGreaterThanOrEqual(files.count, 100)
        var decoded = 0, rejected = 0
        for file in files {
            let start = Date()
            do {
                let image = try ImageDecoder.decode(Data(contentsOf: file))
                XCTAssertEqual(image.pixels.count, image.width * image.height * 4)
                decoded += 1
            } catch let error as ImageDecodingError {
                XCTAssertFalse(error.description.isEmpty)
                rejected += 1
            }
            XCTAssertLessThan(Date().timeIntervalSince(start), 10, "\(file.lastPathComponent) took too long")
        }
        XCTAssertEqual(decoded + rejected, files.count)
        XCTAssertGreaterThan(rejected, 0)
    }

    func testEmptyAndTinyFilesThrow() throws {
        let folder = try Corpora.folder("jpeg/jpeg-decoder/crashtest/images")
        for name in ["empty.jpg", "missing-frame-image-1410.jpg", "missing-sof.jpg"] {
            XCTAssertThrowsError(try ImageDecoder.decode(Data(contentsOf: folder.appendingPathComponent(name))), name)
        }
    }

    func testArithmeticAndHuffmanCodedCopiesDecodeToIdenticalPixels() throws {
        let folder = try Corpora.folder("jpeg/libjpeg-turbo")
        let huffman = try ImageDecoder.decode(Data(contentsOf: folder.appendingPathComponent("testimgint.jpg")))
        let arithmetic = try ImageDecoder.decode(Data(contentsOf: folder.appendingPathComponent("testimgari.jpg")))
        XCTAssertEqual(huffman.width, 227)
        XCTAssertEqual(huffman.height, 149)
        XCTAssertTrue(huffman == arithmetic, "testimgint.jpg and testimgari.jpg must decode bit-identically")
    }

    func testTwelveBitJPEGIsRefusedClearly() throws {
        let folder = try Corpora.folder("jpeg/libjpeg-turbo")
        XCTAssertThrowsError(try ImageDecoder.decode(Data(contentsOf: folder.appendingPathComponent("monkey12.jpg")))) { error in
            let text = (error as? ImageDecodingError)?.description ?? ""
            XCTAssertTrue(text.contains("precision") && text.contains("8-bit"), text)
        }
    }

    func testTruncatedHeaderIsReportedAsTruncated() throws {
        let folder = try Corpora.folder("jpeg/libjpeg-turbo")
        let data = try Data(contentsOf: folder.appendingPathComponent("testorig.jpg"))
        XCTAssertThrowsError(try ImageDecoder.decode(data.prefix(100))) { error in
            XCTAssertEqual(error as? ImageDecodingError, ImageDecodingError("truncated JPEG data"))
        }
        // Cut inside the entropy-coded data: the decodable part is still returned.
        let partial = try ImageDecoder.decode(data.prefix(data.count / 2))
        XCTAssertEqual(partial.width, 227)
    }
}
