import NewsstandTestSupport
import XCTest
@testable import NewsstandUI

final class ThemeTests: XCTestCase {
    static let themesDirectory = TestFiles.packageRoot.appendingPathComponent("Themes")

    /// The bundled themes' names (the files are read here; the app reads them in the runtime).
    static func bundledNames() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: themesDirectory.path).filter { $0.hasSuffix(".theme") }
            .map { String($0.dropLast(6)) }.sorted()
    }

    /// A bundled theme, parsed.
    static func bundled(_ name: String) throws -> Theme {
        try ThemeParser.parse(String(contentsOf: themesDirectory.appendingPathComponent(name + ".theme"), encoding: .utf8), name: name)
    }

    func testParsesColoursAndAttributes() throws {
        let theme = try ThemeParser.parse("""
            # comment
            background light
            color title   bright-white  #102030  bold underline   # trailing comment
            color selection color208 default reverse
            """, name: "t")
        XCTAssertTrue(theme.isLight)
        XCTAssertEqual(theme[.title], TextStyle(foreground: .basic(15), background: .rgb(0x10, 0x20, 0x30), attributes: [.bold, .underline]))
        XCTAssertEqual(theme[.selection], TextStyle(foreground: .indexed(208), background: .default, attributes: .reverse))
    }

    func testWindowsLineEndsAndNonASCIICommentsAreRead() throws {
        let crlf = try ThemeParser.parse("# café thème — ünïcode\r\nbackground light\r\ncolor title red default bold\r\n", name: "t")
        XCTAssertTrue(crlf.isLight)
        XCTAssertEqual(crlf[.title], TextStyle(foreground: .basic(1), background: .default, attributes: .bold))
        XCTAssertThrowsError(try ThemeParser.parse("background dark\r\ncolor titel red default\r\n", name: "bad")) {
            XCTAssertEqual("\($0)", "theme bad, line 2: unknown element 'titel'")
        }
    }

    func testThemesMayChooseTheCoverMode() throws {
        XCTAssertEqual(try ThemeParser.parse("cover-mode ascii-color", name: "t").coverMode, .asciiColor)
        XCTAssertNil(try ThemeParser.parse("background dark", name: "t").coverMode)
        XCTAssertThrowsError(try ThemeParser.parse("cover-mode sixel", name: "t")) { XCTAssertTrue("\($0)".contains("cover-mode")) }
        XCTAssertEqual(try Self.bundled("mono").coverMode, .ascii, "the colourless theme keeps covers colourless")
        XCTAssertEqual(Theme(name: "x", styles: [:]).withoutColors().coverMode, .ascii)
    }

    func testErrorsNameTheLine() {
        XCTAssertThrowsError(try ThemeParser.parse("background dark\ncolor titel red default", name: "bad")) {
            XCTAssertEqual("\($0)", "theme bad, line 2: unknown element 'titel'")
        }
        XCTAssertThrowsError(try ThemeParser.parse("color title red nocolor", name: "bad")) { XCTAssertTrue("\($0)".contains("unknown colour 'nocolor'")) }
        XCTAssertThrowsError(try ThemeParser.parse("color title red default blink", name: "bad")) { XCTAssertTrue("\($0)".contains("unknown attribute 'blink'")) }
        XCTAssertThrowsError(try ThemeParser.parse("colour title red default", name: "bad")) { XCTAssertTrue("\($0)".contains("unknown directive")) }
    }

    func testBundledThemesParseAndStyleEveryElement() throws {
        XCTAssertEqual(Set(try Self.bundledNames()).isSuperset(of: ["dark", "paper", "mono"]), true)
        for name in ["dark", "paper", "mono"] {
            let theme = try Self.bundled(name)
            let missing = ThemeElement.allCases.filter { theme.styles[$0] == nil }
            XCTAssertEqual(missing, [], "\(name) leaves elements unstyled")
        }
        XCTAssertTrue(try Self.bundled("paper").isLight)
        let mono = try Self.bundled("mono")
        XCTAssertTrue(mono.styles.values.allSatisfy { $0.foreground == .default && $0.background == .default }, "mono must use no colours")
    }

    func testNoColorKeepsStructureWithoutColours() throws {
        let dark = try Self.bundled("dark")
        let plain = dark.withoutColors()
        XCTAssertTrue(plain.styles.values.allSatisfy { $0.foreground == .default && $0.background == .default })
        XCTAssertTrue(plain[.selection].attributes.contains(.reverse), "the selection must stay visible without colours")
        XCTAssertTrue(plain[.title].attributes.contains(.bold))
    }

    func testColourApproximation() {
        XCTAssertEqual(ColorApproximation.indexed(red: 255, green: 0, blue: 0), 196)
        XCTAssertEqual(ColorApproximation.indexed(red: 128, green: 128, blue: 128), 244)
        XCTAssertEqual(ColorApproximation.basic(forIndexed: 196, colors: 8), 1)
        XCTAssertEqual(ColorApproximation.basic(forIndexed: 231, colors: 16), 15)
    }
}
