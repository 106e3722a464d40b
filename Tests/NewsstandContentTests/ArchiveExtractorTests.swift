import Foundation
import NewsstandTestSupport
import XCTest
import CArchive
@testable import NewsstandContent

final class ArchiveExtractorTests: XCTestCase {
    // MARK: Hostile fixtures from ZIPFoundation

    private func assertRejected(
        _ archive: URL,
        limits: ExtractionLimits = .default,
        messageContains expected: String,
        file: StaticString = #filePath,
        line: UInt = #line
    ) throws {
        let parent = try TestFiles.scratchFolder(for: self)
        let before = TestFiles.listing(of: parent)
        let destination = parent.appendingPathComponent("issue")
        XCTAssertThrowsError(try ArchiveExtractor.extract(archive: archive, into: destination, limits: limits), file: file, line: line) { error in
            let message = (error as? ArchiveExtractionError)?.description ?? "\(error)"
            XCTAssertTrue(message.contains(expected), "message was: \(message)", file: file, line: line)
        }
        XCTAssertEqual(TestFiles.listing(of: parent), before, "extraction left files behind", file: file, line: line)
        XCTAssertFalse(FileManager.default.fileExists(atPath: destination.path), "destination should be removed", file: file, line: line)
    }

    func testSimpleTraversalAttackIsRejected() throws {
        let archive = try TestFiles.corpus("archives/zipfoundation/testSimpleTraversalAttack.zip")
        try assertRejected(archive, messageContains: "would escape the issue folder")
        // The attack aims at a sibling folder of the destination.
        let sibling = FileManager.default.temporaryDirectory.appendingPathComponent("testTraversalAttackABC")
        XCTAssertFalse(FileManager.default.fileExists(atPath: sibling.appendingPathComponent("EVIL_HERE").path))
    }

    func testPathDelimiterTraversalAttackIsRejected() throws {
        let archive = try TestFiles.corpus("archives/zipfoundation/testPathDelimiterTraversalAttack.zip")
        try assertRejected(archive, messageContains: "escape the issue folder")
        XCTAssertFalse(FileManager.default.fileExists(atPath: "/secret.txt"))
    }

    func testUncontainedSymlinkIsRejected() throws {
        let archive = try TestFiles.corpus("archives/zipfoundation/testUnzipUncontainedSymlink.zip")
        try assertRejected(archive, messageContains: "symbolic link")
    }

    func testContainedSymlinkIsRejectedToo() throws {
        let archive = try TestFiles.corpus("archives/zipfoundation/testExtractErrorConditions.zip")
        try assertRejected(archive, messageContains: "symbolic link")
    }

    func testBadCRCIsRejected() throws {
        let archive = try TestFiles.corpus("archives/zipfoundation/testCRC32Check.zip")
        let destination = try TestFiles.scratchFolder(for: self).appendingPathComponent("issue")
        XCTAssertThrowsError(try ArchiveExtractor.extract(archive: archive, into: destination))
        XCTAssertFalse(FileManager.default.fileExists(atPath: destination.path))
    }

    func testNotAZipGivesAClearError() throws {
        let archive = try TestFiles.corpus("archives/readium-swift-toolkit/not-a.zip")
        try assertRejected(archive, messageContains: "not a zip archive")
    }

    func testMissingArchiveGivesAClearError() throws {
        let parent = try TestFiles.scratchFolder(for: self)
        XCTAssertThrowsError(try ArchiveExtractor.extract(archive: parent.appendingPathComponent("nope.zip"), into: parent.appendingPathComponent("out"))) { error in
            XCTAssertEqual((error as? ArchiveExtractionError)?.description, "archive nope.zip not found")
        }
    }

    // MARK: Good archives

    func testReadiumTestZipMatchesExpectedEntriesAndSizes() throws {
        let folder = try TestFiles.corpus("archives/readium-swift-toolkit")
        let destination = try TestFiles.scratchFolder(for: self).appendingPathComponent("issue")
        try ArchiveExtractor.extract(archive: folder.appendingPathComponent("test.zip"), into: destination)

        let table = try String(contentsOf: folder.appendingPathComponent("EXPECTED.tsv"), encoding: .utf8)
        var checked = 0
        for line in table.split(separator: "\n").dropFirst() {
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard columns.count >= 4, let expectedSize = Int64(columns[3]) else { continue }
            let path = destination.path + "/" + columns[0]
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            XCTAssertEqual((attributes[.size] as? NSNumber)?.int64Value, expectedSize, columns[0])
            checked += 1
        }
        XCTAssertEqual(checked, 7)
        let text = try String(contentsOfFile: destination.path + "/A folder/Sub.folder%/file-compressed.txt", encoding: .utf8)
        XCTAssertTrue(text.hasPrefix("I'm inside\nthe ZIP."))
    }

    func testGoodZipFoundationFixturesExtract() throws {
        for name in ["testExtractCompressedDataDescriptorArchive.zip", "testExtractUncompressedEmptyFile.zip",
                     "testExtractCompressedZIP64Entries.zip", "testExtractMSDOSArchive.zip", "testDetectEntryType.zip"] {
            let archive = try TestFiles.corpus("archives/zipfoundation/\(name)")
            let destination = try TestFiles.scratchFolder(for: self).appendingPathComponent("issue")
            XCTAssertNoThrow(try ArchiveExtractor.extract(archive: archive, into: destination), name)
            XCTAssertFalse(TestFiles.listing(of: destination).isEmpty, name)
        }
    }

    func testExtractingIntoAnExistingFolderKeepsItsFilesWhenRefused() throws {
        let archive = try TestFiles.corpus("archives/zipfoundation/testUnzipUncontainedSymlink.zip")
        let destination = try TestFiles.scratchFolder(for: self)
        try Data("keep".utf8).write(to: destination.appendingPathComponent("existing.txt"))
        XCTAssertThrowsError(try ArchiveExtractor.extract(archive: archive, into: destination))
        XCTAssertEqual(TestFiles.listing(of: destination), ["existing.txt"])
    }

    // MARK: Hand-built archives

    /// Builds a zip with python3's zipfile. `entries` is a Python list literal of
    /// (name, data-expression, kind) where kind is "file", "symlink" or "stored".
    private func makeZip(_ entriesPython: String) throws -> URL {
        let folder = try TestFiles.scratchFolder(for: self)
        let zipURL = folder.appendingPathComponent("built.zip")
        let script = """
        import sys, zipfile
        entries = \(entriesPython)
        with zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED) as z:
            for name, data, kind in entries:
                info = zipfile.ZipInfo(name)
                info.compress_type = zipfile.ZIP_DEFLATED
                if kind == 'symlink':
                    info.create_system = 3
                    info.external_attr = (0o120777 << 16)
                z.writestr(info, data)
        """
        try TestFiles.python(script, [zipURL.path])
        return zipURL
    }

    func testZipBombIsRejectedByRatio() throws {
        let bomb = try makeZip("[('zeros.bin', b'\\0' * (8 * 1024 * 1024), 'file')]")
        try assertRejected(bomb, messageContains: "zip bomb")
    }

    func testSingleBombEntryAmongIncompressibleDataIsRejectedPerEntry() throws {
        // Overall the archive expands only ~14 times; the zeros entry alone ~1000 times.
        let archive = try makeZip("[('noise.bin', __import__('os').urandom(300 * 1024), 'file'), ('zeros.bin', b'\\0' * (4 * 1024 * 1024), 'file')]")
        try assertRejected(archive, messageContains: "entry 'zeros.bin' expands more than 200 times")
    }

    func testManySmallBombEntriesAreRejectedByTheOverallRatio() throws {
        // Each entry stays under the 1 MiB per-entry threshold; together they expand ~1000 times.
        let archive = try makeZip("[('z%d.bin' % i, b'\\0' * (900 * 1024), 'file') for i in range(40)]")
        try assertRejected(archive, messageContains: "archive expands more than 200 times its size")
    }

    func testOverlappingEntriesBombIsRejected() throws {
        // 200 central-directory records all pointing at the same 512 KiB deflated local entry.
        // libarchive keys zip entries by local-header offset, so it reads the shared entry once;
        // if it ever read all 200, the overall ratio limit (~15,000x here) must stop it.
        let folder = try TestFiles.scratchFolder(for: self)
        let zipURL = folder.appendingPathComponent("overlap.zip")
        let script = #"""
        import sys, zipfile, io, struct
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, 'w', zipfile.ZIP_DEFLATED) as z:
            z.writestr('e.bin', b'\0' * (512 * 1024))
        data = buffer.getvalue()
        cd_offset = struct.unpack('<I', data[-6:-2])[0]
        cd_size = struct.unpack('<I', data[-10:-6])[0]
        local, record = data[:cd_offset], data[cd_offset:cd_offset + cd_size]
        count = 200
        eocd = struct.pack('<IHHHHIIH', 0x06054b50, 0, 0, count, count, len(record) * count, len(local), 0)
        open(sys.argv[1], 'wb').write(local + record * count + eocd)
        """#
        try TestFiles.python(script, [zipURL.path])
        let destination = folder.appendingPathComponent("issue")
        do {
            try ArchiveExtractor.extract(archive: zipURL, into: destination)
            let size = try FileManager.default.attributesOfItem(atPath: destination.appendingPathComponent("e.bin").path)[.size] as? NSNumber
            XCTAssertEqual(size?.intValue, 512 * 1024)
            XCTAssertEqual(TestFiles.listing(of: destination), ["e.bin"])
        } catch {
            XCTAssertTrue("\(error)".contains("zip bomb"), "\(error)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: destination.path))
        }
    }

    func testZipBombIsRejectedByTotalSize() throws {
        let bomb = try makeZip("[('a.bin', b'\\0' * (3 * 1024 * 1024), 'file'), ('b.bin', b'\\0' * (3 * 1024 * 1024), 'file')]")
        var limits = ExtractionLimits.default
        limits.maxTotalBytes = 4 * 1024 * 1024
        limits.maxCompressionRatio = 1_000_000
        try assertRejected(bomb, limits: limits, messageContains: "archive exceeds 4 MiB uncompressed")
    }

    func testSmallCompressibleFilesDoNotTripTheRatio() throws {
        let archive = try makeZip("[('page.txt', b'a' * 500000, 'file')]")
        let destination = try TestFiles.scratchFolder(for: self).appendingPathComponent("issue")
        XCTAssertNoThrow(try ArchiveExtractor.extract(archive: archive, into: destination))
        XCTAssertEqual(TestFiles.listing(of: destination), ["page.txt"])
    }

    func testAbsolutePathIsRejected() throws {
        let archive = try makeZip("[('ok.txt', b'fine', 'file'), ('/tmp/newsstand-absolute-evil.txt', b'evil', 'file')]")
        try assertRejected(archive, messageContains: "absolute path")
        XCTAssertFalse(FileManager.default.fileExists(atPath: "/tmp/newsstand-absolute-evil.txt"))
    }

    func testDotDotInTheMiddleIsRejected() throws {
        let archive = try makeZip("[('a/b/../../../evil.txt', b'evil', 'file')]")
        try assertRejected(archive, messageContains: "would escape the issue folder")
    }

    func testSymlinkEntryIsRejected() throws {
        let archive = try makeZip("[('ok.txt', b'fine', 'file'), ('link', b'ok.txt', 'symlink')]")
        try assertRejected(archive, messageContains: "symbolic link")
    }

    func testEntryCountLimit() throws {
        let archive = try makeZip("[('f%d.txt' % i, b'x', 'file') for i in range(20)]")
        var limits = ExtractionLimits.default
        limits.maxEntries = 10
        try assertRejected(archive, limits: limits, messageContains: "more than 10 entries")
        let destination = try TestFiles.scratchFolder(for: self).appendingPathComponent("issue")
        limits.maxEntries = 20
        XCTAssertNoThrow(try ArchiveExtractor.extract(archive: archive, into: destination, limits: limits))
        XCTAssertEqual(TestFiles.listing(of: destination).count, 20)
    }

    func testByteCountText() {
        XCTAssertEqual(ByteCountText.describe(2 * 1024 * 1024 * 1024), "2 GiB")
        XCTAssertEqual(ByteCountText.describe(1536 * 1024), "1.5 MiB")
        XCTAssertEqual(ByteCountText.describe(300), "300 bytes")
    }

    // MARK: libarchive, opened at run time

    /// libarchive is opened at the first archive, not linked: the system's opens, and a missing one is a plain error
    /// naming it and the package, not a crash.
    func testLibarchiveOpensAtRunTimeAndAMissingOneIsNamed() throws {
        XCTAssertNil(newsstand_archive_failure().map { String(cString: $0) })
        var missing = newsstand_archive()
        // dlerror's words live in a buffer the next dl call frees: copied at once.
        let failure = String(cString: try XCTUnwrap(newsstand_archive_open("libnewsstand-no-such-archive.so.13", &missing)))
        XCTAssertTrue(failure.contains("libnewsstand-no-such-archive.so.13"), failure)
        var table = newsstand_archive()
        XCTAssertNil(newsstand_archive_open(NEWSSTAND_ARCHIVE_SONAME, &table))
        XCTAssertNotNil(table.read_new)
        XCTAssertNotNil(table.write_set_options)
        let error = failure.withCString { ArchiveExtractionError.libraryUnavailable($0) }
        XCTAssertTrue(error.description.hasPrefix("archives need libarchive.so.13 (Debian's libarchive13 package), which could not be loaded: "),
                      error.description)
    }
}
