import Foundation
import NewsstandCore
import NewsstandUI

/// The shelf a start shows first, worked out at quit for the next start (`FirstShelfFrame`), with the fingerprint of
/// what it depends on (`StartFingerprint`). Kept in the cache folder: lose it and the next start reads the library.
///
/// `NSLS`, a version byte, the fingerprint's key (64 bits), whether the frame was drawn before the terminal's answers
/// (one byte), the answers' number (64 bits, 0 when drawn before them), then the frame (`CellBufferArchive`).
struct LastShelfFile: Equatable {
    let key: UInt64
    /// Whether the start draws its first frame before asking the terminal anything (a fixed theme, and inside tmux or
    /// with no pictures possible): then the frame can be drawn as soon as the key agrees, before the library is opened.
    let isBeforeAnswers: Bool
    /// `StartFingerprint.answers(of:)` when the first frame waits for the terminal's answers.
    let answers: UInt64
    let frame: CellBuffer

    static let magic: [UInt8] = Array("NSLS".utf8)
    static let version: UInt8 = 1
    /// The most bytes read back: a 500 × 200 terminal's frame is about 400 KB.
    static let limit = 4 << 20

    /// The name's start: each way of starting (`StartFingerprint.setup`: terminal size, theme, options…) and each set
    /// of answers from the terminal keeps a file of its own, so that two terminals used in turn do not replace each
    /// other's. The name ends with the two numbers (the answers' 0 when the start asks nothing first).
    static let namePrefix = "last-shelf-"
    /// The most files kept: the ones written last (a frame of 120 × 40 cells takes about 15 KB).
    static let keptCount = 8

    static func location(_ paths: LibraryPaths, setup: UInt64, answers: UInt64?) -> URL {
        paths.cacheDirectory.appendingPathComponent(namePrefix + hex(setup) + "-" + hex(answers ?? 0))
    }

    /// The answers (nil: none asked) of the files kept for this way of starting, the one written last first.
    static func keptAnswers(_ paths: LibraryPaths, setup: UInt64) -> [UInt64?] {
        let prefix = namePrefix + hex(setup) + "-"
        return names(in: paths.cacheDirectory).compactMap { name -> (answers: UInt64?, written: Int)? in
            guard name.hasPrefix(prefix), let answers = UInt64(name.dropFirst(prefix.count), radix: 16) else { return nil }
            return (answers == 0 ? nil : answers, modificationTime(paths.cacheDirectory.appendingPathComponent(name).path))
        }.sorted { $0.written > $1.written }.map(\.answers)
    }

    /// When the file at `path` was last written, in nanoseconds (0 when it cannot be told).
    private static func modificationTime(_ path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mtim.tv_sec * 1_000_000_000 + info.st_mtim.tv_nsec : 0
    }

    /// The names in a folder, read with `readdir(3)` (FileManager's listing took a tenth of a millisecond at start).
    private static func names(in folder: URL) -> [String] {
        guard let directory = opendir(folder.path) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            names.append(withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) })
        }
        return names
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// Removes all but the `keptCount` files written last in `folder`.
    static func prune(_ folder: URL) {
        // A file being written has a hidden name of its own (`PrivateFile`): it is not one of these.
        let names = names(in: folder).filter { $0.hasPrefix(namePrefix) }
        let byAge = names.map { name -> (String, Int) in
            let path = folder.appendingPathComponent(name).path
            return (path, modificationTime(path))
        }.sorted { $0.1 > $1.1 }
        for (path, _) in byAge.dropFirst(keptCount) { unlink(path) }
    }

    /// The file's contents, or nil when it is missing, too large, or not one this version wrote.
    static func read(from url: URL) -> LastShelfFile? {
        guard let bytes = SettingsFileText.bytes(of: url, limit: limit) else { return nil }
        return bytes.withUnsafeBufferPointer { buffer in
            var reader = LittleEndianReader(buffer)
            guard reader.expect(magic), reader.byte() == version, let key = reader.integer(UInt64.self),
                  let beforeAnswers = reader.byte(), beforeAnswers <= 1, let answers = reader.integer(UInt64.self),
                  let frame = CellBufferArchive.decode(reader.rest) else { return nil }
            return LastShelfFile(key: key, isBeforeAnswers: beforeAnswers == 1, answers: answers, frame: frame)
        }
    }

    /// Replaces the file whole (a new file renamed over the old), readable by the user only; false when it cannot.
    @discardableResult
    func write(to url: URL) -> Bool {
        guard let archive = CellBufferArchive.encode(frame) else { return false }
        var bytes = Self.magic + [Self.version]
        bytes.append(littleEndian: key)
        bytes.append(isBeforeAnswers ? 1 : 0)
        bytes.append(littleEndian: answers)
        bytes += archive
        do {
            try PrivateFile.replace(url, with: bytes, durable: false)
            return true
        } catch {
            return false
        }
    }

    /// Removes the file: what it shows may no longer be so, and nothing newer replaces it.
    static func remove(at url: URL) {
        unlink(url.path)
    }
}
