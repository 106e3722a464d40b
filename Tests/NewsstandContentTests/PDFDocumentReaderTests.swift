import Foundation
import NewsstandTestSupport
import XCTest
@testable import NewsstandContent

/// PDF issues through poppler-utils, over py-pdf/sample-files (see ../shared/corpora/pdf/EXPECTED.md).
final class PDFDocumentReaderTests: XCTestCase {
    private func sample(_ path: String) throws -> PDFDocumentReader {
        guard PDFDocumentReader.isAvailable() else {
            throw TestRequirement.absent("pdftotext (poppler-utils) is not installed; PDF tests skipped (apt-get install poppler-utils)")
        }
        return PDFDocumentReader(file: try TestFiles.corpus("pdf/py-pdf-sample-files/\(path)"))
    }

    func testPageCountsMatchFilesJSON() throws {
        let expected = [
            "001-trivial/minimal-document.pdf": 1, "002-trivial-libre-office-writer/002-trivial-libre-office-writer.pdf": 1,
            "004-pdflatex-4-pages/pdflatex-4-pages.pdf": 4, "006-pdflatex-outline/pdflatex-outline.pdf": 4,
            "015-arabic/habibi.pdf": 1, "021-pdfa/crazyones-pdfa.pdf": 1, "026-latex-multicolumn/multicolumn.pdf": 3,
        ]
        for (path, pages) in expected {
            let reader = try sample(path) // outside the assertion, so a missing corpus skips (or fails in CI) as itself
            XCTAssertEqual(try reader.info().pageCount, pages, path)
        }
    }

    func testPageTextHasTheSourceText() throws {
        let minimal = try sample("001-trivial/minimal-document.pdf")
        let text = try minimal.blocks(page: 1).map(\.plainText).joined(separator: "\n")
        XCTAssertTrue(text.hasPrefix("Lorem ipsum dolor sit amet, consetetur sadipscing elitr"), text)
        XCTAssertTrue(text.contains("no sea takimata sanctus est Lorem ipsum dolor sit amet."), "hyphenated 'taki-mata' is rejoined: \(text)")
        XCTAssertFalse(text.contains("\n1"), "the page number is dropped: \(text)")

        let crazy = try sample("021-pdfa/crazyones-pdfa.pdf").blocks(page: 1)
        let crazyText = crazy.map(\.plainText).joined(separator: "\n")
        XCTAssertTrue(crazyText.hasPrefix("The Crazy Ones\nOctober 14, 1998"), crazyText)
        XCTAssertTrue(crazyText.contains("the crazy ones. The misfits. The rebels."), crazyText)

        let fourPages = try sample("004-pdflatex-4-pages/pdflatex-4-pages.pdf")
        for page in 1...4 {
            let pageText = try fourPages.pageText(page)
            XCTAssertTrue(pageText.contains("text"), "page \(page): \(pageText.prefix(200))")
        }
        let outline = try sample("006-pdflatex-outline/pdflatex-outline.pdf").pageText(1)
        XCTAssertTrue(outline.contains("Contents") && outline.contains("Foo") && outline.contains("Baz"), outline)
    }

    func testTwoColumnPagesAreReadLeftColumnFirst() throws {
        let page = try sample("026-latex-multicolumn/multicolumn.pdf").blocks(page: 1)
        let text = page.map(\.plainText).joined(separator: "\n")
        XCTAssertTrue(text.hasPrefix("Two-Column Document with Lorem Ipsum\nYour Name\nJanuary 3, 2024"), text)
        let abstract = try XCTUnwrap(text.range(of: "This is a sample document with two columns filled with Lorem Ipsum text."), text)
        let leftLorem = try XCTUnwrap(text.range(of: "Lorem ipsum dolor sit amet, consectetuer adipiscing elit."), text)
        let rightColumn = try XCTUnwrap(text.range(of: "pellentesque ante. Phasellus adipiscing semper elit."), text)
        XCTAssertLessThan(abstract.lowerBound, leftLorem.lowerBound)
        XCTAssertLessThan(leftLorem.lowerBound, rightColumn.lowerBound, "the left column is read before the right")
        XCTAssertFalse(page.contains { if case .preformatted = $0 { return true } else { return false } }, "prose is not kept verbatim")
    }

    func testBothArabicCMapLayoutsGiveTheSameSafeText() throws {
        let one = try sample("015-arabic/habibi.pdf").pageText(1)
        let other = try sample("015-arabic/habibi-oneline-cmap.pdf").pageText(1)
        XCTAssertEqual(one, other)
        XCTAssertTrue(one.contains("habibi"), one)
        XCTAssertTrue(one.unicodeScalars.contains("\u{062D}") && one.contains("يبي"), one)
        XCTAssertFalse(one.unicodeScalars.contains { (0x202A...0x202E).contains($0.value) }, "bidi embeddings and overrides are removed")
    }

    func testEncryptedPDFGivesAClearError() throws {
        let locked = try sample("005-libreoffice-writer-password/libreoffice-writer-password.pdf")
        XCTAssertThrowsError(try locked.info()) { error in
            XCTAssertEqual((error as? PDFError)?.description, "libreoffice-writer-password.pdf is encrypted (password-protected) and cannot be read")
        }
        XCTAssertThrowsError(try locked.pageText(1))
    }

    func testRenderingAPageMakesAPNG() throws {
        let reader = try sample("001-trivial/minimal-document.pdf")
        let folder = try TestFiles.scratchFolder(for: self)
        let picture = try reader.renderPage(1, into: folder)
        let data = try Data(contentsOf: picture)
        XCTAssertEqual(Array(data.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    }

    func testMissingPopplerIsAPlainError() throws {
        let reader = PDFDocumentReader(file: URL(fileURLWithPath: "/tmp/any.pdf"), searchPath: "/nonexistent-folder")
        XCTAssertFalse(PDFDocumentReader.isAvailable(searchPath: "/nonexistent-folder"))
        XCTAssertThrowsError(try reader.info()) { error in
            XCTAssertEqual((error as? PDFError)?.description, "reading PDF issues needs poppler-utils (apt-get install poppler-utils)")
        }
    }

    func testAToolThatHangsIsKilledAfterTheTimeout() throws {
        let folder = try TestFiles.scratchFolder(for: self)
        let fake = folder.appendingPathComponent("pdfinfo")
        try Data("#!/bin/sh\nexec sleep 30\n".utf8).write(to: fake)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fake.path)
        let pdf = folder.appendingPathComponent("slow.pdf")
        try Data("%PDF-1.4".utf8).write(to: pdf)
        let started = Date()
        XCTAssertThrowsError(try PDFDocumentReader(file: pdf, timeout: 0.5, searchPath: folder.path).info()) { error in
            XCTAssertEqual((error as? PDFError)?.description, "pdfinfo took longer than 0.5 seconds on slow.pdf and was stopped")
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 5)
    }

    func testPageTextBecomesParagraphsAndVerbatimColumns() {
        let page = """
               A Title Line

            This is a long line of prose that runs right across the page and
            continues on a second line that is just as long as the first one
            ends here.
            Short last line.

            Name        Value       Unit
            Depth       120         m
            Temp        4           °C

            \u{1B}[31mHostile\u{202E} text

                                      7
            \u{0C}
            """
        XCTAssertEqual(PDFDocumentReader.blocks(fromPageText: page), [
            .paragraph("A Title Line"),
            .paragraph("This is a long line of prose that runs right across the page and continues on a second line that is just as long as the first one ends here.\nShort last line."),
            .preformatted("Name        Value       Unit\nDepth       120         m\nTemp        4           °C"),
            .paragraph("Hostile text"),
        ])
    }
}
