import Foundation
#if canImport(Glibc)
import Glibc
#endif
import XCTest
@testable import NewsstandCore

/// Feeds in every encoding feedparser reads: UTF-32 and UTF-16 found from their first bytes (XML 1.0
/// Appendix F), whatever the declaration calls them, and code pages libxml2 does not name, read through
/// glibc's iconv under their usual aliases. Each document is made by encoding a UTF-8 feed with iconv (the
/// reverse direction of the reader's), so the expected text is the original.
final class FeedEncodingTests: XCTestCase {
    private let url = URL(string: "https://example.com/feed.xml")!

    /// `text` in `encoding`, through glibc's iconv (`//TRANSLIT` off: a character the code page lacks fails).
    private func encode(_ text: String, as encoding: String) throws -> Data {
        guard let converter = iconv_open(encoding, "UTF-8"), converter != iconv_t(bitPattern: -1) else {
            throw TestRequirement.broken("iconv cannot encode to \(encoding)")
        }
        defer { iconv_close(converter) }
        var input = Array(text.utf8).map { CChar(bitPattern: $0) }
        var output = [CChar](repeating: 0, count: input.count * 4 + 16)
        let produced: Int = input.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer in
                var inPointer: UnsafeMutablePointer<CChar>? = inBuffer.baseAddress
                var outPointer: UnsafeMutablePointer<CChar>? = outBuffer.baseAddress
                var inLeft = inBuffer.count, outLeft = outBuffer.count
                guard iconv(converter, &inPointer, &inLeft, &outPointer, &outLeft) != -1 else { return -1 }
                return outBuffer.count - outLeft
            }
        }
        guard produced >= 0 else { throw TestRequirement.broken("'\(text)' cannot be written in \(encoding)") }
        return Data(output.prefix(produced).map { UInt8(bitPattern: $0) })
    }

    private func feed(declaring name: String?, title: String) -> String {
        let declaration = name.map { "<?xml version=\"1.0\" encoding=\"\($0)\"?>\n" } ?? "<?xml version=\"1.0\"?>\n"
        return declaration + "<rss version=\"2.0\"><channel><title>\(title)</title><item><guid>one</guid><title>\(title) 1</title>"
            + "<description>\(title) - description</description></item></channel></rss>\n"
    }

    /// Parses `data` whole, and again fed a few bytes at a time (characters cut between pieces), and checks both.
    private func assertReads(_ data: Data, title: String, _ label: String, file: StaticString = #filePath, line: UInt = #line) {
        do {
            let feed = try FeedParser.parse(data, url: url)
            XCTAssertEqual(feed.title, title, label, file: file, line: line)
            XCTAssertEqual(feed.headlines.first?.title, "\(title) 1", label, file: file, line: line)
            let incremental = FeedParser.Incremental(url: url)
            var offset = 0
            while offset < data.count {
                let end = min(data.count, offset + 3)
                incremental.feed(data.subdata(in: offset..<end))
                offset = end
            }
            XCTAssertEqual(try incremental.finish().title, title, "\(label), in 3-byte pieces", file: file, line: line)
        } catch {
            XCTFail("\(label): \(error)", file: file, line: line)
        }
    }

    func testUTF32WithAndWithoutAByteOrderMark() throws {
        let title = "Ünïcode ☕ 𝄞 feed"
        for (encoding, bom) in [("UTF-32BE", [UInt8]()), ("UTF-32LE", []), ("UTF-32BE", [0x00, 0x00, 0xFE, 0xFF]), ("UTF-32LE", [0xFF, 0xFE, 0x00, 0x00])] {
            for declared in [nil, "utf-32", "UTF-32", "ucs-4"] as [String?] {
                let data = Data(bom) + (try encode(feed(declaring: declared, title: title), as: encoding))
                assertReads(data, title: title, "\(encoding), mark \(!bom.isEmpty), declared \(declared ?? "nothing")")
            }
        }
    }

    func testUTF16WithoutAMarkUnderOtherNames() throws {
        let title = "Ünïcode ☕ 𝄞 feed"
        for encoding in ["UTF-16BE", "UTF-16LE"] {
            for declared in ["u16", "csunicode", "ucs-2", "utf_16", "UTF-16", "iso-10646-ucs-2"] {
                assertReads(try encode(feed(declaring: declared, title: title), as: encoding), title: title, "\(encoding) declared \(declared)")
            }
        }
    }

    func testDOSCodePagesUnderTheirAliases() throws {
        let western = "Café über Straße"  // in 437, 850, 857, 860…865
        let cases: [(names: [String], title: String)] = [
            (["cp437", "ibm437", "437", "cspc8codepage437"], western),
            (["cp850", "ibm850", "850", "csibm850", "cspc850multilingual"], western),
            (["cp852", "ibm852", "852", "csibm852"], "Łódź Žluťoučký"),
            (["cp855", "ibm855", "855", "csibm855"], "Москва"),
            (["cp857", "ibm857", "857", "csibm857"], "İstanbul Ğüzel"),
            (["cp860", "ibm860", "860", "csibm860"], "Coração São"),
            (["cp861", "ibm861", "861", "csibm861"], "Þórður"),
            (["cp862", "ibm862", "862", "csibm862", "cspc862latinhebrew"], "שלום"),
            (["cp863", "ibm863", "863", "csibm863"], "Québec été"),
            (["cp864", "ibm864", "864", "csibm864"], "٠١٢ ﻻ"),
            (["cp865", "ibm865", "865", "csibm865"], "Søster Åse"),
            (["cp866", "ibm866", "866", "csibm866"], "Привет"),
        ]
        for (names, title) in cases {
            for name in names {
                assertReads(try encode(feed(declaring: name, title: title), as: names[1].uppercased()), title: title, name)
            }
        }
    }

    func testEBCDICCodePagesUnderTheirAliases() throws {
        let cases: [(names: [String], encoding: String, title: String)] = [
            (["cp037", "ibm037", "csibm037", "ebcdic-cp-us", "ebcdic-cp-ca", "ebcdic-cp-nl", "ebcdic-cp-wt"], "IBM037", "Café über"),
            (["cp500", "ibm500", "csibm500", "ebcdic-cp-be", "ebcdic-cp-ch"], "IBM500", "Café über"),
            (["cp875", "ibm875"], "IBM875", "Καλημέρα"),
            (["cp1140", "ibm1140"], "IBM1140", "Café 5 €"),
        ]
        for (names, encoding, title) in cases {
            for name in names {
                assertReads(try encode(feed(declaring: name, title: title), as: encoding), title: title, name)
            }
        }
    }

    func testMacCodePages() throws {
        // Mac Latin 2 through iconv (glibc's MAC-CENTRALEUROPE).
        for name in ["maclatin2", "mac-latin2", "maccentraleurope", "mac-centraleurope"] {
            assertReads(try encode(feed(declaring: name, title: "Łódź Žluťoučký"), as: "MAC-CENTRALEUROPE"), title: "Łódź Žluťoučký", name)
        }
        // Mac Greek, Turkish and Icelandic through Newsstand's tables (glibc lacks the first two and means another
        // code page by MAC-IS); the bytes are Python's encodings of the titles.
        let cases: [(names: [String], hex: String, title: String)] = [
            (["macgreek", "mac-greek", "mac_greek"], "bae1ece8eddbf2e120ebdef3ede5", "Καλημέρα κόσμε"),
            (["macturkish", "mac-turkish"], "dc7374616e62756c20dadb20dedf20dd", "İstanbul Ğğ Şş ı"),
            (["maciceland", "mac-iceland", "mac_iceland"], "de9772dd757220ae73697220dde0", "Þórður Æsir ðý"),
        ]
        for (names, hex, title) in cases {
            let titleBytes = stride(from: 0, to: hex.count, by: 2).map { offset -> UInt8 in
                let start = hex.index(hex.startIndex, offsetBy: offset)
                return UInt8(hex[start..<hex.index(start, offsetBy: 2)], radix: 16)!
            }
            for name in names {
                let parts = feed(declaring: name, title: "@@").components(separatedBy: "@@")
                var data = Data()
                for (index, part) in parts.enumerated() {
                    if index > 0 { data.append(contentsOf: titleBytes) }
                    data.append(contentsOf: part.utf8)
                }
                assertReads(data, title: title, name)
            }
        }
    }

    func testUTF8AndEncodingsLibxml2KnowsStayWithLibxml2() throws {
        XCTAssertEqual(XMLEncodingSniffer.decide(Array("<?xml version=\"1.0\" encoding=\"utf-8\"?><rss/>".utf8), complete: false), .libxml2)
        XCTAssertEqual(XMLEncodingSniffer.decide(Array("<?xml version=\"1.0\"?><rss/>".utf8), complete: false), .libxml2)
        XCTAssertEqual(XMLEncodingSniffer.decide(Array("<rss version=\"2.0\">".utf8), complete: false), .libxml2)
        XCTAssertEqual(XMLEncodingSniffer.decide(Array("<?xml version=\"1.0\" encoding=\"iso-8859-1\"?>".utf8), complete: false), .libxml2)
        XCTAssertNil(XMLEncodingSniffer.decide(Array("<?xml version=\"1.0\" encod".utf8), complete: false), "waits for the declaration's end")
        XCTAssertEqual(XMLEncodingSniffer.decide(Array("<?xml version=\"1.0\" encoding=\"csIBM850\"?>".utf8), complete: false),
                       .transcode(from: "IBM850", skipping: 0), "a name iconv knows under another, given as glibc's")
        XCTAssertEqual(XMLEncodingSniffer.decide(Array("<?xml version=\"1.0\" encoding=\"windows-1252\"?>".utf8), complete: false),
                       .transcode(from: "windows-1252", skipping: 0), "iconv before libxml2's ICU for anything but UTF-8 and Latin-1")
        let latin1 = try encode(feed(declaring: "iso-8859-1", title: "Café"), as: "ISO-8859-1")
        assertReads(latin1, title: "Café", "ISO-8859-1 through libxml2")
    }

    func testASCIIBytesDeclaringUTF16AreReadAsUTF8() {
        assertReads(Data(feed(declaring: "utf-16", title: "Café").utf8), title: "Café", "UTF-8 bytes declared utf-16")
    }

    func testAnEncodingNobodyKnowsIsAnErrorThatNamesIt() {
        let data = Data(feed(declaring: "x-no-such-encoding", title: "T").utf8)
        XCTAssertThrowsError(try FeedParser.parse(data, url: url)) { error in
            XCTAssertTrue("\(error)".contains("'x-no-such-encoding'"), "\(error)")
        }
    }

    /// A 4 MB UTF-32 feed streamed through iconv in 64 KB pieces: the buffers stay the size of a piece.
    func testTranscodedFeedsReadAtFlatMemory() throws {
        var body = feed(declaring: "utf-32", title: "Big").replacingOccurrences(of: "</channel></rss>\n", with: "")
        var count = 1
        while body.utf8.count < 1 << 20 {
            body += "<item><guid>\(count)</guid><title>Item \(count) ☕</title><description>Tea, maps &amp; the long way round.</description></item>\n"
            count += 1
        }
        body += "</channel></rss>\n"
        let data = try encode(body, as: "UTF-32LE")
        XCTAssertGreaterThan(data.count, 4_000_000)
        let reader = XMLFeedReader(feedURL: url)
        var offset = 0
        while offset < data.count {
            let end = min(data.count, offset + (64 << 10))
            reader.feed(data.subdata(in: offset..<end))
            offset = end
        }
        let (document, problem) = try reader.finish()
        XCTAssertNil(problem)
        XCTAssertEqual(document.items.count, count)
        XCTAssertEqual(document.items.last?.title, "Item \(count - 1) ☕")
        XCTAssertLessThan(reader.bufferedBytesHighWater, 256 << 10, "buffers stay near one 64 KB piece")
    }

    // MARK: Not encodings: empty RDF feeds, script in titles, dates that stand for none

    func testRSS090And10WithNothingYetAreFeeds() throws {
        let documents = [
            #"<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://my.netscape.com/rdf/simple/0.9/"></rdf:RDF>"#,
            #"<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/"></rdf:RDF>"#,
            #"<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:rss="http://purl.org/rss/1.0/"><rss:channel rdf:about="x"></rss:channel></rdf:RDF>"#,
        ]
        for document in documents {
            let feed = try FeedParser.parse(Data(document.utf8), url: url)
            XCTAssertEqual(feed.format, .rss, document)
            XCTAssertTrue(feed.entries.isEmpty && feed.headlines.isEmpty, document)
        }
        XCTAssertNil(FeedParser.detectFormat(Data(#"<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"></rdf:RDF>"#.utf8)),
                     "RDF that is not RSS is not a feed")
    }

    func testTitlesNeverCarryScriptOrStyle() throws {
        let xhtml = Data("""
            <feed version="0.3" xmlns="http://purl.org/atom/ns#"><title type="application/xhtml+xml" mode="xml"><div
            xmlns="http://www.w3.org/1999/xhtml">safe<script type="text/javascript">location.href='x';</script><style>p { color: red }</style> description</div></title></feed>
            """.utf8)
        XCTAssertEqual(try FeedParser.parse(xhtml, url: url).title, "safe description")
        let escaped = Data("""
            <feed xmlns="http://www.w3.org/2005/Atom"><title type="html">sa&lt;!-- -- nonwhitespace &gt;fe&lt;script&gt;alert(1);&lt;/script&gt;</title></feed>
            """.utf8)
        XCTAssertEqual(try FeedParser.parse(escaped, url: url).title, "safe", "an unclosed comment ends at its first '>'")
        XCTAssertEqual(FeedText.html("a<!-- closed -->b<style>x</style>c"), "abc")
    }

    func testADateThatStandsForNoneGivesWayToUpdated() throws {
        XCTAssertNil(FlexibleDateParser.parse("0101-01-01T00:00:00+00:00"))
        XCTAssertNil(FlexibleDateParser.parse("0001-01-01"))
        XCTAssertNil(FlexibleDateParser.parse("101-01-01T00:00:00+00:00"), "calibre-web's form: the year not padded")
        XCTAssertNotNil(FlexibleDateParser.parse("1001-01-01"))
        let atom = Data("""
            <feed xmlns="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/terms/"><title>calibre</title>
              <entry><id>urn:book</id><title>Undated book</title><published>0101-01-01T00:00:00+00:00</published>
                <updated>2025-03-04T05:06:07+00:00</updated><link rel="http://opds-spec.org/acquisition" type="application/epub+zip" href="/b.epub"/></entry>
            </feed>
            """.utf8)
        let feed = try FeedParser.parse(atom, url: url)
        XCTAssertEqual(feed.entries.first?.date, FlexibleDateParser.parse("2025-03-04T05:06:07Z"), "the date it was added, not the year 101")
        // calibre-web's entry (its template's order: updated before published).
        let calibreWeb = Data("""
            <feed xmlns="http://www.w3.org/2005/Atom"><title>Calibre-Web</title>
              <entry><title>Undated book</title><id>urn:uuid:1</id><updated>2025-03-04T05:06:07+00:00</updated>
                <published>101-01-01T00:00:00+00:00</published>
                <link rel="http://opds-spec.org/acquisition" href="/opds/download/1/epub/" length="10" title="EPUB" type="application/epub+zip"/></entry>
            </feed>
            """.utf8)
        XCTAssertEqual(try FeedParser.parse(calibreWeb, url: url).entries.first?.date, FlexibleDateParser.parse("2025-03-04T05:06:07Z"))
    }
}
