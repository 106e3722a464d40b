import Foundation
import XCTest
import NewsstandCore
import NewsstandImaging
import NewsstandUI
@testable import NewsstandTerminal

/// The shelf kept for the next start: its number changes with everything the first frame depends on and nothing
/// else, and its file comes back whole, or not at all.
final class LastShelfFileTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("last-shelf-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    func testTheKeyFollowsWhatTheFirstFrameDependsOn() throws {
        let database = folder.appendingPathComponent("library.sqlite")
        try Data("one".utf8).write(to: database)
        let environment = ["TERM": "tmux-256color", "TMUX": "/tmp/tmux-0/default,1,0", "TMUX_PANE": "%1", "HOME": "/home/a"]
        func fingerprint(build: String = "1.0 abc", options: [String] = ["dark"], environment: [String: String] = environment,
                         config: String? = "theme dark\n", themes: [String?] = ["[title]\nforeground = 15\n"]) -> StartFingerprint {
            StartFingerprint(build: build, options: options, environment: environment, configText: config, themeTexts: themes)
        }
        let base = fingerprint()
        let stamp = LibraryFileStamp(databaseFile: database)
        let key = base.key(width: 120, height: 40, library: stamp)
        XCTAssertEqual(fingerprint().key(width: 120, height: 40, library: LibraryFileStamp(databaseFile: database)), key, "the same start, the same key")

        // What a window's variables name (its pane, tmux's socket and client), and variables the interface never reads, change nothing.
        var otherPane = environment
        otherPane["TMUX_PANE"] = "%7"
        otherPane["TMUX"] = "/tmp/tmux-0/default,99,3"
        otherPane["HOME"] = "/home/b"
        XCTAssertEqual(fingerprint(environment: otherPane).key(width: 120, height: 40, library: stamp), key)

        var changed: [String: UInt64] = [:]
        changed["build"] = fingerprint(build: "1.0 abd").key(width: 120, height: 40, library: stamp)
        changed["options"] = fingerprint(options: ["paper"]).key(width: 120, height: 40, library: stamp)
        changed["config"] = fingerprint(config: "theme dark\nmeasure 60\n").key(width: 120, height: 40, library: stamp)
        changed["no config"] = fingerprint(config: nil).key(width: 120, height: 40, library: stamp)
        changed["theme"] = fingerprint(themes: ["[title]\nforeground = 14\n"]).key(width: 120, height: 40, library: stamp)
        changed["both themes"] = fingerprint(themes: ["[title]\nforeground = 15\n", nil]).key(width: 120, height: 40, library: stamp)
        changed["width"] = base.key(width: 121, height: 40, library: stamp)
        changed["height"] = base.key(width: 120, height: 39, library: stamp)
        for (name, value) in [("TERM", "xterm-256color"), ("COLORTERM", "truecolor"), ("NO_COLOR", "1"), ("COLORFGBG", "0;15"), ("LANG", "C")] {
            var variables = environment
            variables[name] = value
            changed[name] = fingerprint(environment: variables).key(width: 120, height: 40, library: stamp)
        }
        var outsideTmux = environment
        outsideTmux["TMUX"] = nil
        changed["outside tmux"] = fingerprint(environment: outsideTmux).key(width: 120, height: 40, library: stamp)
        // Any write to the library: the database file rewritten, a log beside it.
        usleep(10_000)
        try Data("two".utf8).write(to: database)
        changed["database written"] = base.key(width: 120, height: 40, library: LibraryFileStamp(databaseFile: database))
        try Data().write(to: folder.appendingPathComponent("library.sqlite-wal"))
        changed["log created"] = base.key(width: 120, height: 40, library: LibraryFileStamp(databaseFile: database))
        for (name, value) in changed { XCTAssertNotEqual(value, key, "\(name) must change the key") }
        XCTAssertEqual(Set(changed.values).count, changed.count, "each change gives a key of its own")

        // Which file: the same for any state of the library, another for another size.
        XCTAssertEqual(base.setup(width: 120, height: 40), fingerprint().setup(width: 120, height: 40))
        XCTAssertNotEqual(base.setup(width: 120, height: 40), base.setup(width: 100, height: 40))
        XCTAssertNotEqual(base.setup(width: 120, height: 40), fingerprint(options: ["paper"]).setup(width: 120, height: 40))
    }

    func testOnlyTheLastEightFilesAreKept() throws {
        let paths = LibraryPaths(dataDirectory: folder, configDirectory: folder, cacheDirectory: folder)
        var written: [URL] = []
        for setup in UInt64(1)...10 {
            let url = LastShelfFile.location(paths, setup: setup, answers: setup % 2 == 0 ? nil : setup * 1_000)
            XCTAssertTrue(url.lastPathComponent.hasPrefix("last-shelf-000000000000000"), url.lastPathComponent)
            XCTAssertTrue(LastShelfFile(key: setup, isBeforeAnswers: true, answers: 0, frame: CellBuffer(width: 1, height: 1)).write(to: url))
            written.append(url)
            usleep(5_000)
        }
        try Data("unrelated".utf8).write(to: folder.appendingPathComponent("covers-index"))
        LastShelfFile.prune(folder)
        XCTAssertEqual(written.map { FileManager.default.fileExists(atPath: $0.path) }, [false, false] + Array(repeating: true, count: 8))
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.appendingPathComponent("covers-index").path))
    }

    func testEachWayOfStartingAndEachSetOfAnswersKeepsItsOwnFile() throws {
        let paths = LibraryPaths(dataDirectory: folder, configDirectory: folder, cacheDirectory: folder)
        let frame = CellBuffer(width: 1, height: 1)
        XCTAssertEqual(LastShelfFile.keptAnswers(paths, setup: 7), [])
        for answers: UInt64? in [nil, 42, 43] {
            let url = LastShelfFile.location(paths, setup: 7, answers: answers)
            XCTAssertTrue(LastShelfFile(key: 1, isBeforeAnswers: answers == nil, answers: answers ?? 0, frame: frame).write(to: url))
        }
        XCTAssertTrue(LastShelfFile(key: 1, isBeforeAnswers: true, answers: 0, frame: frame).write(to: LastShelfFile.location(paths, setup: 8, answers: nil)))
        // Listed the one written last first.
        for (answers, written) in [(nil, 100), (42, 300), (43, 200)] as [(UInt64?, Int)] {
            var times = [timespec(tv_sec: written, tv_nsec: 0), timespec(tv_sec: written, tv_nsec: 0)]
            XCTAssertEqual(utimensat(AT_FDCWD, LastShelfFile.location(paths, setup: 7, answers: answers).path, &times, 0), 0)
        }
        XCTAssertEqual(LastShelfFile.keptAnswers(paths, setup: 7), [42, 43, nil])
        XCTAssertEqual(LastShelfFile.keptAnswers(paths, setup: 8), [nil])
        XCTAssertEqual(LastShelfFile.location(paths, setup: 7, answers: 42).lastPathComponent, "last-shelf-0000000000000007-000000000000002a")
    }

    func testTheAnswersNumberFollowsTheAnswersButNotTheKeysTypedMeanwhile() {
        var xterm = TerminalAnswers()
        xterm.primaryAttributes = [63, 1, 2, 4, 6]
        xterm.version = "XTerm(379)"
        xterm.background = RGBColor(red: 255, green: 255, blue: 255)
        var typed = xterm
        typed.typed = Array("jj".utf8)
        var black = xterm
        black.background = RGBColor(red: 0, green: 0, blue: 0)
        var kitty = xterm
        kitty.hasKittyGraphics = true
        var cells = xterm
        cells.cellPixelSize = CellPixelSize(width: 9, height: 18)
        var other = xterm
        other.version = "XTerm(390)"
        let numbers = [TerminalAnswers(), xterm, black, kitty, cells, other].map(StartFingerprint.answers(of:))
        XCTAssertEqual(Set(numbers).count, numbers.count)
        XCTAssertEqual(StartFingerprint.answers(of: typed), StartFingerprint.answers(of: xterm))
    }

    func testTheFileComesBackWhole() throws {
        var frame = CellBuffer(width: 30, height: 4, style: TextStyle(background: .indexed(236)))
        frame.write(" NEWSSTAND  Kettle & Compass", x: 0, y: 0, style: TextStyle(foreground: .rgb(240, 200, 90), attributes: [.bold]))
        frame.write("TAP TO DOWNLOAD", x: 14, y: 3, style: TextStyle(foreground: .basic(2)))
        let url = folder.appendingPathComponent("last-shelf")
        let kept = LastShelfFile(key: 0x0123_4567_89AB_CDEF, isBeforeAnswers: false, answers: 42, frame: frame)
        XCTAssertTrue(kept.write(to: url))
        XCTAssertEqual(LastShelfFile.read(from: url), kept)
        let mode = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int)
        XCTAssertEqual(mode & 0o777, 0o600)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains(".new") }, [], "no new file left behind")

        let bytes = try Data(contentsOf: url)
        for (name, damaged) in [("cut short", bytes.prefix(bytes.count - 1)), ("cut to its header", bytes.prefix(22)), ("empty", Data()),
                                ("another format", Data("NSLX".utf8) + bytes.dropFirst(4)), ("a flag that is no flag", Self.setting(bytes, at: 13, to: 2))] {
            try Data(damaged).write(to: url)
            XCTAssertNil(LastShelfFile.read(from: url), name)
        }
        try FileManager.default.removeItem(at: url)
        XCTAssertNil(LastShelfFile.read(from: url), "missing")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        XCTAssertNil(LastShelfFile.read(from: url), "a folder")
    }

    func testAFrameWithAPictureIsNotKeptAndTheOldFileGoes() throws {
        let url = folder.appendingPathComponent("last-shelf")
        XCTAssertTrue(LastShelfFile(key: 1, isBeforeAnswers: true, answers: 0, frame: CellBuffer(width: 2, height: 1)).write(to: url))
        var withPicture = CellBuffer(width: 2, height: 1)
        withPicture.placePicture(TerminalPicture(id: 1, columns: 1, rows: 1, image: RasterImage(width: 2, height: 4)), in: withPicture.area)
        XCTAssertFalse(LastShelfFile(key: 2, isBeforeAnswers: true, answers: 0, frame: withPicture).write(to: url))
        XCTAssertEqual(LastShelfFile.read(from: url)?.key, 1, "a failed write leaves the old file as it was")
        LastShelfFile.remove(at: url)
        XCTAssertNil(LastShelfFile.read(from: url))
    }

    private static func setting(_ data: Data, at offset: Int, to value: UInt8) -> Data {
        var copy = data
        copy[copy.startIndex + offset] = value
        return copy
    }
}
