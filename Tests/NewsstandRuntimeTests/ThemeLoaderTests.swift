import Foundation
import XCTest
import NewsstandTestSupport
import NewsstandUI
@testable import NewsstandRuntime

/// Theme files are found and read in the runtime: the user's folder first, then the bundled themes.
final class ThemeLoaderTests: XCTestCase {
    static let themesDirectory = TestFiles.packageRoot.appendingPathComponent("Themes")

    func testBundledThemesAreListedAndLoaded() throws {
        let loader = ThemeLoader(searchDirectories: [Self.themesDirectory])
        XCTAssertTrue(Set(loader.availableThemes()).isSuperset(of: ["dark", "paper", "mono"]))
        XCTAssertTrue(try loader.load("paper").isLight)
        XCTAssertFalse(try loader.load("dark").isLight)
    }

    func testUserThemesWinAndMissingThemesSayWhereTheyLooked() throws {
        let user = FileManager.default.temporaryDirectory.appendingPathComponent("themes-\(UUID())")
        try FileManager.default.createDirectory(at: user, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: user) }
        try "background light\n".write(to: user.appendingPathComponent("dark.theme"), atomically: true, encoding: .utf8)
        let loader = ThemeLoader(searchDirectories: [user, Self.themesDirectory])
        XCTAssertTrue(try loader.load("dark").isLight)
        XCTAssertThrowsError(try loader.load("nope")) { XCTAssertTrue("\($0)".contains("not found (looked in \(user.path)")) }
        XCTAssertThrowsError(try loader.load("../../etc/passwd"))
    }


    /// A theme's name never reaches outside its folder: slashes and `..` become `_`, whatever surrounds them.
    func testAThemeNameIsKeptInsideItsFolder() {
        let cases = ["../../etc/passwd": "____etc_passwd", "a/b": "a_b", "...": "_.", "..../x": "___x", "café..thé": "café_thé",
                     "/": "_", "paper": "paper", "": ""]
        for (name, safe) in cases { XCTAssertEqual(PathSafeName.check(name), safe, name) }
    }
}
