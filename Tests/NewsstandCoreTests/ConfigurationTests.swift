import Foundation
import XCTest
@testable import NewsstandCore

final class ConfigurationTests: XCTestCase {
    func testDefaults() {
        let configuration = Configuration.parse("")
        XCTAssertEqual(configuration.theme, "dark")
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
