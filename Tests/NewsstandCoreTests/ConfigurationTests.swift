import Foundation
import XCTest
@testable import NewsstandCore

final class ConfigurationTests: XCTestCase {
    func testDefaults() {
        let configuration = Configuration.parse("")
        XCTAssertEqual(configuration.theme, "auto")
        XCTAssertEqual(configuration.maxDownloads, 3)
        XCTAssertEqual(configuration.warnings, [])
    }

    func testThemeAndMaxDownloadsAreRead() {
        let configuration = Configuration.parse("""
            # my settings
            theme paper   # light background

            max-downloads\t5
            """)
        XCTAssertEqual(configuration.theme, "paper")
        XCTAssertEqual(configuration.maxDownloads, 5)
        XCTAssertEqual(configuration.warnings, [])
    }

    func testUnknownKeysAndBadValuesAreReportedWithLineNumbers() {
        let configuration = Configuration.parse("theme paper\ncolour red\nmax-downloads 99\nmax-downloads many\nmax-downloads 2\n",
                                                source: "/home/r/.config/newsstand/config")
        XCTAssertEqual(configuration.theme, "paper")
        XCTAssertEqual(configuration.maxDownloads, 2, "the rest of the file still applies")
        XCTAssertEqual(configuration.warnings.count, 3, "\(configuration.warnings)")
        XCTAssertTrue(configuration.warnings[0].contains("line 2") && configuration.warnings[0].contains("colour"), configuration.warnings[0])
        XCTAssertTrue(configuration.warnings[1].contains("line 3") && configuration.warnings[1].contains("max-downloads"), configuration.warnings[1])
        XCTAssertTrue(configuration.warnings[2].contains("line 4"), configuration.warnings[2])
        XCTAssertTrue(configuration.warnings.allSatisfy { $0.hasPrefix("/home/r/.config/newsstand/config") })
    }

    /// The README's example file holds every setting and reads without a warning.
    func testTheReadmeExampleNamesEverySettingAndIsValid() throws {
        let readme = try String(contentsOf: TestFiles.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try XCTUnwrap(readme.components(separatedBy: "### Configuration").dropFirst().first)
        let example = try XCTUnwrap(section.components(separatedBy: "```").dropFirst().first)
        let configuration = Configuration.parse(example)
        XCTAssertEqual(configuration.warnings, [])
        let names = example.split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) }
        XCTAssertEqual(names, Configuration.settingNames, "the README lists every setting, in order")
        XCTAssertEqual(configuration.theme, "paper")
        XCTAssertEqual(configuration.rateLimit, 1 << 20, "values are read, not only names")
    }

    /// A value a setting cannot take leaves its default and says what it takes; an empty one too (`theme` alone).
    func testEverySettingRefusesABadValueSayingWhatItTakes() {
        // Every field but the warnings, as text.
        func settings(_ configuration: Configuration) -> [String] {
            Mirror(reflecting: configuration).children.filter { $0.label != "warnings" }.map { "\($0.label ?? ""): \($0.value)" }
        }
        for name in Configuration.settingNames {
            // Any theme name or player program is taken here (whether it exists is found when it is used).
            for value in ["theme", "player", "browser", "notify-program"].contains(name) ? [""] : ["???", ""] {
                let configuration = Configuration.parse("\(name) \(value)", source: "config")
                XCTAssertEqual(configuration.warnings.count, 1, "\(name) '\(value)': \(configuration.warnings)")
                XCTAssertTrue(configuration.warnings.first?.hasPrefix("config, line 1: \(name) takes ") == true, "\(configuration.warnings)")
                XCTAssertEqual(settings(configuration), settings(Configuration()), "\(name) '\(value)' changed a setting")
            }
        }
    }

    func testUnknownSettingsNameTheKnownOnes() {
        let warning = Configuration.parse("colour red").warnings.first ?? ""
        XCTAssertTrue(warning.contains("unknown setting 'colour'") && warning.contains("rate-limit"), warning)
        for name in Configuration.settingNames {
            XCTAssertFalse(Configuration.parse("\(name) ???").warnings.contains { $0.contains("unknown setting") }, "\(name) is read")
        }
    }

    func testCRLFLinesAreAccepted() {
        let configuration = Configuration.parse("theme paper\r\nmax-downloads 4\r\n")
        XCTAssertEqual(configuration.theme, "paper")
        XCTAssertEqual(configuration.maxDownloads, 4)
        XCTAssertEqual(configuration.warnings, [])
    }

    func testLoadFromFileAndMissingFile() throws {
        let paths = try TestSupport.paths(for: self)
        XCTAssertEqual(Configuration.load(from: paths.configFile), Configuration(), "a missing file gives the defaults")
        try "theme solarized\nmax-downloads 1\nbogus\n".write(to: paths.configFile, atomically: true, encoding: .utf8)
        let configuration = Configuration.load(from: paths.configFile)
        XCTAssertEqual(configuration.theme, "solarized")
        XCTAssertEqual(configuration.maxDownloads, 1)
        XCTAssertEqual(configuration.warnings.count, 1)
        XCTAssertTrue(configuration.warnings[0].contains(paths.configFile.path) && configuration.warnings[0].contains("line 3"))
    }
}
