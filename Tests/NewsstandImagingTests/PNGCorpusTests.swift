import Foundation
import XCTest
@testable import NewsstandImaging

/// PngSuite and image-rs/image-png regression files, decoded through libpng's simplified API.
final class PNGCorpusTests: XCTestCase {
    func testEveryValidPngSuiteImageDecodesToItsIHDRSize() throws {
        let suite = try Corpora.folder("pngsuite")
        let table = try String(contentsOf: suite.appendingPathComponent("IHDR.tsv"), encoding: .utf8)
        var expected: [String: (Int, Int)] = [:]
        for line in table.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: "\t")
            guard fields.count >= 3, let w = Int(fields[1]), let h = Int(fields[2]) else { continue }
            expected[String(fields[0])] = (w, h)
        }
        let files = try Corpora.files(in: suite.appendingPathComponent("png"), withExtension: "png")
            .filter { !$0.lastPathComponent.hasPrefix("x") && $0.lastPathComponent != "PngSuite.png" }
        XCTAssertGreaterThanOrEqual(files.count, 161)
        for file in files {
            let name = file.lastPathComponent
            guard let (w, h) = expected[name] else {
                XCTFail("\(name) is missing from IHDR.tsv"); continue
            }
            do {
                let image = try ImageDecoder.decode(Data(contentsOf: file))
                XCTAssertEqual(image.width, w, name)
                XCTAssertEqual(image.height, h, name)
                XCTAssertEqual(image.pixels.count, w * h * 4, name)
            } catch {
                XCTFail("\(name) should decode but threw \(error)")
            }
        }
    }

    func testEveryCorruptPngSuiteImageIsRejected() throws {
        let suite = try Corpora.folder("pngsuite")
        let table = try String(contentsOf: suite.appendingPathComponent("EXPECTED-corrupt.tsv"), encoding: .utf8)
        let listed = Set(table.split(separator: "\n").dropFirst().compactMap { $0.split(separator: "\t").first.map(String.init) })
        let files = try Corpora.files(in: suite.appendingPathComponent("png"), withExtension: "png")
            .filter { $0.lastPathComponent.hasPrefix("x") }
        XCTAssertEqual(Set(files.map(\.lastPathComponent)), listed)
        XCTAssertEqual(files.count, 14)
        for file in files {
            XCTAssertThrowsError(try ImageDecoder.decode(Data(contentsOf: file)), file.lastPathComponent) { error in
                XCTAssertFalse((error as? ImageDecodingError)?.description.isEmpty ?? true)
            }
        }
    }

    func testCRCErrorsInCriticalChunksAreReportedAsCRCErrors() throws {
        let png = try Corpora.folder("pngsuite/png")
        for name in ["xcsn0g01.png", "xhdn0g08.png"] {
            XCTAssertThrowsError(try ImageDecoder.decode(Data(contentsOf: png.appendingPathComponent(name)))) { error in
                XCTAssertTrue((error as? ImageDecodingError)?.description.contains("CRC") ?? false, "\(name): \(error)")
            }
        }
    }

    func testEightBitPngSuitePixelsMatchTheJSONReference() throws {
        // Files without gAMA, so libpng's sRGB output equals the raw samples: grey, RGB, 4-bit grey, palette+tRNS,
        // every filter type and several zlib compression levels.
        let suite = try Corpora.folder("pngsuite")
        let names = ["f00n0g08", "f00n2c08", "f01n0g08", "f01n2c08", "f02n0g08", "f02n2c08", "f03n0g08", "f03n2c08",
                     "f04n0g08", "f04n2c08", "f99n0g04", "tm3n3p02", "z00n2c08", "z03n2c08", "z06n2c08", "z09n2c08"]
        for name in names {
            let image = try ImageDecoder.decode(Data(contentsOf: suite.appendingPathComponent("png/\(name).png")))
            let json = try JSONSerialization.jsonObject(with: Data(contentsOf: suite.appendingPathComponent("json/\(name).json")))
            guard let reference = json as? [Int] else { XCTFail("\(name).json is not a flat array"); continue }
            XCTAssertEqual(reference.count, image.pixels.count, name)
            var mismatches = 0
            for i in stride(from: 0, to: min(reference.count, image.pixels.count), by: 4) {
                let alpha = reference[i + 3]
                if Int(image.pixels[i + 3]) != alpha { mismatches += 1; continue }
                if alpha == 0 { continue }
                for c in 0..<3 where abs(Int(image.pixels[i + c]) - reference[i + c]) > 1 { mismatches += 1 }
            }
            XCTAssertEqual(mismatches, 0, "\(name): \(mismatches) samples differ from the JSON reference")
        }
    }

    func testGammaIsConvertedToSRGB() throws {
        // PngSuite's bas* files declare gAMA 1.0 (linear samples); the decoder returns sRGB-encoded samples,
        // so raw linear mid-grey 128 comes out near 188.
        let suite = try Corpora.folder("pngsuite")
        let image = try ImageDecoder.decode(Data(contentsOf: suite.appendingPathComponent("png/basn0g08.png")))
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: suite.appendingPathComponent("json/basn0g08.json")))
        let raw = try XCTUnwrap(json as? [Int])
        guard let i = stride(from: 0, to: raw.count, by: 4).first(where: { raw[$0] == 128 }) else {
            return XCTFail("basn0g08 has no raw 128 sample")
        }
        XCTAssertEqual(Double(image.pixels[i]), 188, accuracy: 2)
    }

    func testImagePngRegressionFiles() throws {
        let folder = try Corpora.folder("pngsuite/extra-image-rs-png")
        let files = try Corpora.files(in: folder, withExtension: "png")
        XCTAssertFalse(files.isEmpty)
        for file in files {
            let name = file.lastPathComponent
            let result = Result { try ImageDecoder.decode(Data(contentsOf: file)) }
            if name.hasPrefix("x_") {
                if case .success = result { XCTFail("\(name) should fail to decode") }
            } else if case .failure(let error) = result {
                XCTFail("\(name) should decode but threw \(error)")
            }
        }
    }
}
