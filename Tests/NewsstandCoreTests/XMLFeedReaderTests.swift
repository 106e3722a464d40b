import Foundation
import XCTest
@testable import NewsstandCore

/// The streaming XML feed reader on libxml2: input in pieces of any size, flat memory, no external
/// entity or DTD ever loaded, entity expansion bounded, and many feeds at once on many threads.
final class XMLFeedReaderTests: XCTestCase {
    private let base = URL(string: "https://example.com/feeds/feed.xml")!

    /// A feed that uses what the reader must get right whatever the cut: namespaces with several
    /// prefixes, `xml:base`, CDATA, character and entity references (one declared in the internal
    /// DTD), attributes with `&amp;`, multi-byte UTF-8, Atom xhtml content.
    private static let richFeed = """
        <?xml version="1.0" encoding="utf-8"?>
        <!DOCTYPE feed [ <!ENTITY publisher "Kettle &amp; Compass Ltd"> ]>
        <feed xmlns="http://www.w3.org/2005/Atom" xmlns:media="http://search.yahoo.com/mrss/"
              xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:o="http://opds-spec.org/2010/catalog" xml:base="https://cdn.example.org/mag/">
          <title type="html">Caf&#xE9; &lt;b&gt;Stories&lt;/b&gt; — &publisher;</title>
          <link rel="next" href="?page=2&amp;sort=new"/>
          <entry xml:base="2025/">
            <id>tag:example.org,2025:q1</id>
            <title type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><p>Q1</p><p>issue ✓ 日本語</p></div></title>
            <updated>2025-01-15T12:00:00Z</updated>
            <summary><![CDATA[Winter <not a tag> & more]]></summary>
            <dc:creator>Ann</dc:creator>
            <link rel="enclosure" type="application/epub+zip" length="42" href="q1.epub?a=1&amp;b=2"/>
            <link rel="http://opds-spec.org/acquisition/borrow" href="/borrow/1">
              <o:indirectAcquisition type="application/vnd.adobe.adept+xml"><o:indirectAcquisition type="application/epub+zip"/></o:indirectAcquisition>
            </link>
            <media:thumbnail url="thumbs/q1.jpg"/>
          </entry>
          <entry><id>tag:example.org,2025:q2</id><title>Q2 &#128240; &amp; friends</title><updated>2025-04-01T00:00:00Z</updated>
            <content type="html">&lt;p&gt;Spring&lt;/p&gt;&lt;script&gt;x()&lt;/script&gt; read</content>
            <link rel="enclosure" href="https://other.example/q2.pdf" type="application/pdf"/></entry>
        </feed>
        """

    /// Everything the reader read, as text to compare.
    private static func dump(_ result: (FeedDocument, problem: String?)) -> String {
        "\(result.0)|\(result.problem ?? "-")"
    }

    private func dump(_ result: (FeedDocument, problem: String?)) -> String { Self.dump(result) }

    private func outcome(_ body: () throws -> String) -> String {
        do { return try body() } catch { return "error: \(error)" }
    }

    private func readInPieces(_ data: Data, size: Int, url: URL? = nil) throws -> (FeedDocument, problem: String?) {
        let reader = XMLFeedReader(feedURL: url ?? base)
        var offset = 0
        while offset < data.count {
            let end = min(offset + size, data.count)
            data[offset..<end].withUnsafeBytes { _ = reader.feed($0) }
            offset = end
        }
        return try reader.finish()
    }

    // MARK: Pieces

    func testTheSameFeedInPiecesOfOneSevenAnd4096BytesReadsTheSame() throws {
        let data = Data(Self.richFeed.utf8)
        let whole = try XMLFeedReader.read(data, feedURL: base)
        XCTAssertNil(whole.problem)
        let document = whole.0
        XCTAssertEqual(document.title, "Café Stories — Kettle & Compass Ltd", "character references, markup and an internal entity")
        XCTAssertEqual(document.nextPage?.absoluteString, "https://cdn.example.org/mag/?page=2&sort=new")
        XCTAssertEqual(document.items.count, 2)
        XCTAssertEqual(document.items[0].title, "Q1 issue ✓ 日本語")
        XCTAssertEqual(document.items[0].summary, "Winter <not a tag> & more", "CDATA is text")
        XCTAssertEqual(document.items[0].links.map(\.url.absoluteString),
                       ["https://cdn.example.org/mag/2025/q1.epub?a=1&b=2", "https://cdn.example.org/borrow/1"])
        XCTAssertEqual(document.items[0].links[1].indirectTypes, ["application/vnd.adobe.adept+xml", "application/epub+zip"])
        XCTAssertEqual(document.items[0].thumbnails.map(\.absoluteString), ["https://cdn.example.org/mag/2025/thumbs/q1.jpg"])
        XCTAssertTrue(document.sawOPDS)
        XCTAssertEqual(document.items[1].title, "Q2 📰 & friends")
        XCTAssertEqual(document.items[1].content, "Spring read")

        for size in [1, 7, 4096] {
            XCTAssertEqual(dump(try readInPieces(data, size: size)), dump(whole), "pieces of \(size) bytes")
        }
        // From a stream too, and in other encodings (libxml2 converts; a piece may end inside a character).
        XCTAssertEqual(dump(try XMLFeedReader.read(InputStream(data: data), feedURL: base)), dump(whole))
        let utf16 = Self.richFeed.replacingOccurrences(of: "encoding=\"utf-8\"", with: "encoding=\"utf-16\"")
        let utf16Data = Data([0xFF, 0xFE]) + utf16.data(using: .utf16LittleEndian)!
        for size in [1, 7, 4096] {
            XCTAssertEqual(dump(try readInPieces(utf16Data, size: size)), dump(whole), "UTF-16 in pieces of \(size) bytes")
        }
    }

    func testCorpusFeedsReadTheSameInPieces() throws {
        let root = try TestFiles.corpus("feedparser")
        let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)!.compactMap { $0 as? URL }
            .filter { $0.pathExtension == "xml" && $0.path.contains("/wellformed/") }
        XCTAssertGreaterThan(files.count, 1500)
        var compared = 0
        for file in files {
            let data = try Data(contentsOf: file)
            let url = URL(string: "http://127.0.0.1:8097/x.xml")!
            let whole = outcome { dump(try XMLFeedReader.read(data, feedURL: url)) }
            for size in [7, 4096] {
                let pieces = outcome { dump(try readInPieces(data, size: size, url: url)) }
                XCTAssertEqual(pieces, whole, "\(file.lastPathComponent) in pieces of \(size)")
            }
            compared += 1
        }
        XCTAssertEqual(compared, files.count)
    }

    /// `FeedParser.Incremental`, the entry for bytes as they arrive: every format, small and large,
    /// gives what `FeedParser.parse` gives for the whole body, and an XML feed is not held.
    func testIncrementalFeedParserGivesWhatTheWholeBodyGives() throws {
        var samples = try ["opds/readium-swift-toolkit/opds_2_0.json", "newsstand/rack-newsstand/issues.plist",
                           "newsstand/rack-newsstand/issues.atom", "opds/nypl-opds-feed-parser/acquisition.xml",
                           "opds/palace-android-opds2/groups-20250821.json"].map { try Data(contentsOf: TestFiles.corpus($0)) }
        samples.append(Data(Self.richFeed.utf8))
        var big = Data("<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>Big</title>".utf8)
        for index in 0..<2_000 {
            big.append(Data("<item><guid>i\(index)</guid><title>Item \(index)</title><enclosure url=\"/\(index).epub\"/></item>\n".utf8))
        }
        big.append(Data("</channel></rss>".utf8))
        samples.append(big)
        for (index, data) in samples.enumerated() {
            let whole = outcome { "\(try FeedParser.parse(data, url: base))" }
            for size in [7, 4096, 100_000] {
                let incremental = FeedParser.Incremental(url: base)
                var offset = 0, held = 0
                while offset < data.count {
                    let end = min(offset + size, data.count)
                    incremental.feed(data[offset..<end])
                    held = max(held, incremental.heldBytes)
                    offset = end
                }
                XCTAssertEqual(outcome { "\(try incremental.finish())" }, whole, "sample \(index) in pieces of \(size)")
                if index == samples.count - 1 {
                    XCTAssertGreaterThan(data.count, 2 * FeedParser.Incremental.headBytes)
                    XCTAssertLessThan(held, FeedParser.Incremental.headBytes + size, "an XML feed streams once its format is known")
                }
            }
        }
    }

    // MARK: Memory

    /// A 50 MB feed, made and fed piece by piece (never whole in memory): the reader's buffers stay
    /// the size of one piece plus one element's text, as for a 5 MB feed.
    func testFiftyMegabyteFeedReadsAtFlatMemory() throws {
        func streamFeed(megabytes: Int) throws -> (items: Int, highWater: Int, fed: Int) {
            let reader = XMLFeedReader(feedURL: base)
            var fed = 0
            // Handed over in pieces of 64 KB, as a network transfer would.
            var pending: [UInt8] = []
            func flush() {
                pending.withUnsafeBytes { _ = reader.feed($0) }
                fed += pending.count
                pending.removeAll(keepingCapacity: true)
            }
            func feed(_ text: String) {
                pending.append(contentsOf: text.utf8)
                if pending.count >= 64 << 10 { flush() }
            }
            feed("<?xml version=\"1.0\"?>\n<rss version=\"2.0\" xmlns:x=\"urn:x\"><channel><title>Big</title>\n")
            // 5 KB of text in an element nobody reads, and 1 KB in a summary that is read.
            let unread = String(repeating: "Lorem ipsum dolor sit amet, consectetur adipiscing elit. ", count: 90)
            let summary = String(repeating: "Tea, maps &amp; the long way round. ", count: 28)
            var count = 0
            while fed + pending.count < megabytes << 20 {
                feed("<item><guid>item-\(count)</guid><title>Item \(count)</title><pubDate>Mon, 06 Jan 2025 10:00:00 GMT</pubDate>"
                     + "<x:blob>\(unread)</x:blob><description>\(summary)</description>"
                     + "<enclosure url=\"https://example.com/\(count).epub\" type=\"application/epub+zip\"/></item>\n")
                count += 1
            }
            feed("</channel></rss>\n")
            flush()
            let (document, problem) = try reader.finish()
            XCTAssertNil(problem)
            XCTAssertEqual(document.items.count, count)
            XCTAssertEqual(document.items.last?.id, "item-\(count - 1)")
            return (count, reader.bufferedBytesHighWater, fed)
        }
        let small = try streamFeed(megabytes: 5)
        let large = try streamFeed(megabytes: 50)
        XCTAssertGreaterThanOrEqual(large.fed, 50 << 20)
        XCTAssertLessThan(large.highWater, 256 << 10, "buffers stay near one 64 KB piece")
        XCTAssertLessThanOrEqual(large.highWater, small.highWater + (16 << 10), "ten times the feed, the same buffers")
        print("5 MB: high water \(small.highWater) bytes; 50 MB (\(large.items) items): high water \(large.highWater) bytes")
    }

    func testOneHugeTextIsCutAtTheLimit() throws {
        var feed = Data("<rss><channel><title>T</title><item><guid>a</guid><description>".utf8)
        feed.append(Data(repeating: UInt8(ascii: "w"), count: XMLFeedReader.maxTextBytes + (3 << 20)))
        feed.append(Data("</description></item></channel></rss>".utf8))
        let reader = XMLFeedReader(feedURL: base)
        reader.feed(feed)
        let (document, problem) = try reader.finish()
        XCTAssertNil(problem)
        XCTAssertEqual(document.items.first?.summary?.utf8.count, XMLFeedReader.maxTextBytes)
        XCTAssertLessThan(reader.bufferedBytesHighWater, XMLFeedReader.maxTextBytes + XMLEventLog.memoryBytes + (176 << 10),
                          "the text at its limit, the event log, and about a piece of libxml2's input")
    }

    // MARK: Truncation and errors

    func testAStreamThatStopsInsideTheRootElementIsTruncated() throws {
        let full = """
            <rss version="2.0"><channel><title>T</title>
            <item><guid>1</guid><title>One</title></item>
            <item><guid>2</guid><title>Two</title></item>
            <item><guid>3</guid><title>Three</title></item>
            </channel></rss>
            """
        XCTAssertNil(try XMLFeedReader.read(Data(full.utf8), feedURL: base).problem)
        let cutInItem = String(full[..<full.range(of: "<title>Three")!.upperBound])
        let (document, problem) = try XMLFeedReader.read(Data(cutInItem.utf8), feedURL: base)
        XCTAssertEqual(document.items.map(\.id), ["1", "2"], "the unfinished item is not kept")
        XCTAssertTrue(problem?.contains("not well-formed") == true, problem ?? "")
        XCTAssertTrue(problem?.contains("2 items could be read") == true, problem ?? "")

        let cutBeforeEnd = String(full[..<full.range(of: "</channel>")!.lowerBound])
        let (all, endProblem) = try XMLFeedReader.read(Data(cutBeforeEnd.utf8), feedURL: base)
        XCTAssertEqual(all.items.count, 3)
        XCTAssertNotNil(endProblem, "every item closed but the root not: still truncated")

        XCTAssertThrowsError(try XMLFeedReader.read(Data("<rss><channel><item><title>broken".utf8), feedURL: base)) { error in
            XCTAssertTrue("\(error)".hasPrefix("the feed is not well-formed XML (line 1: "), "\(error)")
        }
        XCTAssertThrowsError(try XMLFeedReader.read(Data(), feedURL: base)) { error in
            XCTAssertEqual("\(error)", "the feed is not well-formed XML (line 1: the document is empty)")
        }
    }

    // MARK: Attributes

    func testXMLBaseWinsOverABareBaseAttribute() throws {
        let feed = Data("""
            <rss version="2.0"><channel><title>B</title>
              <item base="https://bare.example/a/" xml:base="https://xml.example/b/"><guid>1</guid><enclosure url="1.epub"/></item>
              <item xml:base="https://xml.example/c/" base="https://bare.example/d/"><guid>2</guid><enclosure url="2.epub"/></item>
              <item base="https://bare.example/e/"><guid>3</guid><enclosure url="3.epub"/></item>
              <item><guid>4</guid><enclosure url="4.epub"/></item>
            </channel></rss>
            """.utf8)
        let items = try XMLFeedReader.read(feed, feedURL: base).0.items
        XCTAssertEqual(items.map { $0.enclosures.first?.url.absoluteString }, [
            "https://xml.example/b/1.epub", "https://xml.example/c/2.epub", "https://bare.example/e/3.epub", "https://example.com/feeds/4.epub",
        ])
    }

    /// Whether a tag may have a `base` is noted as it is indexed: one after fifteen other attributes, or
    /// after others, still counts.
    func testXMLBaseIsFoundAfterOtherAttributes() throws {
        let many = (1...16).map { "a\($0)=\"\($0)\"" }.joined(separator: " ")
        let feed = Data("""
            <rss version="2.0"><channel><title>B</title>
              <item \(many) xml:base="https://late.example/a/"><guid>1</guid><enclosure url="1.epub"/></item>
              <item about="x" b="y" xml:base="https://xml.example/b/"><guid>2</guid><enclosure url="2.epub"/></item>
              <item \(many)><guid>3</guid><enclosure url="3.epub"/></item>
            </channel></rss>
            """.utf8)
        let items = try XMLFeedReader.read(feed, feedURL: base).0.items
        XCTAssertEqual(items.map { $0.enclosures.first?.url.absoluteString }, [
            "https://late.example/a/1.epub", "https://xml.example/b/2.epub", "https://example.com/feeds/3.epub",
        ])
    }

    /// An id is trimmed of white space as `FeedText.trimmed` trims it, whether its ends are ASCII or not.
    func testIDsAreTrimmed() throws {
        let feed = Data("""
            <rss version="2.0"><channel><title>T</title>
              <item><guid>plain</guid></item>
              <item><guid>
                 spaced  id\t
              </guid></item>
              <item><guid> \u{A0}nbsp\u{A0} </guid></item>
              <item><guid> \t </guid></item>
              <item><guid>é</guid></item>
            </channel></rss>
            """.utf8)
        let items = try XMLFeedReader.read(feed, feedURL: base).0.items
        XCTAssertEqual(items.map(\.id), ["plain", "spaced  id", "nbsp", nil, "é"])
    }

    func testRepeatedAttributeValuesReadTheSameAsNew() throws {
        // Values kept from earlier elements must not stand in for a value with the same bytes
        // that libxml2 escaped (an ampersand comes as &#38;).
        var feed = "<rss version=\"2.0\"><channel><title>T</title>"
        let types = ["x&amp;#38;y", "x&amp;y", "x&amp;#38;y", "application/epub+zip", "", "a", "b", "c", "d", "e", "f", "g", "h", "i",
                     "application/epub+zip", "x&amp;y"]
        for (index, type) in types.enumerated() {
            feed += "<item><guid>\(index)</guid><enclosure url=\"https://e.com/\(index)\" type=\"\(type)\"/></item>"
        }
        feed += "</channel></rss>"
        let items = try XMLFeedReader.read(Data(feed.utf8), feedURL: base).0.items
        XCTAssertEqual(items.map { $0.enclosures.first?.type }, types.map { $0.replacingOccurrences(of: "&amp;", with: "&") })
    }

    /// The attributes read on nearly every element are indexed as the tag is made: a prefixed one
    /// with the same local name is not them, the last of two alike wins, and one past the first
    /// fifteen attributes is still found.
    func testCommonAttributesAreFoundWhereverTheyAre() throws {
        let many = (1...16).map { "a\($0)=\"\($0)\"" }.joined(separator: " ")
        let feed = """
            <rss version="2.0" xmlns:x="urn:x"><channel><title>T</title>
            <item><guid>1</guid><enclosure x:url="https://e.com/prefixed" url="https://e.com/bare" x:type="image/png" type="application/pdf" length="7"/></item>
            <item><guid>2</guid><enclosure \(many) url="https://e.com/late" type="application/epub+zip" length="12"/></item>
            <item><guid>3</guid><enclosure x:url="https://e.com/only-prefixed"/></item>
            </channel></rss>
            """
        let items = try XMLFeedReader.read(Data(feed.utf8), feedURL: base).0.items
        XCTAssertEqual(items.map { $0.enclosures.first?.url.absoluteString }, ["https://e.com/bare", "https://e.com/late", nil])
        XCTAssertEqual(items.map { $0.enclosures.first?.type }, ["application/pdf", "application/epub+zip", nil])
        XCTAssertEqual(items.map { $0.enclosures.first?.length }, ["7", "12", nil])
    }

    /// Kept attribute values are handed out again only for the same bytes; a long one is decoded
    /// each time and never kept; more distinct values than slots replace the oldest.
    func testRecentValuesGiveTheValueOfTheseBytes() {
        let values = RecentValues()
        var decoded = 0
        func value(_ text: String) -> String {
            Array(text.utf8).withUnsafeBufferPointer { bytes in
                values.value(bytes) { decoded += 1; return String(decoding: $0, as: UTF8.self) }
            }
        }
        XCTAssertEqual(value("alternate"), "alternate")
        XCTAssertEqual(value("alternate"), "alternate")
        XCTAssertEqual(decoded, 1)
        XCTAssertEqual(value("alternatf"), "alternatf")
        XCTAssertEqual(value(""), "")
        XCTAssertEqual(decoded, 3)
        let long = String(repeating: "x", count: RecentValues.maxBytes + 1)
        XCTAssertEqual(value(long), long)
        XCTAssertEqual(value(long), long)
        XCTAssertEqual(decoded, 5)
        for index in 0..<(RecentValues.slots * 2) { XCTAssertEqual(value("type-\(index)"), "type-\(index)") }
        XCTAssertEqual(value("alternate"), "alternate")
        XCTAssertEqual(decoded, 5 + RecentValues.slots * 2 + 1, "the oldest values were replaced")
    }

    /// Items wait in a pool until the events of a piece are read, their page links unresolved, and an `xml:base` that
    /// closed stays until then: each headline's link still resolves against its own item's base, when the pool fills
    /// (64 items), when the parser's log fills, and at the end; its HTML is its own. Atom's alternate links too, with a
    /// base on the link itself, and an issue's kind still follows a `news:` element that comes after its entry.
    func testPooledItemsKeepTheirOwnBasesMarkupAndLinks() throws {
        let rss = "<rss version=\"2.0\"><channel><title>T</title>" + (0..<300).map { index in
            "<item xml:base=\"https://example.com/items/\(index)/\"><title>Item \(index)</title>"
                + "<link>page.html?n=\(index)</link><description>&lt;p&gt;Body \(index)&lt;/p&gt;</description></item>"
        }.joined() + "</channel></rss>"
        let feed = try FeedParser.parse(Data(rss.utf8), url: base)
        XCTAssertEqual(feed.headlines.count, 300)
        for (index, headline) in feed.headlines.enumerated() {
            XCTAssertEqual(headline.title, "Item \(index)")
            XCTAssertEqual(headline.link?.absoluteString, "https://example.com/items/\(index)/page.html?n=\(index)")
            XCTAssertEqual(headline.body, "<p>Body \(index)</p>")
            if headline.title != "Item \(index)" { break }
        }

        let atom = "<feed xmlns=\"http://www.w3.org/2005/Atom\" xmlns:news=\"http://itunes.apple.com/2011/Newsstand\"><title>A</title>"
            + (0..<150).map { index in
                "<entry><id>urn:a:\(index)</id><title>Entry \(index)</title>"
                    + "<link rel=\"alternate\" xml:base=\"https://example.org/\(index)/\" href=\"read\"/></entry>"
            }.joined() + "<news:end_date>2026-01-01T00:00:00Z</news:end_date></feed>"
        let newsstand = try FeedParser.parse(Data(atom.utf8), url: base)
        XCTAssertEqual(newsstand.format, .newsstandAtom)
        XCTAssertEqual(newsstand.entries.map(\.name), (0..<150).map { "urn:a:\($0)" }, "a Newsstand feed's items are issues, known only at its end")

        let plainAtom = atom.replacingOccurrences(of: "<news:end_date>2026-01-01T00:00:00Z</news:end_date>", with: "")
            .replacingOccurrences(of: " xmlns:news=\"http://itunes.apple.com/2011/Newsstand\"", with: "")
        let plain = try FeedParser.parse(Data(plainAtom.utf8), url: base)
        XCTAssertEqual(plain.format, .atom)
        XCTAssertEqual(plain.headlines.map { $0.link?.absoluteString }, (0..<150).map { "https://example.org/\($0)/read" })
    }

    /// Items with long articles do not pile up in the pool (it goes to the assembler whenever the parser's log has
    /// been read): 200 items of 75 KB of HTML each are all read, each with its own, and the reader never holds more
    /// than a few of them at once.
    func testPooledMarkupStaysSmall() throws {
        let paragraph = String(repeating: "&lt;p&gt;Tea, maps &amp;amp; the long way round.&lt;/p&gt;", count: 1_700)
        let rss = "<rss version=\"2.0\"><channel><title>T</title>" + (0..<200).map { index in
            "<item><title>Item \(index)</title><link>https://example.com/\(index)</link>"
                + "<description>&lt;h1&gt;\(index)&lt;/h1&gt;\(paragraph)</description></item>"
        }.joined() + "</channel></rss>"
        let assembler = FeedAssembler(detected: .rss)
        let reader = XMLFeedReader(feedURL: base, assembler: assembler)
        reader.feed(Data(rss.utf8))
        let feed = try assembler.finish(reader.finish())
        XCTAssertEqual(feed.headlines.count, 200)
        for (index, headline) in feed.headlines.enumerated() {
            XCTAssertTrue(headline.body.hasPrefix("<h1>\(index)</h1><p>Tea"), "item \(index)")
            XCTAssertEqual(headline.body.utf8.count, "<h1>\(index)</h1>".utf8.count + 1_700 * "<p>Tea, maps &amp; the long way round.</p>".utf8.count)
        }
        XCTAssertLessThan(reader.bufferedBytesHighWater, 1 << 20, "a few items' markup at most, not 64 of them (5 MB)")
    }

    func testTextBytesGrowAndEmpty() {
        let text = TextBytes(capacity: 16)
        let piece = Array("0123456789".utf8)
        for _ in 0..<100 { piece.withUnsafeBufferPointer { text.append($0) } }
        text.append(UInt8(ascii: "!"))
        XCTAssertEqual(text.count, 1_001)
        XCTAssertEqual(String(decoding: text.bytes, as: UTF8.self), String(repeating: "0123456789", count: 100) + "!")
        text.removeAll(keepingCapacityUpTo: 64 << 10)
        XCTAssertTrue(text.isEmpty)
        XCTAssertGreaterThanOrEqual(text.capacity, 1_001, "a small text keeps its storage")
        text.removeAll(keepingCapacityUpTo: 16)
        XCTAssertLessThan(text.capacity, 1_001, "a large one gives it back")
        piece.withUnsafeBufferPointer { text.append($0) }
        XCTAssertEqual(String(decoding: text.bytes, as: UTF8.self), "0123456789")
    }

    func testAtomTextTypes() throws {
        var feed = "<feed xmlns=\"http://www.w3.org/2005/Atom\"><title>T</title>"
        let types = ["type=\"text\"", "type=\"html\"", "type=\"xhtml\"", "type=\"HTML\"", "type=\"\"", "", "mode=\"escaped\"",
                     "type=\"text/html\"", "type=\"text/plain\""]
        for (index, type) in types.enumerated() {
            feed += "<entry><id>\(index)</id><title \(type)>a &lt;b&gt;B&lt;/b&gt; &amp;amp;</title></entry>"
        }
        feed += "</feed>"
        let titles = try XMLFeedReader.read(Data(feed.utf8), feedURL: base).0.items.map(\.title)
        XCTAssertEqual(titles, ["a <b>B</b> &amp;", "a B &", "a <b>B</b> &amp;", "a B &", "a <b>B</b> &amp;", "a <b>B</b> &amp;",
                                "a B &", "a B &", "a <b>B</b> &amp;"])
    }

    func testProblemsAreInPlainWords() throws {
        let latin1 = Data("<rss><channel><title>Caf".utf8) + Data([0xE9]) + Data("</title><item><title>x</title></item></channel></rss>".utf8)
        let (document, problem) = try XMLFeedReader.read(latin1, feedURL: base)
        XCTAssertEqual(document.items.count, 1, "a byte that is not UTF-8 does not lose the feed")
        XCTAssertEqual(problem, "the feed is not well-formed XML (line 1: its bytes are not UTF-8 and it declares no other encoding (Bytes: 0xE9 0x3C 0x2F 0x74)); 1 items could be read")
        let (mismatched, mismatchProblem) = try XMLFeedReader.read(Data("<rss><channel><title>T</title><item><title>x</item></channel></rss>".utf8), feedURL: base)
        XCTAssertEqual(mismatched.title, "T")
        XCTAssertTrue(mismatchProblem?.contains("Opening and ending tag mismatch") == true, mismatchProblem ?? "")
    }

    // MARK: Security

    func testExternalEntitiesAndDTDsAreNeverLoaded() throws {
        let folder = try TestFiles.scratchFolder(for: self)
        let marker = "MARKER-\(UUID().uuidString)"
        let secret = folder.appendingPathComponent("secret.txt")
        try Data(marker.utf8).write(to: secret)
        let dtd = folder.appendingPathComponent("evil.dtd")
        try Data("<!ENTITY leak \"\(marker)\"><!ENTITY % inner \"<!ENTITY leak2 '\(marker)'>\"> %inner;".utf8).write(to: dtd)
        let documents = [
            // An external general entity used in text and in an attribute.
            """
            <!DOCTYPE rss [ <!ENTITY secret SYSTEM "\(secret.absoluteString)"> ]>
            <rss><channel><title>T &secret; end</title><item><title>I &secret;</title><guid>g&secret;</guid></item></channel></rss>
            """,
            // An external parameter entity that would declare the entity used.
            """
            <!DOCTYPE rss [ <!ENTITY % ext SYSTEM "\(dtd.absoluteString)"> %ext; ]>
            <rss><channel><title>T &leak; &leak2;</title><item><title>I</title></item></channel></rss>
            """,
            // An external DTD subset.
            """
            <!DOCTYPE rss SYSTEM "\(dtd.absoluteString)">
            <rss><channel><title>T &leak;</title><item><title>I</title></item></channel></rss>
            """,
            // A relative system identifier, resolved against the file's own folder.
            """
            <!DOCTYPE rss [ <!ENTITY secret SYSTEM "secret.txt"> ]>
            <rss><channel><title>T &secret;</title><item><title>I</title></item></channel></rss>
            """,
        ]
        for (index, text) in documents.enumerated() {
            let file = folder.appendingPathComponent("feed\(index).xml")
            try Data(text.utf8).write(to: file)
            let result = try XMLFeedReader.read(InputStream(url: file)!, feedURL: file)
            XCTAssertFalse(dump(result).contains(marker), "document \(index) loaded an external file: \(dump(result))")
            XCTAssertEqual(result.0.items.count, 1, "document \(index) still reads: \(dump(result))")
            let feed = try FeedParser.parse(contentsOf: file, url: file)
            XCTAssertFalse("\(feed)".contains(marker))
        }
    }

    /// The reader empties one item for the next (`Item.clear`): every field of a full item is empty again, so
    /// nothing of one item leaks into the next, whatever fields the item gains.
    func testAClearedItemHasNothingLeft() throws {
        let link = try XCTUnwrap(LazyURL("https://example.com/a", base: base))
        var item = FeedDocument.Item()
        item.id = "i"; item.about = "a"; item.title = "t"; item.alternateTitle = "t2"; item.link = link; item.guidLink = link
        item.published = Date(); item.updated = Date(); item.created = Date(); item.issued = Date(); item.expired = Date(); item.endDate = Date()
        item.summary = "s"; item.alternateSummary = "s2"; item.content = "c"; item.markup = "<p>m</p>"
        item.links = [FeedDocument.Link(url: link, rel: "alternate")]
        item.enclosures = [FeedDocument.MediaContent(url: link)]
        item.mediaContents = [FeedDocument.MediaContent(url: link)]
        item.thumbnails = [link]; item.itunesImage = link
        item.pageStream = CatalogPageStream(template: "https://example.com/p/{pageNumber}", pageCount: 3)
        item.coverIcons = [(size: "SOURCE", url: link)]
        let filled = Mirror(reflecting: item).children.filter { !Self.isEmpty($0.value) }.compactMap(\.label)
        XCTAssertEqual(filled.count, Mirror(reflecting: item).children.count, "the test fills every field")
        item.clear()
        XCTAssertEqual(Mirror(reflecting: item).children.filter { !Self.isEmpty($0.value) }.compactMap(\.label), [])
        XCTAssertEqual("\(item)", "\(FeedDocument.Item())")
    }

    private static func isEmpty(_ value: Any) -> Bool {
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .optional { return mirror.children.isEmpty }
        if mirror.displayStyle == .collection { return mirror.children.isEmpty }
        return false
    }

    func testBillionLaughsIsRefusedInPlainWords() throws {
        var declarations = "<!ENTITY lol0 \"lol\">"
        for level in 1...10 {
            declarations += "<!ENTITY lol\(level) \"" + String(repeating: "&lol\(level - 1);", count: 10) + "\">"
        }
        let laughs = "<!DOCTYPE rss [\(declarations)]><rss><channel><title>&lol10;</title><item><title>x</title></item></channel></rss>"
        XCTAssertThrowsError(try XMLFeedReader.read(Data(laughs.utf8), feedURL: base)) { error in
            let words = "\(error)"
            print("billion laughs: \(words)")
            XCTAssertTrue(words.hasPrefix("the feed is not well-formed XML (line 1: its entities"), words)
            XCTAssertFalse(words.contains("lol"), words)
        }
        XCTAssertThrowsError(try FeedParser.parse(Data(laughs.utf8), url: base))

        // The same with empty leaves (no text to count, only references) and one large entity used
        // many times (quadratic growth): each is stopped, and nothing grows past the limits.
        let empty = laughs.replacingOccurrences(of: "<!ENTITY lol0 \"lol\">", with: "<!ENTITY lol0 \"\">")
        XCTAssertThrowsError(try XMLFeedReader.read(Data(empty.utf8), feedURL: base)) { error in
            print("empty laughs: \(error)")
            XCTAssertTrue("\(error)".contains("its entities"), "\(error)")
        }
        let big = String(repeating: "x", count: 50_000)
        let quadratic = "<!DOCTYPE rss [<!ENTITY big \"\(big)\">]><rss><channel><title>t</title><item><title>"
            + String(repeating: "&big;", count: 20_000) + "</title></item></channel></rss>"
        let reader = XMLFeedReader(feedURL: base)
        reader.feed(Data(quadratic.utf8))
        let (document, problem) = try reader.finish()
        print("quadratic: \(problem ?? "-")")
        XCTAssertEqual(document.title, "t")
        XCTAssertTrue(problem?.contains("its entities expand to more than") == true, problem ?? "")
        XCTAssertLessThan(reader.bufferedBytesHighWater, XMLFeedReader.maxTextBytes + XMLEventLog.memoryBytes + (176 << 10),
                          "the text at its limit, the event log, and about a piece of libxml2's input")
    }

    // MARK: Threads

    func testFeedsParseConcurrentlyOnManyThreads() throws {
        let feeds = try [Data(Self.richFeed.utf8)] + ["opds/readium-swift-toolkit/wiki_1_1.opds", "opds/nypl-opds-feed-parser/acquisition.xml",
                                                      "newsstand/atomgen/simple.atom", "feedparser/wellformed/rss/entity_in_doctype.xml",
                                                      "feedparser/illformed/chardet/big5.xml"].map { try Data(contentsOf: TestFiles.corpus($0)) }
        let base = self.base
        let expected = try feeds.map { Self.dump(try XMLFeedReader.read($0, feedURL: base)) }
        let mismatches = Mismatches()
        // Eight threads at once, each reading in pieces (so parses interleave), each feed many times.
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for round in 0..<20 {
                let which = (thread + round) % feeds.count
                let reader = XMLFeedReader(feedURL: base)
                var offset = 0
                while offset < feeds[which].count {
                    let end = min(offset + 512, feeds[which].count)
                    feeds[which][offset..<end].withUnsafeBytes { _ = reader.feed($0) }
                    offset = end
                }
                let got = (try? reader.finish()).map(Self.dump) ?? "failed"
                if got != expected[which] { mismatches.add("feed \(which) on thread \(thread), round \(round)") }
            }
        }
        XCTAssertEqual(mismatches.all, [])
    }
}

private final class Mismatches: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [String] = []
    func add(_ text: String) { lock.withLock { list.append(text) } }
    var all: [String] { lock.withLock { list } }
}
