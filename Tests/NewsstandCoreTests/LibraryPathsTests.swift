import Foundation
import XCTest
@testable import NewsstandCore

final class LibraryPathsTests: XCTestCase {
    func testXDGVariablesAreHonoured() {
        let paths = LibraryPaths.fromEnvironment([
            "HOME": "/home/reader",
            "XDG_DATA_HOME": "/xdg/data",
            "XDG_CONFIG_HOME": "/xdg/config",
            "XDG_CACHE_HOME": "/xdg/cache",
        ])
        XCTAssertEqual(paths.dataDirectory.path, "/xdg/data/newsstand")
        XCTAssertEqual(paths.configDirectory.path, "/xdg/config/newsstand")
        XCTAssertEqual(paths.cacheDirectory.path, "/xdg/cache/newsstand")
        XCTAssertEqual(paths.databaseFile.path, "/xdg/data/newsstand/library.sqlite")
        XCTAssertEqual(paths.configFile.path, "/xdg/config/newsstand/config")
        XCTAssertEqual(paths.coverCacheDirectory.path, "/xdg/cache/newsstand/covers")
        XCTAssertEqual(paths.issuesDirectory.path, "/xdg/data/newsstand/issues")
    }

    func testDefaultsAreUnderHome() {
        let paths = LibraryPaths.fromEnvironment(["HOME": "/home/reader"])
        XCTAssertEqual(paths.dataDirectory.path, "/home/reader/.local/share/newsstand")
        XCTAssertEqual(paths.configDirectory.path, "/home/reader/.config/newsstand")
        XCTAssertEqual(paths.cacheDirectory.path, "/home/reader/.cache/newsstand")
    }

    func testRelativeAndEmptyXDGValuesAreIgnored() {
        let paths = LibraryPaths.fromEnvironment([
            "HOME": "/home/reader",
            "XDG_DATA_HOME": "relative/data",
            "XDG_CONFIG_HOME": "",
            "XDG_CACHE_HOME": "./cache",
        ])
        XCTAssertEqual(paths.dataDirectory.path, "/home/reader/.local/share/newsstand")
        XCTAssertEqual(paths.configDirectory.path, "/home/reader/.config/newsstand")
        XCTAssertEqual(paths.cacheDirectory.path, "/home/reader/.cache/newsstand")
    }

    func testCreateDirectoriesMakesEveryFolder() throws {
        let root = try TestFiles.scratchFolder(for: self)
        let paths = LibraryPaths(dataDirectory: root.appendingPathComponent("d/newsstand"),
                                 configDirectory: root.appendingPathComponent("c/newsstand"),
                                 cacheDirectory: root.appendingPathComponent("k/newsstand"))
        try paths.createDirectories()
        for folder in [paths.dataDirectory, paths.configDirectory, paths.cacheDirectory, paths.issuesDirectory,
                       paths.partialDownloadsDirectory, paths.coverCacheDirectory] {
            var isDirectory: ObjCBool = false
            XCTAssertTrue(FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory) && isDirectory.boolValue, folder.path)
        }
        XCTAssertNoThrow(try paths.createDirectories(), "creating again is fine")
    }

    func testAFileInTheWayIsNamedInPlainWords() throws {
        let root = try TestFiles.scratchFolder(for: self)
        let paths = LibraryPaths(dataDirectory: root.appendingPathComponent("d/newsstand"),
                                 configDirectory: root.appendingPathComponent("c/newsstand"),
                                 cacheDirectory: root.appendingPathComponent("k/newsstand"))
        try Data("not a folder".utf8).write(to: root.appendingPathComponent("k"))
        XCTAssertThrowsError(try paths.createDirectories()) { error in
            XCTAssertEqual("\(error)", "cannot make the folder \(paths.cacheDirectory.path): \(root.path)/k is a file, not a folder")
        }
    }

    func testSafePathComponentIsNeverDangerous() {
        let hostile = ["", ".", "..", "...", "/", "//", "../../etc/passwd", "/etc/passwd", "a/b", "..\\..\\x", "\0", " ",
                       "\u{1B}[2J", "é", "日本語", ".hidden", String(repeating: "x", count: 500), "con", "a b", "\n"]
        for name in hostile {
            let safe = PathComponent.safe(name)
            XCTAssertFalse(safe.isEmpty, name.debugDescription)
            XCTAssertNotEqual(safe, ".", name.debugDescription)
            XCTAssertNotEqual(safe, "..", name.debugDescription)
            XCTAssertFalse(safe.hasPrefix("."), name.debugDescription)
            XCTAssertFalse(safe.contains("/"), name.debugDescription)
            XCTAssertFalse(safe.contains("\\"), name.debugDescription)
            XCTAssertLessThanOrEqual(safe.count, 80, name.debugDescription)
            XCTAssertTrue(safe.unicodeScalars.allSatisfy { $0.isASCII && $0.value > 0x20 && $0.value < 0x7F }, name.debugDescription)
        }
        XCTAssertEqual(PathComponent.safe("2025-spring_v1.epub"), "2025-spring_v1.epub", "harmless names are kept")
    }

    func testIssueFolderStaysInsideTheIssuesDirectory() {
        let paths = LibraryPaths(dataDirectory: URL(fileURLWithPath: "/lib/data"), configDirectory: URL(fileURLWithPath: "/lib/config"),
                                 cacheDirectory: URL(fileURLWithPath: "/lib/cache"))
        let publication = Publication(id: 1, name: "../../..", title: "x", feedURL: URL(string: "https://e.com/c.plist")!)
        let issue = Issue(id: 7, publicationID: 1, name: "../../../etc", title: "x", date: Date(), contentURLs: [])
        let folder = paths.folder(for: issue, of: publication).standardizedFileURL
        XCTAssertTrue(folder.path.hasPrefix(paths.issuesDirectory.path + "/"), folder.path)
        XCTAssertEqual(folder.pathComponents.count, paths.issuesDirectory.pathComponents.count + 2)
        XCTAssertTrue(folder.lastPathComponent.hasPrefix("7-"))
        XCTAssertEqual(paths.partialFile(issueID: 7, asset: 1).deletingLastPathComponent().path, paths.partialDownloadsDirectory.path)
    }

    func testSlugs() {
        XCTAssertEqual(PathComponent.slug("The Lantern, No. 3"), "the-lantern-no-3")
        XCTAssertEqual(PathComponent.slug("Kettle & Compass"), "kettle-compass")
        XCTAssertEqual(PathComponent.slug("  !!  "), "publication")
        XCTAssertEqual(PathComponent.slug("日本"), "publication")
        XCTAssertLessThanOrEqual(PathComponent.slug(String(repeating: "ab ", count: 100)).count, 60)
    }
}
