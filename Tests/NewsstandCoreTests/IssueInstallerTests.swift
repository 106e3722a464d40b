import Foundation
import XCTest
@testable import NewsstandCore
import Synchronization

final class IssueInstallerTests: XCTestCase {
    private struct Layout {
        let root: URL        // scratch folder
        let issues: URL      // root/issues
        let parent: URL      // root/issues/pub  (the destination's parent)
        let destination: URL // root/issues/pub/7-issue
        let downloads: URL   // root/downloads
    }

    private func makeLayout() throws -> Layout {
        let root = try TestFiles.scratchFolder(for: self)
        let issues = root.appendingPathComponent("issues", isDirectory: true)
        let parent = issues.appendingPathComponent("pub", isDirectory: true)
        let downloads = root.appendingPathComponent("downloads", isDirectory: true)
        try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: downloads, withIntermediateDirectories: true)
        return Layout(root: root, issues: issues, parent: parent, destination: parent.appendingPathComponent("7-issue", isDirectory: true),
                      downloads: downloads)
    }

    private func issue(size: Int64? = nil, sha256: String? = nil) -> Issue {
        Issue(id: 7, publicationID: 1, name: "issue", title: "Issue", date: Date(), contentURLs: [URL(string: "https://e.com/issue.epub")!],
              expectedSize: size, expectedSHA256: sha256)
    }

    /// Builds a zip with python3's zipfile; `entries` is a Python list literal of (name, text) pairs.
    private func makeZip(_ entries: String, at url: URL) throws {
        let script = """
            import sys, zipfile
            with zipfile.ZipFile(sys.argv[1], 'w') as z:
                for name, text in \(entries):
                    z.writestr(zipfile.ZipInfo(name), text)
            """
        try TestFiles.python(script, [url.path])
    }

    private static let containerXML = """
        '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>'
        """

    private func assertRefusedCleanly(_ layout: Layout, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertFalse(FileManager.default.fileExists(atPath: layout.destination.path), "no destination", file: file, line: line)
        XCTAssertEqual(TestFiles.listing(of: layout.parent), [], "nothing left in the destination's parent", file: file, line: line)
        XCTAssertEqual(TestFiles.listing(of: layout.issues), ["pub"], "nothing beside it either", file: file, line: line)
        let everything = TestFiles.listing(of: layout.root)
        XCTAssertFalse(everything.contains { $0.contains("EVIL") || $0.contains("escaped") || $0.contains("secret") }, "\(everything)", file: file, line: line)
    }

    func testTraversalEntryInABuiltArchiveIsRefused() throws {
        let layout = try makeLayout()
        let zip = layout.downloads.appendingPathComponent("evil.epub")
        try makeZip("[('mimetype', 'application/epub+zip'), ('META-INF/container.xml', \(Self.containerXML)), ('../escaped.txt', 'gotcha'), ('../../escaped-too.txt', 'gotcha')]", at: zip)
        XCTAssertThrowsError(try IssueInstaller.install(assets: [zip], sourceURLs: [URL(string: "https://e.com/evil.epub")!],
                                                        for: issue(), into: layout.destination)) { error in
            XCTAssertTrue("\(error)".contains("refused"), "\(error)")
        }
        assertRefusedCleanly(layout)
    }

    func testTraversalCorpusArchivesAreRefused() throws {
        for name in ["testSimpleTraversalAttack.zip", "testPathDelimiterTraversalAttack.zip"] {
            let source = try TestFiles.corpus("archives/zipfoundation/\(name)")
            let layout = try makeLayout()
            let zip = layout.downloads.appendingPathComponent(name)
            try FileManager.default.copyItem(at: source, to: zip)
            XCTAssertThrowsError(try IssueInstaller.install(assets: [zip], sourceURLs: [URL(string: "https://e.com/\(name)")!],
                                                            for: issue(), into: layout.destination), name)
            assertRefusedCleanly(layout)
            XCTAssertFalse(FileManager.default.fileExists(atPath: layout.issues.appendingPathComponent("testTraversalAttackABC").path))
            XCTAssertFalse(FileManager.default.fileExists(atPath: layout.root.appendingPathComponent("secret.txt").path))
        }
    }

    func testNonEPUBZipIsRefused() throws {
        let layout = try makeLayout()
        let zip = layout.downloads.appendingPathComponent("notes.zip")
        try makeZip("[('readme.txt', 'hello'), ('images/a.txt', 'x')]", at: zip)
        XCTAssertThrowsError(try IssueInstaller.install(assets: [zip], sourceURLs: [URL(string: "https://e.com/notes.zip")!],
                                                        for: issue(), into: layout.destination)) { error in
            XCTAssertTrue("\(error)".contains("not an EPUB, PDF or comic book"), "\(error)")
        }
        assertRefusedCleanly(layout)
    }

    func testUnreadableEPUBIsRefused() throws {
        let layout = try makeLayout()
        let zip = layout.downloads.appendingPathComponent("broken.epub")
        try makeZip("[('mimetype', 'application/epub+zip'), ('META-INF/container.xml', \(Self.containerXML))]", at: zip)
        XCTAssertThrowsError(try IssueInstaller.install(assets: [zip], sourceURLs: [], for: issue(), into: layout.destination)) { error in
            XCTAssertTrue("\(error)".contains("EPUB"), "\(error)")
        }
        assertRefusedCleanly(layout)
    }

    func testRandomBytesAreRefused() throws {
        let layout = try makeLayout()
        let junk = layout.downloads.appendingPathComponent("junk.epub")
        try TestFiles.pseudoRandomData(count: 5000).write(to: junk)
        XCTAssertThrowsError(try IssueInstaller.install(assets: [junk], sourceURLs: [URL(string: "https://e.com/junk.epub")!],
                                                        for: issue(), into: layout.destination))
        assertRefusedCleanly(layout)

        let empty = layout.downloads.appendingPathComponent("empty.epub")
        try Data().write(to: empty)
        XCTAssertThrowsError(try IssueInstaller.install(assets: [empty], sourceURLs: [], for: issue(), into: layout.destination)) { error in
            XCTAssertTrue("\(error)".contains("empty"), "\(error)")
        }
    }

    func testSampleEPUBInstallsAndVerifies() throws {
        let layout = try makeLayout()
        let epub = TestSupport.sampleIssue("2025-spring")
        let size = try XCTUnwrap(FileSize.of(epub))
        let digest = try SHA256Digest.hexDigest(ofFile: epub)
        try IssueInstaller.install(assets: [epub], sourceURLs: [URL(string: "https://e.com/s.epub")!], for: issue(size: size, sha256: digest),
                                   into: layout.destination)
        XCTAssertTrue(FileManager.default.fileExists(atPath: layout.destination.appendingPathComponent("META-INF/container.xml").path))
        XCTAssertFalse(try IssueContent.openBook(folder: layout.destination).articles.isEmpty)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: layout.parent.path), ["7-issue"])

        XCTAssertThrowsError(try IssueInstaller.install(assets: [epub], sourceURLs: [], for: issue(size: size - 1), into: layout.destination)) {
            XCTAssertTrue("\($0)".contains("catalog says"), "\($0)")
        }
        XCTAssertThrowsError(try IssueInstaller.install(assets: [epub], sourceURLs: [], for: issue(sha256: String(repeating: "0", count: 64)),
                                                        into: layout.destination)) {
            XCTAssertTrue("\($0)".contains("damaged"), "\($0)")
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: layout.destination.appendingPathComponent("META-INF/container.xml").path),
                      "a refused reinstall leaves the installed issue alone")
    }

    /// Every file and folder of the new issue reaches the disk before the rename that puts it in place,
    /// and the rename is synced too, so a power cut cannot leave an installed issue with empty files.
    func testInstallSyncsEveryFileBeforeTheRenameAndTheParentAfterIt() throws {
        let layout = try makeLayout()
        let synced = SyncRecorder()
        let destination = layout.destination
        try IssueInstaller.install(assets: [TestSupport.sampleIssue("2025-spring")], sourceURLs: [URL(string: "https://e.com/s.epub")!],
                                   for: issue(), into: destination,
                                   diskSync: DiskSync { url in synced.record(url, installed: FileManager.default.fileExists(atPath: destination.path)) })
        let installed = try XCTUnwrap(FileManager.default.enumerator(atPath: destination.path)?.allObjects as? [String])
        XCTAssertFalse(installed.isEmpty)
        let beforeRename = synced.calls.filter { !$0.installed }.map(\.url.path)
        for item in installed {
            XCTAssertTrue(beforeRename.contains { $0.hasSuffix("/" + item) && $0.contains(IssueInstaller.stagingPrefix) },
                          "\(item) was synced in the staging folder before the rename")
        }
        XCTAssertTrue(beforeRename.contains { URL(fileURLWithPath: $0).lastPathComponent.hasPrefix(IssueInstaller.stagingPrefix) },
                      "the staging folder itself was synced")
        let afterRename = synced.calls.filter(\.installed).map(\.url.standardizedFileURL.path)
        XCTAssertEqual(afterRename, [layout.parent.standardizedFileURL.path, layout.issues.standardizedFileURL.path],
                       "after the rename only the parent, and its own parent (it may have just been made)")
    }

    func testAFailedSyncRefusesTheInstallAndLeavesNothing() throws {
        let layout = try makeLayout()
        XCTAssertThrowsError(try IssueInstaller.install(assets: [TestSupport.sampleIssue("2025-spring")], sourceURLs: [], for: issue(),
                                                        into: layout.destination,
                                                        diskSync: DiskSync { _ in throw DownloadError("cannot save to disk: Input/output error") })) {
            XCTAssertTrue("\($0)".contains("Input/output error"), "\($0)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: layout.destination.path))
        XCTAssertEqual(TestFiles.listing(of: layout.parent), [], "the staging folder is gone")
    }

    func testRealSyncOfATree() throws {
        let layout = try makeLayout()
        let nested = layout.downloads.appendingPathComponent("a/b", isDirectory: true)
        try FileManager.default.createDirectory(at: nested, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: nested.appendingPathComponent("file.txt"))
        try FileManager.default.createSymbolicLink(atPath: nested.appendingPathComponent("dangling").path, withDestinationPath: "/nonexistent")
        XCTAssertNoThrow(try DiskSync.fsync.tree(layout.downloads), "files and folders sync; links are skipped")
        XCTAssertThrowsError(try DiskSync.fsync.sync(layout.downloads.appendingPathComponent("missing"))) {
            XCTAssertTrue("\($0)".contains("missing"), "\($0)")
        }
    }

    func testPlainPDFInstalls() throws {
        let layout = try makeLayout()
        let pdf = layout.downloads.appendingPathComponent("download.part")
        try Data("%PDF-1.4\n%%EOF\n".utf8).write(to: pdf)
        try IssueInstaller.install(assets: [pdf], sourceURLs: [URL(string: "https://e.com/files/Issue%201.pdf")!], for: issue(),
                                   into: layout.destination)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: layout.destination.path), ["Issue_1.pdf"])
    }

    func testReinstallReplacesTheOldFolderAtomically() throws {
        let layout = try makeLayout()
        try FileManager.default.createDirectory(at: layout.destination.appendingPathComponent("OLD"), withIntermediateDirectories: true)
        try Data("stale".utf8).write(to: layout.destination.appendingPathComponent("old-file.txt"))
        try Data("stale".utf8).write(to: layout.destination.appendingPathComponent("OLD/inner.txt"))

        try IssueInstaller.install(assets: [TestSupport.sampleIssue("2025-autumn")], sourceURLs: [URL(string: "https://e.com/a.epub")!],
                                   for: issue(), into: layout.destination)
        let contents = TestFiles.listing(of: layout.destination)
        XCTAssertTrue(contents.contains("META-INF/container.xml"), "\(contents)")
        XCTAssertFalse(contents.contains("old-file.txt"), "old content is gone")
        XCTAssertFalse(contents.contains { $0.hasPrefix("OLD") }, "old content is gone")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: layout.parent.path), ["7-issue"],
                       "no .staging- or .previous- folders are left behind")
    }

    func testZipDetection() throws {
        let layout = try makeLayout()
        XCTAssertTrue(IssueInstaller.isZipArchive(TestSupport.sampleIssue()))
        let pdf = layout.downloads.appendingPathComponent("x.pdf")
        try Data("%PDF-1.4".utf8).write(to: pdf)
        XCTAssertFalse(IssueInstaller.isZipArchive(pdf))
        XCTAssertFalse(IssueInstaller.isZipArchive(layout.downloads.appendingPathComponent("missing")))
    }
}

/// The paths a `DiskSync` was asked to sync, and whether the issue was already in place at the time.
private final class SyncRecorder: Sendable {
    struct Call { let url: URL; let installed: Bool }
    private let recorded = Mutex<[Call]>([])
    var calls: [Call] { recorded.withLock { $0 } }
    func record(_ url: URL, installed: Bool) { recorded.withLock { $0.append(Call(url: url, installed: installed)) } }
}
