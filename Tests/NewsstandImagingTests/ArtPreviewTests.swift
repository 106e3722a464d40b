import Foundation
import XCTest
@testable import NewsstandImaging

/// Renders real pictures from the corpora. Set NEWSSTAND_ART_PREVIEW=1 to print them for eyeballing.
final class ArtPreviewTests: XCTestCase {
    func testRealPicturesRenderWithStructureAndShading() throws {
        let corpora = try Corpora.folder(".")
        let files = ["jpeg/libjpeg-turbo/testorig.jpg", "jpeg/jpeg-decoder/reftest/images/rgb.jpg",
                     "jpeg/jpeg-decoder/reftest/images/mozilla/jpg-cmyk-1.jpg", "pngsuite/PngSuite.png"]
        let show = ProcessInfo.processInfo.environment["NEWSSTAND_ART_PREVIEW"] != nil
        for name in files {
            let data = try Data(contentsOf: corpora.appendingPathComponent(name))
            let options = AsciiArtOptions(columns: 60, rows: 24)
            let image = try ImageDecoder.decode(data, targetSize: (options.columns * 4, options.rows * 8))
            for background in [TerminalBackground.dark, .light] {
                var o = options
                o.background = background
                let art = AsciiArtRenderer.render(image, options: o)
                XCTAssertEqual(art.lines.count, 24)
                let glyphs = Set(art.lines.joined())
                XCTAssertGreaterThanOrEqual(glyphs.count, 6, "\(name) should use a range of glyphs")
                if show { print("== \(name) \(background)\n\(art.text)") }
            }
        }
    }
}
