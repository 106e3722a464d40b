import Foundation
import XCTest
import NewsstandContent
import NewsstandCore
import NewsstandImaging
import NewsstandTestSupport
import NewsstandUI
@testable import NewsstandRuntime

/// The reader's slow work: pictures only from inside the issue, and search across an issue's blocks.
final class ReaderWorkTests: XCTestCase {
    func testPicturesAreDrawnOnlyFromInsideTheIssueFolder() throws {
        let folder = try TestFiles.scratchFolder(for: self).appendingPathComponent("issue", isDirectory: true)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("images"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: TestFiles.sampleLibrary.appendingPathComponent("covers/2025-spring.png"),
                                         to: folder.appendingPathComponent("images/cover.png"))
        let inside = PictureRequest(issueID: 1, source: folder.appendingPathComponent("images/cover.png"), columns: 20, rows: 8)
        let art = try ReaderWork.picture(inside, issueFolder: folder).get()
        XCTAssertEqual(art.columns, 20)
        XCTAssertEqual(art.rows, 8)
        XCTAssertTrue(art.lines.joined().contains { $0 != " " })

        let escape = PictureRequest(issueID: 1, source: URL(fileURLWithPath: folder.path + "/images/../../issue/../../../etc/passwd"), columns: 20, rows: 8)
        XCTAssertEqual(ReaderWork.picture(escape, issueFolder: folder), .failure(ReaderFailure("the picture is outside the issue")))
        let sibling = PictureRequest(issueID: 1, source: URL(fileURLWithPath: folder.path + "-other/x.png"), columns: 20, rows: 8)
        XCTAssertEqual(ReaderWork.picture(sibling, issueFolder: folder), .failure(ReaderFailure("the picture is outside the issue")))
        let remote = PictureRequest(issueID: 1, source: URL(string: "https://example.com/x.png")!, columns: 20, rows: 8)
        XCTAssertEqual(ReaderWork.picture(remote, issueFolder: folder), .failure(ReaderFailure("the picture is not in the issue")))
    }

    func testComicPagesAreDrawnOneAtATimeAndAPageThatCannotBeSaysWhy() throws {
        let scratch = try TestFiles.scratchFolder(for: self)
        let archive = scratch.appendingPathComponent("book.cbz")
        try ComicBookFixture.write(archive, pages: ["p1.png"], extra: [
            .file("p2.png", Data("not a picture at all".utf8)),
            .file("p3.png", ComicBookFixture.pngHeader(width: 12_000, height: 10_000)),
            .file("p4.webp", Data("RIFF....WEBPVP8 ".utf8)),
        ])
        let folder = scratch.appendingPathComponent("issue", isDirectory: true)
        try ArchiveExtractor.extract(archive: archive, into: folder)
        let book = try IssueContent.openBook(folder: folder)
        XCTAssertEqual(book.articles.count, 4)

        func page(_ index: Int, in book: EPUBBook = book) -> Result<TextArt, ReaderFailure> {
            ReaderWork.comicPage(book, index: index, issueFolder: folder, columns: 30, rows: 12, mode: .ascii, background: .dark)
        }
        let art = try page(0).get()
        XCTAssertEqual(art.columns, 30)
        XCTAssertEqual(art.rows, 12)
        XCTAssertGreaterThan(art.lines.joined().filter { $0 != " " }.count, 30, "the stripes are drawn")
        XCTAssertEqual(page(1), .failure(ReaderFailure("the picture cannot be drawn: not a PNG or JPEG image")))
        XCTAssertEqual(page(2), .failure(ReaderFailure("the picture cannot be drawn: image too large: PNG is 12000x10000 (120.0 megapixels), limit is 50.0 megapixels")))
        XCTAssertEqual(page(3), .failure(ReaderFailure("the picture cannot be drawn: a WebP image, not PNG or JPEG")))
        XCTAssertEqual(page(4), .failure(ReaderFailure("this issue has no page 5")))

        // A page file bigger than the limit is not read at all (a sparse file: no disk used).
        let huge = folder.appendingPathComponent("p1.png")
        let handle = try FileHandle(forWritingTo: huge)
        try handle.truncate(atOffset: UInt64(ReaderWork.maximumPictureBytes + 1))
        try handle.close()
        XCTAssertEqual(page(0), .failure(ReaderFailure("the picture p1.png is larger than 64 MiB")))

        let elsewhere = IssueContent.book(ComicBook(title: "x", pages: [ComicPage(number: 1, file: scratch.appendingPathComponent("book.cbz"), path: "x.png")]))
        XCTAssertEqual(page(0, in: elsewhere), .failure(ReaderFailure("the picture is outside the issue")))
    }

    func testIssueSearchFindsBlocksIgnoringCase() {
        let articles: [[TextBlock]] = [[.paragraph("A ZEBRA crossing"), .paragraph("none")], [], [.heading(level: 1, text: "zebras"), .image(source: nil, alt: "a zebra")]]
        XCTAssertEqual(ReaderWork.matches(of: "zebra", in: articles),
                       [IssueMatch(articleIndex: 0, blockIndex: 0), IssueMatch(articleIndex: 2, blockIndex: 0), IssueMatch(articleIndex: 2, blockIndex: 1)])
    }
}
