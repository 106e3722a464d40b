import Foundation
import NewsstandImaging
import NewsstandTestSupport
import TerminalCamera
import TestPictures
import XCTest

/// The second, independent fidelity score: ASCII art drawn by a real terminal (xterm with the DejaVu Sans Mono
/// TrueType face on Xvfb), photographed, and its lightness correlated with the picture's (`InkCorrelation(screen:)`).
/// Unlike `InkCorrelation(art:)`, nothing here uses the bitmap font the renderer matches glyphs against.
final class TrueTypeFidelityTests: XCTestCase {
    private func camera() throws -> TrueTypeArtCamera {
        do {
            return try TrueTypeArtCamera()
        } catch TerminalCameraError.missing(let program, let package) {
            throw TestRequirement.absent("\(program) is not installed (Debian package \(package); `make test` installs it)")
        } catch {
            throw TestRequirement.broken("the terminal camera did not start: \(error)")
        }
    }

    private func photographed<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as TerminalCameraError {
            throw TestRequirement.broken("xterm on Xvfb: \(error)")
        }
    }

    /// The camera sees what is drawn: art that follows the light scores near 1, the same art inverted near -1, and
    /// the photograph is exactly the text area.
    func testTheCameraSeesTheArtAsDrawn() throws {
        let camera = try camera()
        var pixels = [UInt8](repeating: 255, count: 80 * 64 * 4)
        for y in 0..<64 { for x in 40..<80 { for c in 0..<3 { pixels[(y * 80 + x) * 4 + c] = 0 } } }
        let picture = RasterImage(width: 80, height: 64, pixels: pixels) // left half white, right half black
        let follows = Array(repeating: "@@@@    ", count: 4), inverted = Array(repeating: "    @@@@", count: 4)
        let screen = try photographed { try camera.photograph(follows) }
        XCTAssertEqual(screen.width % 8, 0)
        XCTAssertEqual(screen.height % 4, 0)
        XCTAssertGreaterThan(screen.width / 8, 4, "cells of a real font size")
        XCTAssertGreaterThan(try photographed { try camera.score(follows, picture: picture) }.perCell, 0.95)
        XCTAssertLessThan(try photographed { try camera.score(inverted, picture: picture) }.perCell, -0.95)
    }

    /// Our art on the generated covers, as xterm draws it, carries their light. The thresholds are ones the renderer
    /// before tone mapping (ae9b4a4^, each cell's glyph matched to levels stretched between percentiles) fails by
    /// this measure: per cell it scored 0.60 / 0.59 on the gradient, 0.64 / 0.64 on the title band and 0.12 / 0.44 on
    /// the text page (40×30 / 120×60); per quarter 0.54–0.61, 0.18–0.38 on text. Today's: 0.93 / 0.92, 0.87 / 0.92,
    /// 0.59 / 0.87; per quarter 0.83–0.89 and 0.39 / 0.66.
    func testOurArtDrawnInATrueTypeFaceCarriesTheLight() throws {
        let camera = try camera()
        let floors: [TestPicture: (perCell: Double, subCell: Double)] = [.gradient: (0.8, 0.75), .titleBand: (0.8, 0.75), .text: (0.5, 0.3)]
        for size in [(columns: 40, rows: 30), (columns: 120, rows: 60)] {
            for picture in TestPicture.allCases {
                let art = Self.ourArt(picture.image(), columns: size.columns, rows: size.rows)
                let score = try photographed { try camera.score(art, picture: picture.image()) }
                let floor = try XCTUnwrap(floors[picture])
                let wanted = size.columns == 120 && picture == .text ? (perCell: 0.75, subCell: 0.55) : floor
                XCTAssertGreaterThan(score.perCell, wanted.perCell, "\(picture.rawValue) at \(size.columns)×\(size.rows): \(score)")
                XCTAssertGreaterThan(score.subCell, wanted.subCell, "\(picture.rawValue) at \(size.columns)×\(size.rows): \(score)")
            }
        }
        // Art that ignores the picture (the art of another picture) does not pass the measure.
        let wrong = Self.ourArt(TestPicture.gradient.image(), columns: 40, rows: 30)
        XCTAssertLessThan(try photographed { try camera.score(wrong, picture: TestPicture.titleBand.image()) }.perCell, 0.5)
    }

    /// Drawn by xterm, our art follows the gradient and the text page more closely than jp2a's at the same size (by
    /// quarter cells: 0.89 against 0.83, 0.39 against 0.27). On the title band it does not: jp2a's 0.86 beats our 0.83
    /// (see the covers benchmark's README), so that is not asserted.
    func testOurArtDrawnInATrueTypeFaceFollowsTheLightAtLeastAsWellAsJp2a() throws {
        let camera = try camera()
        let jp2a = try TestRequirement.program("jp2a", package: "jp2a")
        let folder = try TestFiles.scratchFolder(for: self)
        for picture in [TestPicture.gradient, .text] {
            let file = folder.appendingPathComponent("\(picture.rawValue).png")
            try ImageEncoder.png(picture.image()).write(to: file)
            let ours = Self.ourArt(picture.image(), columns: 40, rows: 30)
            let theirs = try Self.run(jp2a, ["--size=\(ours[0].count)x\(ours.count)", file.path])
            XCTAssertEqual(theirs.count, ours.count, theirs.joined(separator: "\n"))
            let our = try photographed { try camera.score(ours, picture: picture.image()) }
            let their = try photographed { try camera.score(theirs, picture: picture.image()) }
            XCTAssertGreaterThan(our.subCell, their.subCell, "\(picture.rawValue): ours \(our), jp2a \(their)")
        }
    }

    /// Our ASCII art of `picture`, only the cells the picture fills.
    static func ourArt(_ picture: RasterImage, columns: Int, rows: Int) -> [String] {
        let options = AsciiArtOptions(columns: columns, rows: rows)
        let art = AsciiArtRenderer.render(picture, options: options)
        let fit = AsciiArtRenderer.fittedSize(imageWidth: picture.width, imageHeight: picture.height, options: options)
        let left = (columns - fit.columns) / 2, top = (rows - fit.rows) / 2
        return art.lines[top..<(top + fit.rows)].map { String(Array($0)[left..<(left + fit.columns)]) }
    }

    /// A tool's output lines (no escape sequences), padded to one width.
    private static func run(_ executable: String, _ arguments: [String]) throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw TestRequirement.broken("\(executable) exited with \(process.terminationStatus)") }
        var lines = String(decoding: data, as: UTF8.self)
            .replacingOccurrences(of: "\u{1B}\\[[0-9;?]*[A-Za-z]", with: "", options: .regularExpression)
            .replacingOccurrences(of: "\r", with: "").components(separatedBy: "\n")
        while lines.last?.isEmpty == true { lines.removeLast() }
        let width = lines.map(\.count).max() ?? 0
        return lines.map { $0 + String(repeating: " ", count: width - $0.count) }
    }
}
