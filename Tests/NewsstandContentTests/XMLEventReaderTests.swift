import CLibXML2
import Foundation
import NewsstandTestSupport
import XCTest
@testable import NewsstandContent

/// `XMLEventReader`, the strict SAX reader under EPUB's XML, OPML and OpenSearch: its events, its strictness, its
/// safety against entities, and libxml2 opened at run time rather than linked.
final class XMLEventReaderTests: XCTestCase {
    /// Records events as lines of text.
    private final class Recorder: XMLEventHandler {
        var events: [String] = []
        func startElement(localName: String, prefix: String?, attributes: [String: String]) {
            let pairs = attributes.keys.sorted().map { "\($0)=\(attributes[$0]!)" }.joined(separator: " ")
            events.append("<\(prefix.map { $0 + ":" } ?? "")\(localName)\(pairs.isEmpty ? "" : " " + pairs)>")
        }
        func endElement(localName: String, prefix: String?) { events.append("</\(localName)>") }
        func characters(_ text: String) {
            if let last = events.last, last.hasPrefix("\"") { events[events.count - 1] = String(last.dropLast()) + text + "\"" } else { events.append("\"\(text)\"") }
        }
    }

    private func read(_ text: String) -> (events: [String], failure: XMLEventReader.Failure?) {
        let recorder = Recorder()
        let failure = XMLEventReader.read(Data(text.utf8), to: recorder)
        return (recorder.events, failure)
    }

    func testElementsAttributesTextAndCDATAInOrder() {
        let (events, failure) = read("""
            <?xml version="1.0"?>
            <o:package xmlns:o="http://www.idpf.org/2007/opf" xmlns:epub="http://www.idpf.org/2007/ops" version="3.0">\
            <item href="a.xhtml?x=1&amp;y=&lt;2&gt;" epub:type="toc">Fish &amp; chips<![CDATA[ <raw> ]]>&#8212;</item></o:package>
            """)
        XCTAssertNil(failure)
        XCTAssertEqual(events, ["<o:package version=3.0>", "<item epub:type=toc href=a.xhtml?x=1&y=<2>>", "\"Fish & chips <raw> —\"", "</item>", "</package>"])
    }

    func testAnyFlawFailsWithItsLineAndTheEventsBeforeItStand() {
        let (events, failure) = read("<a>\n<b>one</b>\n<c>two</d>\n</a>")
        XCTAssertEqual(failure?.line, 3)
        XCTAssertTrue(failure?.reason.contains("mismatch") ?? false, "\(String(describing: failure))")
        XCTAssertEqual(Array(events.prefix(4)), ["<a>", "\"\n\"", "<b>", "\"one\""])
        XCTAssertNotNil(read("").failure, "an empty document is an error")
        XCTAssertNotNil(read("<a>&nbsp;</a>").failure, "an undeclared entity is an error")
        XCTAssertNotNil(read("<a><b></a>").failure)
    }

    func testLargeDocumentsAndFilesAreReadInPieces() throws {
        let body = String(repeating: "<p>Tea &amp; the long way round.</p>\n", count: 400_000)  // about 15 MB
        let text = "<doc>\(body)</doc>"
        final class Counter: XMLEventHandler {
            var paragraphs = 0, ampersands = 0
            func startElement(localName: String, prefix: String?, attributes: [String: String]) { if localName == "p" { paragraphs += 1 } }
            func characters(_ text: String) { ampersands += text.filter { $0 == "&" }.count }
        }
        let fromData = Counter()
        XCTAssertNil(XMLEventReader.read(Data(text.utf8), to: fromData))
        XCTAssertEqual(fromData.paragraphs, 400_000)
        XCTAssertEqual(fromData.ampersands, 400_000)
        let file = try TestFiles.scratchFolder(for: self).appendingPathComponent("big.xml")
        try Data(text.utf8).write(to: file)
        let fromFile = Counter()
        XCTAssertNil(XMLEventReader.read(contentsOf: file, to: fromFile))
        XCTAssertEqual(fromFile.paragraphs, 400_000)
        let missing = XMLEventReader.read(contentsOf: file.appendingPathExtension("gone"), to: Counter())
        XCTAssertEqual(missing?.line, 0)
        XCTAssertTrue(missing?.reason.hasPrefix("it could not be read") ?? false, "\(String(describing: missing))")
    }

    func testExternalEntitiesAreNeverLoaded() throws {
        let secret = try TestFiles.scratchFolder(for: self).appendingPathComponent("secret.txt")
        try Data("SECRET-do-not-show".utf8).write(to: secret)
        for doctype in ["<!DOCTYPE a [ <!ENTITY s SYSTEM \"\(secret.absoluteString)\"> ]>",
                        "<!DOCTYPE a [ <!ENTITY % p SYSTEM \"\(secret.absoluteString)\"> %p; ]>"] {
            let (events, _) = read("\(doctype)<a>before &s; after</a>")
            XCTAssertFalse(events.joined().contains("SECRET"), "\(doctype): \(events)")
        }
    }

    func testInternalEntitiesExpandButABillionLaughsStopsInPlainWords() {
        XCTAssertEqual(read("<!DOCTYPE a [ <!ENTITY t \"tea\"> ]><a>&t; &amp; &t;</a>").events, ["<a>", "\"tea & tea\"", "</a>"])
        var declarations = "<!ENTITY lol0 \"lol\">"
        for level in 1...9 {
            declarations += "<!ENTITY lol\(level) \"" + String(repeating: "&lol\(level - 1);", count: 10) + "\">"
        }
        let start = Date()
        let (events, failure) = read("<!DOCTYPE a [\(declarations)]><a>&lol9;</a>")
        XCTAssertLessThan(events.joined().utf8.count, 2 << 20, "a billion laughs are not expanded")
        XCTAssertLessThan(Date().timeIntervalSince(start), 5)
        let reason = try? XCTUnwrap(failure).reason
        XCTAssertTrue(reason?.contains("entit") ?? false, "\(String(describing: failure))")
    }

    /// libxml2 is opened at the first document, not linked: the system's opens, and a missing one is a plain error
    /// naming it and the package, not a crash.
    func testLibxml2OpensAtRunTimeAndAMissingOneIsNamed() throws {
        XCTAssertNil(LibXML2Library.unavailable)
        var missing = newsstand_libxml2()
        let failure = String(cString: try XCTUnwrap(newsstand_libxml2_open("libnewsstand-no-such-xml2.so.2", &missing)))
        XCTAssertTrue(failure.contains("libnewsstand-no-such-xml2.so.2"), failure)
        var table = newsstand_libxml2()
        XCTAssertNil(newsstand_libxml2_open(NEWSSTAND_LIBXML2_SONAME, &table))
        XCTAssertNotNil(table.xmlParseChunk)
        XCTAssertNotNil(table.htmlReadMemory)
        XCTAssertTrue(LibXML2Library.explanation(loaderWords: failure)
            .hasPrefix("reading XML needs libxml2.so.2 (Debian's libxml2 package), which could not be loaded: "))
    }
}
