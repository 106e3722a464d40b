import Foundation
import XCTest

/// `newsstand cover`: covers printed as text art, as scripts and pipes see them.
final class CoverCommandTests: EndToEndTestCase {

    private var sampleCover: String { TestEnvironment.sampleLibrary.appendingPathComponent("covers/2025-autumn.jpg").path }

    private func lines(_ output: String) -> [String] {
        var lines = output.components(separatedBy: "\n")
        XCTAssertEqual(lines.last, "", "output ends with a newline")
        lines.removeLast()
        return lines
    }

    /// The text without SGR sequences.
    private func stripped(_ text: String) -> String {
        text.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
    }

    func testFileCoverPrintsExactlyHeightLinesOfWidthColumns() throws {
        let environment = TestEnvironment.environment(home: home)
        let result = try TestEnvironment.run(["cover", "--file", sampleCover, "--width", "40", "--height", "30"], environment: environment)
        XCTAssertEqual(result.status, 0, result.errors)
        let rows = lines(result.output)
        XCTAssertEqual(rows.count, 30)
        for row in rows {
            XCTAssertEqual(row.count, 40, row)
            XCTAssertTrue(row.utf8.allSatisfy { $0 >= 0x20 && $0 <= 0x7E }, "plain ASCII when stdout is not a terminal: \(row)")
        }
        XCTAssertFalse(result.output.contains("\u{1B}"), "no escapes in ascii mode")
        XCTAssertGreaterThan(Set(result.output).count, 5, "a picture, not a blank")

        // The default height follows the picture: 600×800 at 40 columns of cells twice as tall as wide → 27 rows.
        let natural = try TestEnvironment.run(["cover", "--file", sampleCover], environment: environment)
        XCTAssertEqual(natural.status, 0, natural.errors)
        XCTAssertEqual(lines(natural.output).count, 27)
        XCTAssertTrue(lines(natural.output).allSatisfy { $0.count == 40 })
    }

    func testBlocksModePrintsColourEscapes() throws {
        var environment = TestEnvironment.environment(home: home)
        environment["COLORTERM"] = "truecolor"
        let result = try TestEnvironment.run(["cover", "--file", sampleCover, "--mode", "blocks", "--width", "20", "--height", "10"], environment: environment)
        XCTAssertEqual(result.status, 0, result.errors)
        XCTAssertTrue(result.output.contains("\u{1B}[38;2;"), "truecolor foreground")
        XCTAssertTrue(result.output.contains(";48;2;"), "truecolor background")
        let rows = lines(stripped(result.output))
        XCTAssertEqual(rows.count, 10)
        XCTAssertTrue(rows.allSatisfy { $0.count == 20 && $0.allSatisfy { $0 == "▀" || $0 == " " } }, rows.joined(separator: "\n"))

        environment["COLORTERM"] = nil
        let indexed = try TestEnvironment.run(["cover", "--file", sampleCover, "--mode", "ascii-color", "--width", "20"], environment: environment)
        XCTAssertEqual(indexed.status, 0, indexed.errors)
        XCTAssertTrue(indexed.output.contains("\u{1B}[38;5;"), "256 colours without COLORTERM=truecolor")
        XCTAssertFalse(indexed.output.contains("38;2;"))
        XCTAssertTrue(lines(stripped(indexed.output)).allSatisfy { $0.count == 20 })
    }

    func testCorruptFileExitsOneWithTheReason() throws {
        let corrupt = home.appendingPathComponent("corrupt.jpg")
        try Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 16, 1, 2, 3]).write(to: corrupt)
        let result = try TestEnvironment.run(["cover", "--file", corrupt.path], environment: TestEnvironment.environment(home: home))
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.errors.hasPrefix("newsstand: cannot draw the cover: "), result.errors)
        XCTAssertTrue(result.output.isEmpty)
        let junk = home.appendingPathComponent("junk.png")
        try Data("not an image".utf8).write(to: junk)
        let second = try TestEnvironment.run(["cover", "--file", junk.path], environment: TestEnvironment.environment(home: home))
        XCTAssertEqual(second.status, 1)
        XCTAssertTrue(second.errors.contains("cannot draw the cover: not a PNG or JPEG image"), second.errors)
        let usage = try TestEnvironment.run(["cover", "--file", sampleCover, "--mode", "sixel"], environment: TestEnvironment.environment(home: home))
        XCTAssertEqual(usage.status, 2)
    }

    func testIssueCoverComesThroughTheLibrary() throws {
        let environment = TestEnvironment.environment(home: home, sample: true)
        let result = try TestEnvironment.run(["cover", "2025-autumn", "--width", "24", "--height", "12", "--light"], environment: environment)
        XCTAssertEqual(result.status, 0, result.errors)
        XCTAssertEqual(lines(result.output).count, 12)
        XCTAssertTrue(lines(result.output).allSatisfy { $0.count == 24 })
        let cache = home.appendingPathComponent(".cache/newsstand/covers")
        let cached = try FileManager.default.contentsOfDirectory(atPath: cache.path)
        XCTAssertTrue(cached.contains { $0.hasSuffix("2025-autumn.jpg") }, "fetched into the shelf's cover cache: \(cached)")
        XCTAssertTrue(cached.contains { $0.hasSuffix(".validators") })
        let missing = try TestEnvironment.run(["cover", "no-such-issue"], environment: environment)
        XCTAssertEqual(missing.status, 1)
    }
}
