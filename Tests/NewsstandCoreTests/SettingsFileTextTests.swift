import Foundation
import XCTest
@testable import NewsstandCore

/// Settings files (the config, themes) are read whole when they are small UTF-8 regular files, and refused otherwise:
/// missing, not UTF-8, over the limit, a folder, or a FIFO (which must not block the start).
final class SettingsFileTextTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("settings-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        addTeardownBlock { [folder] in try? FileManager.default.removeItem(at: folder!) }
    }

    func testASmallFileIsReadWhole() throws {
        let file = folder.appendingPathComponent("config")
        let text = "theme paper\n# Café, naïve — and more than one read's worth:\n" + String(repeating: "bind Z help shelf\n", count: 2_000)
        try Data(text.utf8).write(to: file)
        XCTAssertGreaterThan(text.utf8.count, 16 << 10, "longer than one read")
        XCTAssertEqual(SettingsFileText.contents(of: file), text)
        let empty = folder.appendingPathComponent("empty")
        try Data().write(to: empty)
        XCTAssertEqual(SettingsFileText.contents(of: empty), "")
    }

    func testWhatIsNoSettingsFileGivesNil() throws {
        XCTAssertNil(SettingsFileText.contents(of: folder.appendingPathComponent("missing")))
        XCTAssertNil(SettingsFileText.contents(of: folder), "a folder")
        let latin1 = folder.appendingPathComponent("latin1")
        try Data([0x74, 0x68, 0x65, 0x6D, 0x65, 0x20, 0xE9, 0x0A]).write(to: latin1)
        XCTAssertNil(SettingsFileText.contents(of: latin1), "not UTF-8")
        let huge = folder.appendingPathComponent("huge")
        try Data(repeating: 0x61, count: SettingsFileText.limit + 1).write(to: huge)
        XCTAssertNil(SettingsFileText.contents(of: huge), "over the limit")
        let atLimit = folder.appendingPathComponent("at-limit")
        try Data(repeating: 0x61, count: SettingsFileText.limit).write(to: atLimit)
        XCTAssertEqual(SettingsFileText.contents(of: atLimit)?.utf8.count, SettingsFileText.limit)
        let fifo = folder.appendingPathComponent("fifo")
        XCTAssertEqual(mkfifo(fifo.path, 0o600), 0)
        let started = Date()
        XCTAssertNil(SettingsFileText.contents(of: fifo), "a FIFO is no file to read")
        XCTAssertLessThan(Date().timeIntervalSince(started), 1, "and does not block")
    }

    /// The config is read through it (and the themes): one in Latin-1 is no config, as before.
    func testTheConfigIsReadThroughIt() throws {
        let file = folder.appendingPathComponent("config")
        try Data("theme paper\n".utf8).write(to: file)
        XCTAssertEqual(Configuration.load(from: file).theme, "paper")
        try Data([0x74, 0x68, 0x65, 0x6D, 0x65, 0x20, 0xE9, 0x0A]).write(to: file)
        XCTAssertEqual(Configuration.load(from: file).theme, Configuration().theme, "an unreadable config is no config")
    }
}
