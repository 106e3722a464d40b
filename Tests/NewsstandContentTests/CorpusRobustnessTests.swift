import Foundation
import NewsstandTestSupport
import XCTest
@testable import NewsstandContent

/// Runs every publication and document in the epubcheck corpus through the readers: each must
/// open or fail with a plain-words error, never crash or hang.
final class CorpusRobustnessTests: XCTestCase {
    private func files(under root: URL) -> [URL] {
        guard let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return [] }
        return enumerator.compactMap { $0 as? URL }
    }

    func testEveryEPUBCheckEPUB3PublicationOpensOrGivesAPlainError() throws {
        let root = try TestFiles.corpus("epub/epubcheck/epub3")
        var opened = 0, refused = 0
        for group in try FileManager.default.contentsOfDirectory(atPath: root.path).sorted() {
            let filesFolder = root.appendingPathComponent(group).appendingPathComponent("files")
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: filesFolder.path) else { continue }
            for name in names.sorted() {
                let url = filesFolder.appendingPathComponent(name)
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else { continue }
                var folder = url
                if !isDirectory.boolValue {
                    guard name.hasSuffix(".epub") else { continue }
                    folder = try TestFiles.scratchFolder(for: self).appendingPathComponent("book")
                    do {
                        try ArchiveExtractor.extract(archive: url, into: folder)
                    } catch let error as ArchiveExtractionError {
                        XCTAssertFalse(error.description.isEmpty, name)
                        refused += 1
                        continue
                    }
                }
                do {
                    let book = try EPUBReader.open(folder: folder)
                    XCTAssertFalse(book.articles.isEmpty, "\(group)/\(name)")
                    opened += 1
                } catch let error as EPUBError {
                    XCTAssertFalse(error.description.isEmpty, name)
                    refused += 1
                }
            }
        }
        XCTAssertGreaterThan(opened, 80)
        XCTAssertGreaterThan(refused, 3)
    }

    /// Every document whose body has words gives blocks, and their text holds the body's longest word; each word
    /// is found by a crude reading of the source (tags, comments, script, style and media fallbacks cut out), independent of the parser.
    func testEveryXHTMLDocumentInTheEPUBCorporaYieldsBlocks() throws {
        let root = try TestFiles.corpus("epub")
        var documents = 0, withText = 0
        var failures: [String] = []
        for url in files(under: root) where ["xhtml", "html", "htm"].contains(url.pathExtension.lowercased()) {
            guard let data = try? Data(contentsOf: url) else { continue }
            let blocks = XHTMLDocumentParser.blocks(from: data, baseURL: url)
            documents += 1
            guard let word = Self.longestBodyWord(in: String(decoding: data, as: UTF8.self)) else { continue }
            withText += 1
            let text = blocks.map(\.plainText).joined(separator: " ")
            if blocks.isEmpty { failures.append("\(url.path): no blocks, though its body has '\(word)'") }
            else if !text.contains(word) { failures.append("\(url.path): the blocks lack '\(word)'") }
        }
        XCTAssertGreaterThan(documents, 300)
        XCTAssertGreaterThan(withText, 250, "documents whose body has words")
        XCTAssertTrue(failures.isEmpty, "\(failures.count) of \(withText):\n" + failures.prefix(30).joined(separator: "\n"))
    }

    /// The longest run of ASCII letters (at least 4) in `source`'s body outside tags, comments, script and style, and
    /// the fallback text inside media (`video`, `audio`, `object`), which readers that play them do not show.
    private static func longestBodyWord(in source: String) -> String? {
        guard let bodyStart = source.firstRange(of: /<body[\s>]/) else { return nil }
        var body = String(source[bodyStart.lowerBound...])
        body = body.replacing(/<!--.*?-->/.dotMatchesNewlines(), with: " ")
        body = body.replacing(/<(script|style|video|audio|object|noscript)[\s>].*?<\/\1>/.dotMatchesNewlines().ignoresCase(), with: " ")
        body = body.replacing(/<!\[CDATA\[.*?\]\]>/.dotMatchesNewlines(), with: " ")
        body = body.replacing(/<[^>]*>/, with: " ")
        body = body.replacing(/&[#\w]+;/, with: " ")
        return body.matches(of: /[A-Za-z]{4,}/).map { String($0.output) }.max { $0.count < $1.count }
    }
}
