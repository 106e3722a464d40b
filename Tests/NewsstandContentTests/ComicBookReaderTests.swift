import Foundation
import NewsstandTestSupport
import XCTest
@testable import NewsstandContent

/// Comic books (CBZ, CB7, CBT) built by the test with libarchive, unpacked as the installer does, then opened:
/// page order, what is not a page, ComicInfo.xml, and archives that try to write outside their folder.
final class ComicBookReaderTests: XCTestCase {
    /// Writes an archive of `pages` and `extra` entries, unpacks it with `ArchiveExtractor` and opens it.
    private func unpack(pages: [String], extra: [ArchiveWriter.Entry] = [], format: ArchiveWriter.Format = .zip(stored: false),
                        name: String = "book.cbz") throws -> (folder: URL, book: ComicBook) {
        let scratch = try TestFiles.scratchFolder(for: self)
        let archive = scratch.appendingPathComponent(name)
        try ComicBookFixture.write(archive, pages: pages, extra: extra, format: format)
        let folder = scratch.appendingPathComponent("issue", isDirectory: true)
        try ArchiveExtractor.extract(archive: archive, into: folder)
        return (folder, try ComicBookReader.open(folder: folder))
    }

    func testPagesAreInNaturalOrderWithNestedFoldersFlattenedInPathOrder() throws {
        let (folder, book) = try unpack(pages: ["page10.png", "Page2.png", "page1.png", "chapter 2/p1.jpg", "chapter 10/p1.png",
                                                "chapter 2/P10.png", "chapter 2/p9.png"])
        XCTAssertEqual(book.pages.map(\.path), ["chapter 2/p1.jpg", "chapter 2/p9.png", "chapter 2/P10.png", "chapter 10/p1.png",
                                                "page1.png", "Page2.png", "page10.png"])
        XCTAssertEqual(book.pages.map(\.number), Array(1...7))
        XCTAssertEqual(book.pages.map(\.title), (1...7).map { "Page \($0)" })
        XCTAssertEqual(book.pages[0].file.path, folder.appendingPathComponent("chapter 2/p1.jpg").path)
        XCTAssertEqual(book.title, "Untitled", "no ComicInfo.xml and no single top folder")
    }

    func testEntriesThatAreNotPagesAreIgnored() throws {
        let (_, book) = try unpack(pages: ["001.png", "002.png"], extra: [
            .file("notes.txt", Data("scanned by someone".utf8)),
            .file("credits.nfo", Data("x".utf8)),
            .file("thumbs.db", Data("x".utf8)),
            .file(".hidden.png", Data("not a page".utf8)),
            .file("__MACOSX/._001.png", Data("resource fork".utf8)),
            .folder("empty"),
        ])
        XCTAssertEqual(book.pages.map(\.path), ["001.png", "002.png"])
    }

    func testComicInfoNamesTheBookAndItsPagesAndLeavesDeletedPagesOut() throws {
        let info = ComicBookFixture.comicInfo(title: "The Lighthouse", series: "Harbour Tales", number: "12", pages: [
            (0, "FrontCover", nil), (1, "Story", nil), (2, "Advertisement", nil), (3, "Story", "Chapter Two"), (4, "Deleted", nil), (5, "BackCover", nil),
        ])
        let (_, book) = try unpack(pages: (1...6).map { "p\($0).png" }, extra: [info])
        XCTAssertEqual(book.title, "Harbour Tales #12: The Lighthouse")
        XCTAssertEqual(book.pages.map(\.title), ["Page 1: Front cover", "Page 2", "Page 3: Advertisement", "Page 4: Chapter Two", "Page 5: Back cover"])
        XCTAssertEqual(book.pages.map(\.path), ["p1.png", "p2.png", "p3.png", "p4.png", "p6.png"], "p5 is marked deleted")
        XCTAssertEqual(book.info?.series, "Harbour Tales")
    }

    func testABrokenComicInfoIsIgnoredAndTheTopFolderNamesTheBook() throws {
        let (_, book) = try unpack(pages: ["Kettle Comics 001/1.png", "Kettle Comics 001/2.png"],
                                   extra: [.file("Kettle Comics 001/ComicInfo.xml", Data("<ComicInfo><Title>unclosed".utf8))])
        XCTAssertEqual(book.title, "Kettle Comics 001")
        XCTAssertEqual(book.pages.count, 2)
        XCTAssertNil(book.info)
        XCTAssertNil(ComicInfo.parse(Data(repeating: 0x20, count: ComicInfo.maximumBytes + 1)), "a ComicInfo.xml over 1 MiB is not read")
    }

    func testComicInfoTextIsMadeSafeForTheTerminal() {
        let info = ComicInfo.parse(Data("<ComicInfo><Title>Bad&#x202E; Title</Title><Pages><Page Image=\"0\" Bookmark=\"\(String(repeating: "x", count: 500))\"/></Pages></ComicInfo>".utf8))
        XCTAssertEqual(info?.title, "Bad Title")
        XCTAssertEqual(info?.pages.first?.label?.count, 200)
    }

    func testAFolderWithoutPicturesIsNotAComicBook() throws {
        let folder = try TestFiles.scratchFolder(for: self)
        try Data("text".utf8).write(to: folder.appendingPathComponent("readme.txt"))
        XCTAssertThrowsError(try ComicBookReader.open(folder: folder)) { error in
            XCTAssertEqual("\(error)", "the comic book has no page pictures (PNG or JPEG files)")
        }
    }

    func testCB7AndCBTOpenLikeACBZ() throws {
        for (format, name) in [(ArchiveWriter.Format.sevenZip, "book.cb7"), (.tar, "book.cbt"), (.zip(stored: true), "stored.cbz")] {
            let (_, book) = try unpack(pages: ["b/2.png", "b/10.png", "a.png"], format: format, name: name)
            XCTAssertEqual(book.pages.map(\.path), ["a.png", "b/2.png", "b/10.png"], name)
        }
    }

    func testHostileEntriesRefuseTheWholeArchiveAndNothingIsWrittenOutside() throws {
        let scratch = try TestFiles.scratchFolder(for: self)
        let outside = scratch.appendingPathComponent("outside", isDirectory: true)
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        let hostile: [(String, ArchiveWriter.Entry, String)] = [
            ("dot-dot", .file("../evil.png", Data("x".utf8)), "would escape the issue folder"),
            ("nested dot-dot", .file("pages/../../evil.png", Data("x".utf8)), "would escape the issue folder"),
            ("absolute", .file(outside.appendingPathComponent("evil.png").path, Data("x".utf8)), "absolute path"),
            ("symlink", .symbolicLink("link.png", target: outside.appendingPathComponent("evil.png").path), "symbolic link"),
            ("symlink folder", .symbolicLink("pages", target: outside.path), "symbolic link"),
        ]
        for (label, entry, expected) in hostile {
            let archive = scratch.appendingPathComponent("\(label).cbz")
            try ComicBookFixture.write(archive, pages: ["001.png"], extra: [entry, .file("pages/evil.png", Data("x".utf8))])
            let folder = scratch.appendingPathComponent("issue-\(label)", isDirectory: true)
            XCTAssertThrowsError(try ArchiveExtractor.extract(archive: archive, into: folder), label) { error in
                XCTAssertTrue("\(error)".contains(expected), "\(label): \(error)")
            }
            XCTAssertFalse(FileManager.default.fileExists(atPath: folder.path), "\(label): the refused archive leaves nothing")
            XCTAssertEqual(TestFiles.listing(of: outside), [], "\(label): nothing written outside")
            XCTAssertFalse(FileManager.default.fileExists(atPath: scratch.appendingPathComponent("evil.png").path), label)
        }
    }
}
