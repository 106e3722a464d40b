import Foundation
import XCTest
@testable import NewsstandContent
import NewsstandTestSupport

/// KOReader's XPointers written from our block-and-offset positions and read back, on real EPUBs.
final class KOReaderXPointerTests: XCTestCase {
    private func unpack(_ archive: URL) throws -> URL {
        let folder = try TestFiles.scratchFolder(for: self).appendingPathComponent(archive.deletingPathExtension().lastPathComponent)
        try ArchiveExtractor.extract(archive: archive, into: folder)
        return folder
    }

    private func sample(_ name: String = "2025-autumn") throws -> EPUBBook {
        try EPUBReader.open(folder: unpack(TestFiles.sampleLibrary.appendingPathComponent("issues/\(name).epub")))
    }

    func testParsingKOReadersForms() {
        XCTAssertEqual(KOReaderXPointer.parse("/body/DocFragment[11]/body/div/p[7]/text().123"),
                       .init(fragment: 11, steps: [.init(name: "div", index: 1), .init(name: "p", index: 7)], textNode: 1, offset: 123))
        XCTAssertEqual(KOReaderXPointer.parse("/body/DocFragment[3]/body/p[9]/text()[2].5")?.textNode, 2)
        XCTAssertEqual(KOReaderXPointer.parse("/body/DocFragment[20]/body/p[22]"),
                       .init(fragment: 20, steps: [.init(name: "p", index: 22)], textNode: nil, offset: nil))
        XCTAssertEqual(KOReaderXPointer.parse("/body/DocFragment[2]")?.fragment, 2)
        XCTAssertEqual(KOReaderXPointer.parse("/body/DocFragment[2]/body/p[3].4")?.offset, 4)
        for bad in ["56", "", "/body/p[2]", "/body/DocFragment[x]/body", "/body/DocFragment[0]", "/body/DocFragment[2]/body/text().1/p",
                    "/body/DocFragment[2]/body/p[0]", "/body/DocFragment[2]/body/<script>"] {
            XCTAssertNil(KOReaderXPointer.parse(bad), bad)
        }
    }

    /// Written by hand from the sample's second article: its fourth paragraph's second text node (after `<em>with</em>`).
    func testAPointerIntoTheSecondChapterNamesTheRightTextNode() throws {
        let book = try sample()
        let article = book.articles[1]
        XCTAssertEqual(article.spinePosition, 2)
        let data = try Data(contentsOf: article.file)
        let blocks = XHTMLDocumentParser.blocks(from: data, baseURL: article.file)
        let index = try XCTUnwrap(blocks.firstIndex { $0.plainText.hasPrefix("Repair cafés began") })
        let text = blocks[index].plainText
        // "you" right after "with": characters other than white space before it.
        let before = text[..<text.range(of: "with you")!.upperBound].dropLast(3)
        let offset = before.unicodeScalars.count { !$0.properties.isWhitespace }
        let pointer = KOReaderXPointer.write(fragment: 2, document: data, blocks: blocks, blockIndex: index, characterOffset: offset)
        XCTAssertEqual(pointer, "/body/DocFragment[2]/body/p[4]/text()[2].1")
        let back = try XCTUnwrap(KOReaderXPointer.resolve(XCTUnwrap(KOReaderXPointer.parse(pointer)), document: data, blocks: blocks))
        XCTAssertEqual(back.blockIndex, index)
        XCTAssertEqual(back.characterOffset, offset)
        // A heading among several of its name carries its index; the start of a paragraph is offset 0 of its first text.
        let heading = try XCTUnwrap(blocks.firstIndex { $0.plainText == "The tables" })
        XCTAssertEqual(KOReaderXPointer.write(fragment: 2, document: data, blocks: blocks, blockIndex: heading, characterOffset: 0),
                       "/body/DocFragment[2]/body/h2[2]/text().0")
    }

    /// KOReader's own shape for the same place, as its devices write it: resolved to the same block and offset.
    func testAPointerAsKOReaderWritesItResolves() throws {
        let book = try sample()
        let article = book.articles[1]
        let data = try Data(contentsOf: article.file)
        let blocks = XHTMLDocumentParser.blocks(from: data, baseURL: article.file)
        let pointer = try XCTUnwrap(KOReaderXPointer.parse("/body/DocFragment[2]/body/p[3]/text().11"))
        let back = try XCTUnwrap(KOReaderXPointer.resolve(pointer, document: data, blocks: blocks))
        XCTAssertTrue(blocks[back.blockIndex].plainText.hasPrefix("The queue starts"), blocks[back.blockIndex].plainText)
        XCTAssertEqual(back.characterOffset, "Thequeues".count, "11 characters in: 'The queue s' has 9 besides spaces")
        // An element path that is not in the document does not resolve (the caller falls back to chapter and percentage).
        XCTAssertNil(KOReaderXPointer.resolve(try XCTUnwrap(KOReaderXPointer.parse("/body/DocFragment[2]/body/div[4]/p[2]/text().0")),
                                              document: data, blocks: blocks))
    }

    /// Every block with text, at its start and part way in, goes to a pointer and back to itself: the sample library's
    /// six issues, and the EPUB corpora (where at least nine in ten such blocks must come back exactly).
    func testRoundTripsOnTheSampleLibraryAndTheCorpora() throws {
        var books: [(String, EPUBBook, Bool)] = []
        for name in ["2025-autumn", "2025-spring", "2025-summer", "2025-winter", "2026-autumn", "2026-spring"] {
            books.append((name, try sample(name), true))
        }
        let corpus = try TestFiles.corpus("epub/idpf-epub3-samples/epub")
        for name in ["moby-dick.epub", "childrens-literature.epub", "wasteland.epub", "trees.epub", "internallinks.epub"] {
            books.append((name, try EPUBReader.open(folder: unpack(corpus.appendingPathComponent(name))), false))
        }
        for (name, book, mustBeExact) in books {
            var tried = 0, exact = 0
            for (articleIndex, article) in book.articles.enumerated().prefix(40) {
                guard let data = FileManager.default.contents(atPath: article.file.path) else { continue }
                let blocks = XHTMLDocumentParser.blocks(from: data, baseURL: article.file)
                let chapter = ChapterDocument(data: data, blocks: blocks)
                for (index, block) in blocks.enumerated() {
                    let characters = block.plainText.unicodeScalars.count { !$0.properties.isWhitespace }
                    guard characters > 0 else { continue }
                    if case .footnote = block { continue }
                    if case .table = block { continue }
                    if case .image = block { continue }  // a picture's alt text is no text of the document
                    for offset in Set([0, characters / 2]) {
                        tried += 1
                        let pointer = chapter.pointer(fragment: article.spinePosition, blockIndex: index, characterOffset: offset)
                        XCTAssertTrue(pointer.hasPrefix("/body/DocFragment[\(article.spinePosition)]/body"), pointer)
                        let parsed = try XCTUnwrap(KOReaderXPointer.parse(pointer), "\(name) \(pointer)")
                        let back = chapter.resolve(parsed)
                        if back?.blockIndex == index && back?.characterOffset == offset {
                            exact += 1
                        } else if mustBeExact || ProcessInfo.processInfo.environment["XPOINTER_DEBUG"] != nil {
                            XCTFail("\(name) article \(articleIndex) block \(index) offset \(offset): \(pointer) came back as \(String(describing: back))")
                        }
                    }
                }
            }
            XCTAssertGreaterThan(tried, 4, name)
            XCTAssertGreaterThanOrEqual(Double(exact), 0.9 * Double(tried), "\(name): \(exact) of \(tried) came back exactly")
        }
    }
}
