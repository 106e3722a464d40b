import Foundation
import XCTest
@testable import NewsstandContent
import NewsstandTestSupport

/// An EPUB chapter is a document from outside: its entities never read a file and never grow large.
final class ChapterEntityTests: XCTestCase {
    private let marker = "SECRET-7f3a-do-not-show"

    private func text(of blocks: [TextBlock]) -> String {
        blocks.map { "\($0)" }.joined(separator: "\n")
    }

    private func chapter(doctype: String, body: String, wellFormed: Bool = true) -> Data {
        Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            \(doctype)
            <html xmlns="http://www.w3.org/1999/xhtml"><head><title>t</title></head>
            <body><p>Before</p>\(body)<p>After</p>\(wellFormed ? "" : "<p>unclosed <b>bold")</body></html>
            """.utf8)
    }

    func testExternalEntitiesNeverReadTheFilesTheyName() throws {
        let folder = try TestFiles.scratchFolder(for: self)
        let secret = folder.appendingPathComponent("secret.txt")
        try Data(marker.utf8).write(to: secret)
        let dtd = folder.appendingPathComponent("evil.dtd")
        try Data("<!ENTITY leak \"\(marker)\">".utf8).write(to: dtd)
        let cases = [
            ("<!DOCTYPE html [ <!ENTITY secret SYSTEM \"\(secret.absoluteString)\"> ]>", "<p>&secret;</p>"),
            ("<!DOCTYPE html [ <!ENTITY secret SYSTEM \"secret.txt\"> ]>", "<p>&secret;</p>"),
            ("<!DOCTYPE html [ <!ENTITY % ext SYSTEM \"\(dtd.absoluteString)\"> %ext; ]>", "<p>&leak;</p>"),
            ("<!DOCTYPE html SYSTEM \"\(dtd.absoluteString)\">", "<p>&leak;</p>"),
        ]
        for (doctype, body) in cases {
            for wellFormed in [true, false] {
                let blocks = XHTMLDocumentParser.blocks(from: chapter(doctype: doctype, body: body, wellFormed: wellFormed),
                                                        baseURL: folder.appendingPathComponent("chapter.xhtml"))
                let shown = text(of: blocks)
                XCTAssertTrue(shown.contains("Before"), "the chapter still reads: \(shown)")
                XCTAssertFalse(shown.contains(marker), "\(doctype) (well-formed: \(wellFormed)) read the file: \(shown)")
            }
        }
    }

    func testEntityExpansionStaysSmall() {
        var declarations = "<!ENTITY lol0 \"lol\">"
        for level in 1...9 {
            declarations += "<!ENTITY lol\(level) \"" + String(repeating: "&lol\(level - 1);", count: 10) + "\">"
        }
        let start = Date()
        let blocks = XHTMLDocumentParser.blocks(from: chapter(doctype: "<!DOCTYPE html [\(declarations)]>", body: "<p>&lol9;</p>"),
                                                baseURL: nil)
        XCTAssertLessThan(text(of: blocks).utf8.count, 1 << 20, "a billion laughs are not expanded")
        XCTAssertLessThan(Date().timeIntervalSince(start), 5)
    }
}
