import Foundation
import NewsstandContent
import NewsstandImaging
import XCTest
@testable import NewsstandCore

/// Comic book issues (CBZ, CB7, CBT) in the core: installed like every archive, opened as a book whose
/// articles are its pages, a first page as the shelf's cover, and preferred to unreadable types in OPDS.
final class ComicBookIssueTests: XCTestCase {
    private func issue(_ name: String = "comic") -> Issue {
        Issue(id: 7, publicationID: 1, name: name, title: "Comic", date: Date(), contentURLs: [URL(string: "https://e.com/\(name).cbz")!])
    }

    func testCBZCB7AndCBTInstallAsComicBooks() throws {
        let root = try TestFiles.scratchFolder(for: self)
        for (format, name) in [(ArchiveWriter.Format.zip(stored: false), "book.cbz"), (.sevenZip, "book.cb7"), (.tar, "book.cbt")] {
            let archive = root.appendingPathComponent(name)
            try ComicBookFixture.write(archive, pages: ["p10.png", "p2.png", "p1.png"], extra: [.file("info.txt", Data("x".utf8))], format: format)
            let destination = root.appendingPathComponent("issues/pub/\(name)", isDirectory: true)
            try IssueInstaller.install(assets: [archive], sourceURLs: [URL(string: "https://e.com/\(name)")!], for: issue(), into: destination)
            let book = try IssueContent.openBook(folder: destination)
            XCTAssertTrue(book.isComicBook, name)
            XCTAssertEqual(book.articles.map(\.file.lastPathComponent), ["p1.png", "p2.png", "p10.png"], name)
            XCTAssertFalse(FileManager.default.fileExists(atPath: destination.appendingPathComponent(name).path), "\(name) is unpacked, not kept")
        }
    }

    func testHostileComicBooksAreRefusedWithoutWritingOutsideTheIssueFolder() throws {
        let root = try TestFiles.scratchFolder(for: self)
        let parent = root.appendingPathComponent("issues/pub", isDirectory: true)
        for (label, entry) in [("dot-dot", ArchiveWriter.Entry.file("../evil.png", Data("x".utf8))),
                               ("absolute", .file(root.appendingPathComponent("evil.png").path, Data("x".utf8))),
                               ("symlink", .symbolicLink("002.png", target: root.appendingPathComponent("evil.png").path))] {
            let archive = root.appendingPathComponent("\(label).cbz")
            try ComicBookFixture.write(archive, pages: ["001.png"], extra: [entry])
            let destination = parent.appendingPathComponent(label, isDirectory: true)
            XCTAssertThrowsError(try IssueInstaller.install(assets: [archive], sourceURLs: [URL(string: "https://e.com/x.cbz")!],
                                                            for: issue(), into: destination), label) { error in
                XCTAssertTrue("\(error)".hasPrefix("the issue archive was refused: "), "\(label): \(error)")
            }
            XCTAssertEqual(TestFiles.listing(of: parent), [], "\(label): nothing installed, no staging folder left")
            XCTAssertFalse(FileManager.default.fileExists(atPath: root.appendingPathComponent("evil.png").path), label)
            XCTAssertFalse(FileManager.default.fileExists(atPath: root.appendingPathComponent("issues/evil.png").path), label)
        }
    }

    func testAnArchiveWithNeitherPagesNorAnEPUBIsRefusedInPlainWords() throws {
        let root = try TestFiles.scratchFolder(for: self)
        let archive = root.appendingPathComponent("notes.cbz")
        try ArchiveWriter.write([.file("notes.txt", Data("x".utf8))], to: archive)
        XCTAssertThrowsError(try IssueInstaller.install(assets: [archive], sourceURLs: [URL(string: "https://e.com/notes.cbz")!], for: issue(),
                                                        into: root.appendingPathComponent("issue"))) { error in
            XCTAssertEqual("\(error)", "the download is not an EPUB, PDF or comic book (CBZ, CB7, CBT) issue")
        }
        XCTAssertTrue(IssueInstaller.isArchive(archive))
        let pdf = root.appendingPathComponent("x.pdf")
        try Data("%PDF-1.4\n".utf8).write(to: pdf)
        XCTAssertFalse(IssueInstaller.isArchive(pdf))
    }

    func testAComicBookIsABookWhosePagesAreItsArticles() throws {
        let root = try TestFiles.scratchFolder(for: self)
        let archive = root.appendingPathComponent("book.cbz")
        try ComicBookFixture.write(archive, pages: ["b.png", "a.png"],
                                   extra: [ComicBookFixture.comicInfo(title: "Lights", series: "Harbour", number: "3", pages: [(0, "FrontCover", nil)])])
        let folder = root.appendingPathComponent("issue", isDirectory: true)
        try ArchiveExtractor.extract(archive: archive, into: folder)

        let book = try IssueContent.openBook(folder: folder)
        XCTAssertEqual(book.title, "Harbour #3: Lights")
        XCTAssertTrue(book.isComicBook)
        XCTAssertFalse(book.isPDF)
        XCTAssertEqual(book.articles.map(\.title), ["Page 1: Front cover", "Page 2"])
        XCTAssertEqual(book.tableOfContents.map(\.title), ["Page 1: Front cover", "Page 2"])
        XCTAssertEqual(book.articleIndex(for: book.tableOfContents[1]), 1)
        XCTAssertEqual(book.coverImage?.lastPathComponent, "a.png")
        XCTAssertEqual(try IssueContent.blocks(of: book, article: 1),
                       [.heading(level: 2, text: "Page 2"), .image(source: folder.appendingPathComponent("b.png"), alt: "b.png")])
        XCTAssertEqual(try IssueContent.allBlocks(of: book).count, 2)
        XCTAssertEqual(IssueContent.coverPicture(in: folder)?.lastPathComponent, "a.png")
    }

    func testADownloadedComicBookWithoutACatalogCoverShowsItsFirstPage() throws {
        let (store, paths) = try TestSupport.store(for: self)
        let publication = try store.addPublication(title: "Comics", feedURL: URL(string: "https://example.com/c.plist")!)
        let entry = TestSupport.entry("comic", content: [URL(string: "https://example.com/comic.cbz")!])
        let issue = try XCTUnwrap(try store.upsertIssues([entry], publicationID: publication.id).first)
        let service = CoverArtService(store: store, cacheDirectory: paths.coverCacheDirectory,
                                      issueFolder: CoverArtService.folders(of: store, in: paths)) { _ in }
        XCTAssertThrowsError(try service.coverData(issueID: issue.id), "not downloaded yet: no cover") { error in
            XCTAssertEqual("\(error)", "the catalog gives no cover")
        }

        let folder = paths.folder(for: issue, of: publication)
        let archive = try TestFiles.scratchFolder(for: self).appendingPathComponent("comic.cbz")
        try ComicBookFixture.write(archive, pages: ["02.png", "01.png"])
        try ArchiveExtractor.extract(archive: archive, into: folder)
        try store.setState(.available, issueID: issue.id, progress: 1)
        let data = try service.coverData(issueID: issue.id)
        XCTAssertEqual(data, try Data(contentsOf: folder.appendingPathComponent("01.png")))
        XCTAssertEqual(try ImageDecoder.decode(data).width, 48)
        XCTAssertTrue(try XCTUnwrap(try store.issue(id: issue.id)).mayHaveCover)
    }

    func testOPDSPrefersAComicBookToATypeItCannotRead() {
        let url = URL(string: "https://example.com/x")!
        let links = [
            FeedDocument.Link(url: LazyURL(url.appendingPathComponent("a.mobi")), rel: "http://opds-spec.org/acquisition", type: "application/x-mobipocket-ebook"),
            FeedDocument.Link(url: LazyURL(url.appendingPathComponent("a.cbz")), rel: "http://opds-spec.org/acquisition", type: "application/vnd.comicbook+zip"),
        ]
        XCTAssertEqual(FeedParser.bestAcquisition(links)?.url.url.lastPathComponent, "a.cbz")
        let withPDF = links + [FeedDocument.Link(url: LazyURL(url.appendingPathComponent("a.pdf")), rel: "http://opds-spec.org/acquisition", type: "application/pdf")]
        XCTAssertEqual(FeedParser.bestAcquisition(withPDF)?.url.url.lastPathComponent, "a.pdf", "a PDF still comes first")
    }
}
