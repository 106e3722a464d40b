import Foundation
import NewsstandTestSupport
import XCTest
@testable import NewsstandContent

final class EPUBReaderTests: XCTestCase {
    // MARK: IDPF EPUB 3 samples (packed; unpacked here with ArchiveExtractor)

    /// Spine items marked linear="no", which `articles` leaves out (counted from each package document).
    private let nonLinearSpineItems = ["kusamakura-preview.epub": 1, "moby-dick.epub": 2]
    /// INDEX.tsv only lists properties="cover-image"; this one names its cover with EPUB 2's <meta name="cover">.
    private let coversFromEPUB2Meta = ["regime-anticancer-arabic.epub": "Image/cover.jpg"]

    func testIDPFSamplesOpenWithTitleSpineAndCover() throws {
        let folder = try TestFiles.corpus("epub/idpf-epub3-samples")
        let index = try String(contentsOf: folder.appendingPathComponent("INDEX.tsv"), encoding: .utf8)
        let rows = index.split(separator: "\n").dropFirst().map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
        XCTAssertEqual(rows.count, 10)
        for row in rows {
            let name = row[0], version = row[2], title = row[3], language = row[4]
            let spineCount = Int(row[5])!, hasNav = row[6] == "yes", cover = coversFromEPUB2Meta[name] ?? row[10]
            let unpacked = try TestFiles.scratchFolder(for: self).appendingPathComponent("book")
            try ArchiveExtractor.extract(archive: folder.appendingPathComponent("epub/\(name)"), into: unpacked)
            let book: EPUBBook
            do {
                book = try EPUBReader.open(folder: unpacked)
            } catch {
                XCTFail("\(name): \(error)")
                continue
            }
            XCTAssertEqual(book.title, title, name)
            XCTAssertEqual(book.language, language, name)
            XCTAssertEqual(book.version, version, name)
            XCTAssertEqual(book.articles.count, spineCount - (nonLinearSpineItems[name] ?? 0), name)
            XCTAssertFalse(book.tableOfContents.isEmpty, name)
            XCTAssertTrue(hasNav, name)
            for article in book.articles {
                XCTAssertTrue(article.file.path.hasPrefix(unpacked.standardizedFileURL.path + "/"), "\(name): \(article.file)")
                XCTAssertTrue(FileManager.default.fileExists(atPath: article.file.path), "\(name): \(article.file.path)")
                XCTAssertFalse(article.title.isEmpty, name)
            }
            if cover.isEmpty {
                XCTAssertNil(book.coverImage, name)
            } else {
                XCTAssertEqual(book.coverImage?.path.hasSuffix("/" + cover), true, "\(name): \(String(describing: book.coverImage))")
            }
        }
    }

    func testMobyDickTitlesComeFromTheNavigationDocument() throws {
        let archive = try TestFiles.corpus("epub/idpf-epub3-samples/epub/moby-dick.epub")
        let unpacked = try TestFiles.scratchFolder(for: self).appendingPathComponent("book")
        try ArchiveExtractor.extract(archive: archive, into: unpacked)
        let book = try EPUBReader.open(folder: unpacked)
        XCTAssertEqual(book.creator, "Herman Melville")
        XCTAssertTrue(book.articles.contains { $0.title == "Chapter 1. Loomings." }, "\(book.articles.prefix(8).map(\.title))")
        XCTAssertTrue(book.tableOfContents.contains { $0.title == "Chapter 1. Loomings." })
        let loomings = try XCTUnwrap(book.articles.first { $0.title == "Chapter 1. Loomings." })
        let blocks = XHTMLDocumentParser.blocks(from: try Data(contentsOf: loomings.file), baseURL: loomings.file)
        XCTAssertTrue(blocks.contains { if case .paragraph(let text) = $0 { return text.plainText.hasPrefix("Call me Ishmael.") } else { return false } })
    }

    // MARK: EPUB 2 samples from epubcheck

    private func epub2(_ name: String) throws -> URL {
        try TestFiles.corpus("epub/epubcheck/epub2/files/epub/\(name)")
    }

    func testMinimalEPUB2OpensWithNCXTableOfContents() throws {
        let book = try EPUBReader.open(folder: try epub2("minimal"))
        XCTAssertEqual(book.title, "Minimal EPUB 2.0")
        XCTAssertEqual(book.language, "en")
        XCTAssertEqual(book.version, "2.0")
        XCTAssertEqual(book.articles.map(\.title), ["Loomings"])
        XCTAssertEqual(book.articles.first?.file.lastPathComponent, "content_001.xhtml")
        XCTAssertEqual(book.articles.first?.mediaType, "application/xhtml+xml")
        XCTAssertEqual(book.tableOfContents.map(\.title), ["Loomings"])
        XCTAssertEqual(book.tableOfContents.first?.file, book.articles.first?.file)
        XCTAssertNil(book.coverImage)
    }

    func testValidEPUB2SamplesOpenWithNCX() throws {
        for name in ["ncx-uid-spaces-valid", "ocf-metainf-file-unknown-valid", "ocf-metainf-container-alternative-valid",
                     "opf-package-id-spaces-valid", "opf-metadata-creator-role-clr-valid", "ops-xhtml-script-valid"] {
            let book = try EPUBReader.open(folder: try epub2(name))
            XCTAssertFalse(book.articles.isEmpty, name)
            XCTAssertFalse(book.tableOfContents.isEmpty, name)
            XCTAssertNotNil(book.tableOfContents.first?.file, name)
        }
    }

    func testBrokenEPUB2SamplesGiveClearErrors() throws {
        let expectations = [
            "ocf-metainf-container-file-missing-fatal": "missing META-INF/container.xml",
            "ocf-opf-missing-fatal": "package document OPS/package.opf not found",
            "opf-spine-missing-error": "package document OPS/package.opf has no spine",
            "ocf-metainf-container-rootfile-full-path-missing-error": "META-INF/container.xml gives no path for the package document",
            "ocf-metainf-container-rootfile-full-path-empty-error": "META-INF/container.xml gives no path for the package document",
        ]
        for (name, message) in expectations {
            let folder = try epub2(name) // outside the assertion, so a missing corpus skips instead of failing
            XCTAssertThrowsError(try EPUBReader.open(folder: folder), name) { error in
                XCTAssertEqual((error as? EPUBError)?.description, message, name)
            }
        }
    }

    func testEveryEPUB2SampleEitherOpensOrThrowsAnEPUBError() throws {
        let root = try TestFiles.corpus("epub/epubcheck/epub2/files/epub")
        let names = try FileManager.default.contentsOfDirectory(atPath: root.path).sorted()
        var opened = 0
        for name in names {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: root.appendingPathComponent(name).path, isDirectory: &isDirectory),
                  isDirectory.boolValue else { continue }
            do {
                let book = try EPUBReader.open(folder: root.appendingPathComponent(name))
                XCTAssertFalse(book.articles.isEmpty, name)
                opened += 1
            } catch {
                XCTAssertTrue(error is EPUBError, "\(name): \(error)")
            }
        }
        XCTAssertGreaterThan(opened, 35)
    }

    // MARK: W3C epub-tests

    func testW3CNavigationSamplesProduceATableOfContents() throws {
        let root = try TestFiles.corpus("epub/w3c-epub-tests/unpacked")
        let names = try FileManager.default.contentsOfDirectory(atPath: root.path).filter { $0.hasPrefix("nav-") }.sorted()
        XCTAssertGreaterThanOrEqual(names.count, 9)
        for name in names {
            let book = try EPUBReader.open(folder: root.appendingPathComponent(name))
            XCTAssertFalse(book.tableOfContents.isEmpty, name)
            XCTAssertNotNil(book.tableOfContents.first?.file, name)
        }
        let imageLink = try EPUBReader.open(folder: root.appendingPathComponent("nav-non-text_img"))
        XCTAssertEqual(imageLink.tableOfContents.map(\.title), ["Start page", "Description of the Abbey of Sénanque"])
    }

    func testEveryW3CSampleOpens() throws {
        let root = try TestFiles.corpus("epub/w3c-epub-tests/unpacked")
        let names = try FileManager.default.contentsOfDirectory(atPath: root.path).sorted()
        XCTAssertGreaterThanOrEqual(names.count, 80, "the W3C samples are all there")
        var opened = 0
        for name in names {
            do {
                if try !EPUBReader.open(folder: root.appendingPathComponent(name)).articles.isEmpty { opened += 1 }
            } catch {
                XCTFail("\(name): \(error)")
            }
        }
        XCTAssertEqual(opened, names.count, "every sample opens with articles")
    }

    // MARK: Hand-built publications

    private func makeBook(opf: String, files: [String: String] = [:], opfPath: String = "OEBPS/content.opf") throws -> URL {
        let root = try TestFiles.scratchFolder(for: self).appendingPathComponent("book")
        var all = files
        all["META-INF/container.xml"] = """
        <?xml version="1.0"?>
        <container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
          <rootfiles><rootfile full-path="\(opfPath)" media-type="application/oebps-package+xml"/></rootfiles>
        </container>
        """
        all[opfPath] = opf
        for (path, text) in all {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        return root
    }

    private func package(version: String = "3.0", metadata: String = "<dc:title>Book</dc:title>", manifest: String, spine: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <package xmlns="http://www.idpf.org/2007/opf" version="\(version)" unique-identifier="id">
          <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">\(metadata)<dc:identifier id="id">x</dc:identifier></metadata>
          <manifest>\(manifest)</manifest>
          <spine>\(spine)</spine>
        </package>
        """
    }

    func testHrefsArePercentDecodedAndTitlesFallBack() throws {
        let root = try makeBook(
            opf: package(
                manifest: """
                <item id="a" href="text/chapter%201.xhtml" media-type="application/xhtml+xml"/>
                <item id="b" href="text/../text/two.xhtml" media-type="application/xhtml+xml"/>
                <item id="c" href="three.xhtml" media-type="application/xhtml+xml"/>
                <item id="img" href="images/c%C3%B6ver.jpg" media-type="image/jpeg" properties="cover-image"/>
                """,
                spine: #"<itemref idref="a"/><itemref idref="b"/><itemref idref="c"/>"#),
            files: [
                "OEBPS/text/chapter 1.xhtml": "<html><head><title>First &amp; foremost</title></head><body><p>x</p></body></html>",
                "OEBPS/text/two.xhtml": "<html><head></head><body><h2>Second  heading</h2></body></html>",
                "OEBPS/three.xhtml": "<html><body><p>no title</p></body></html>",
                "OEBPS/images/cöver.jpg": "jpeg",
            ])
        let book = try EPUBReader.open(folder: root)
        XCTAssertEqual(book.articles.map(\.title), ["First & foremost", "Second heading", "Section 3"])
        XCTAssertEqual(book.articles[0].file, URL(fileURLWithPath: root.path + "/OEBPS/text/chapter 1.xhtml"))
        XCTAssertEqual(book.coverImage, URL(fileURLWithPath: root.path + "/OEBPS/images/cöver.jpg"))
        XCTAssertEqual(book.tableOfContents.map(\.title), book.articles.map(\.title))
    }

    func testHrefsLeavingTheFolderAreRefused() throws {
        let root = try makeBook(
            opf: package(
                manifest: """
                <item id="evil" href="../../../../etc/passwd" media-type="application/xhtml+xml"/>
                <item id="evil2" href="%2E%2E%2F%2E%2E%2Fsecret.xhtml" media-type="application/xhtml+xml"/>
                <item id="ok" href="ok.xhtml" media-type="application/xhtml+xml"/>
                """,
                spine: #"<itemref idref="evil"/><itemref idref="evil2"/><itemref idref="ok"/>"#),
            files: ["OEBPS/ok.xhtml": "<html><body><h1>Fine</h1></body></html>"])
        let book = try EPUBReader.open(folder: root)
        XCTAssertEqual(book.articles.map(\.file.lastPathComponent), ["ok.xhtml"])

        let onlyEvil = try makeBook(
            opf: package(manifest: #"<item id="evil" href="../../x.xhtml" media-type="application/xhtml+xml"/>"#,
                         spine: #"<itemref idref="evil"/>"#))
        XCTAssertThrowsError(try EPUBReader.open(folder: onlyEvil)) { error in
            XCTAssertEqual((error as? EPUBError)?.description,
                           "none of the spine's 1 items refers to a manifest file inside the publication")
        }
    }

    func testContainerPointingOutsideIsRefused() throws {
        let root = try makeBook(opf: "<package/>", opfPath: "../outside.opf")
        XCTAssertThrowsError(try EPUBReader.open(folder: root)) { error in
            XCTAssertEqual((error as? EPUBError)?.description, "package document path '../outside.opf' points outside the publication")
        }
    }

    func testEmptySpineAndBadXMLGivePlainErrors() throws {
        let empty = try makeBook(opf: package(manifest: "", spine: ""))
        XCTAssertThrowsError(try EPUBReader.open(folder: empty)) { error in
            XCTAssertEqual((error as? EPUBError)?.description, "spine is empty")
        }
        let broken = try makeBook(opf: "<package><metadata></package>")
        XCTAssertThrowsError(try EPUBReader.open(folder: broken)) { error in
            let message = (error as? EPUBError)?.description ?? ""
            XCTAssertTrue(message.hasPrefix("package document OEBPS/content.opf is not well-formed XML"), message)
        }
        XCTAssertThrowsError(try EPUBReader.open(folder: URL(fileURLWithPath: "/nonexistent/book"))) { error in
            XCTAssertEqual((error as? EPUBError)?.description, "publication folder /nonexistent/book not found")
        }
    }

    func testEPUB2CoverMetaAndNonLinearItems() throws {
        let root = try makeBook(
            opf: package(
                version: "2.0",
                metadata: #"<dc:title>Old</dc:title><dc:creator>Someone</dc:creator><meta name="cover" content="cov"/>"#,
                manifest: """
                <item id="cov" href="img/c.png" media-type="image/png"/>
                <item id="n" href="notes.xhtml" media-type="application/xhtml+xml"/>
                <item id="m" href="main.xhtml" media-type="application/xhtml+xml"/>
                """,
                spine: #"<itemref idref="n" linear="no"/><itemref idref="m"/>"#),
            files: ["OEBPS/main.xhtml": "<html><body><h1>Main</h1></body></html>", "OEBPS/img/c.png": "png"])
        let book = try EPUBReader.open(folder: root)
        XCTAssertEqual(book.creator, "Someone")
        XCTAssertEqual(book.articles.map(\.title), ["Main"])
        XCTAssertEqual(book.coverImage?.lastPathComponent, "c.png")
    }

    func testNestedNavigationWithFragments() throws {
        let root = try makeBook(
            opf: package(
                manifest: """
                <item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>
                <item id="c" href="text/c.xhtml" media-type="application/xhtml+xml"/>
                """,
                spine: #"<itemref idref="c"/>"#),
            files: [
                "OEBPS/nav.xhtml": """
                <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><body>
                <nav epub:type="landmarks"><ol><li><a href="text/c.xhtml">Landmark</a></li></ol></nav>
                <nav epub:type="toc"><ol>
                  <li><a href="text/c.xhtml">Part One</a>
                    <ol><li><a href="text/c.xhtml#s%C3%A9ction">Section <b>A</b></a></li></ol></li>
                  <li><span>Heading only</span></li>
                </ol></nav></body></html>
                """,
                "OEBPS/text/c.xhtml": "<html><body><p>c</p></body></html>",
            ])
        let book = try EPUBReader.open(folder: root)
        let file = URL(fileURLWithPath: root.path + "/OEBPS/text/c.xhtml")
        XCTAssertEqual(book.tableOfContents, [
            EPUBTableOfContentsEntry(title: "Part One", file: file, fragment: nil, children: [
                EPUBTableOfContentsEntry(title: "Section A", file: file, fragment: "séction"),
            ]),
            EPUBTableOfContentsEntry(title: "Heading only", file: nil, fragment: nil),
        ])
        XCTAssertEqual(book.articles.map(\.title), ["Part One"])
    }
}
