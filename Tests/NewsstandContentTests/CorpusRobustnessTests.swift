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
                FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory)
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

    func testEveryXHTMLDocumentInTheEPUBCorporaYieldsBlocks() throws {
        let root = try TestFiles.corpus("epub")
        var documents = 0
        for url in files(under: root) where ["xhtml", "html", "htm"].contains(url.pathExtension.lowercased()) {
            guard let data = try? Data(contentsOf: url) else { continue }
            _ = XHTMLDocumentParser.blocks(from: data, baseURL: url)
            documents += 1
        }
        XCTAssertGreaterThan(documents, 300)
    }
}
