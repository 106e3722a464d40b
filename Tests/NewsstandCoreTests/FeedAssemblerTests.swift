import Foundation
import XCTest
@testable import NewsstandCore

/// Items mapped as the reader finishes them (`FeedAssembler`) give the feed that mapping the whole
/// document at the end gives, whatever comes late in the feed; and a long feed's items are not held.
final class FeedAssemblerTests: XCTestCase {
    private let base = URL(string: "https://example.com/feeds/feed.xml")!

    /// The feed from the whole document, every item mapped at the end with the document complete.
    private func wholeDocument(_ data: Data, url: URL) -> String {
        do {
            guard let format = FeedParser.detectFormat(data) else { return "not a feed" }
            let read = try XMLFeedReader.read(data, feedURL: url)
            var feed = FeedParser.build(read.0, detected: format)
            if let problem = read.problem { feed.problems.append(problem) }
            if feed.entries.isEmpty && feed.headlines.isEmpty && feed.navigation.isEmpty && !feed.problems.isEmpty { return "error" }
            return "\(feed)"
        } catch {
            return "error"
        }
    }

    private func streamed(_ data: Data, url: URL) -> String {
        do { return "\(try FeedParser.parse(data, url: url))" } catch { return "error" }
    }

    func testStreamedFeedsAreTheWholeDocumentsFeeds() throws {
        let root = try TestFiles.corpus("feedparser")
        var files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)!.compactMap { $0 as? URL }
            .filter { $0.pathExtension == "xml" }
        for sample in ["opds/nypl-opds-feed-parser/acquisition.xml", "newsstand/rack-newsstand/issues.atom"] {
            files.append(try TestFiles.corpus(sample))
        }
        XCTAssertGreaterThan(files.count, 2000)
        let url = URL(string: "http://127.0.0.1:8097/x.xml")!
        var compared = 0, feeds = 0
        for file in files {
            let data = try Data(contentsOf: file)
            guard let format = FeedParser.detectFormat(data), format != .propertyList, format != .opds2 else { continue }
            let streamedFeed = streamed(data, url: url)
            XCTAssertEqual(streamedFeed, wholeDocument(data, url: url), file.path)
            compared += 1
            if streamedFeed != "error" { feeds += 1 }
        }
        // Both paths say "error" for any failure, so agreeing proves little unless most documents are feeds.
        XCTAssertGreaterThan(compared, 2000, "documents compared")
        XCTAssertGreaterThan(feeds, 1800, "documents both paths read as feeds, not as the same error")
    }

    func testTheFeedsDateAndImageReachEntriesBeforeThem() throws {
        let atom = Data("""
            <feed xmlns="http://www.w3.org/2005/Atom"><title>Late</title>
              <entry><id>a</id><title>A</title><link rel="enclosure" href="https://e.com/a.epub"/></entry>
              <entry><id>b</id><title>B</title><updated>2025-02-01T00:00:00Z</updated><link rel="enclosure" href="https://e.com/b.epub"/></entry>
              <updated>2025-03-01T00:00:00Z</updated>
            </feed>
            """.utf8)
        let feed = try FeedParser.parse(atom, url: base)
        XCTAssertEqual(feed.entries.map(\.date), [Date(timeIntervalSince1970: 1_740_787_200), Date(timeIntervalSince1970: 1_738_368_000)],
                       "an undated entry takes the feed's date, though it comes after the entries")
        XCTAssertEqual("\(feed)", wholeDocument(atom, url: base))

        let rss = Data("""
            <rss version="2.0"><channel><title>T</title>
              <item><guid>a</guid><enclosure url="https://e.com/a.epub" type="application/epub+zip"/></item>
              <item><guid>b</guid><enclosure url="https://e.com/b.epub" type="application/epub+zip"/><itunes:image
                  xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" href="https://e.com/b.jpg"/></item>
              <image><url>https://e.com/feed.png</url></image>
            </channel></rss>
            """.utf8)
        let podcast = try FeedParser.parse(rss, url: base)
        XCTAssertEqual(podcast.entries.map(\.coverURL?.absoluteString), ["https://e.com/feed.png", "https://e.com/b.jpg"])
        XCTAssertEqual(podcast.entries.map(\.contentTypes), [["application/epub+zip"], ["application/epub+zip"]])
        XCTAssertEqual("\(podcast)", wholeDocument(rss, url: base))
    }

    func testAnIssueNamedTwiceIsTakenOutAtTheEndAndTheFirstKeepsTheFeedsDateAndImage() throws {
        // Names are checked once the feed is read (`RepeatedNames`): a later issue of the same name goes then, and
        // the first, undated and without a cover, still takes the feed's date and image.
        var items = ""
        for index in 0..<300 {
            let name = index % 100 == 99 ? "issue-\(index - 50)" : "issue-\(index)"
            let date = index == 0 ? "" : "<pubDate>Mon, 06 Jan 2025 10:00:00 GMT</pubDate>"
            items += "<item><guid>\(name)</guid><title>T\(index)</title>\(date)"
                + "<enclosure url=\"https://e.com/\(index).epub\" type=\"application/epub+zip\"/></item>\n"
        }
        let rss = Data("""
            <rss version="2.0"><channel><title>T</title><pubDate>Sat, 01 Mar 2025 00:00:00 GMT</pubDate>
            <item><guid>issue-0</guid><title>Again</title><enclosure url="https://e.com/again.epub" type="application/epub+zip"/></item>
            \(items)<image><url>https://e.com/feed.png</url></image></channel></rss>
            """.utf8)
        let feed = try FeedParser.parse(rss, url: base)
        XCTAssertEqual(feed.entries.count, 297, "301 issues, four of them named before")
        XCTAssertEqual(Set(feed.entries.map(\.name)).count, feed.entries.count)
        XCTAssertEqual(feed.entries[0].title, "Again", "the first of two issues with one name is kept")
        XCTAssertEqual(feed.entries[0].date, Date(timeIntervalSince1970: 1_740_787_200), "the feed's date")
        XCTAssertEqual(feed.entries[0].coverURLText, "https://e.com/feed.png", "the feed's image")
        XCTAssertEqual(feed.entries[1].name, "issue-1")
        XCTAssertEqual(feed.entries.first { $0.name == "issue-49" }?.title, "T49")
        XCTAssertEqual(feed.problems, ["issue 'issue-0' is listed twice; the first is kept", "issue 'issue-49' is listed twice; the first is kept",
                                       "issue 'issue-149' is listed twice; the first is kept", "issue 'issue-249' is listed twice; the first is kept"])
        XCTAssertEqual("\(feed)", wholeDocument(rss, url: base))
    }

    func testItemsWaitWhileTheFormatMayStillChange() throws {
        // A Newsstand element in the second entry makes the first (no content) an issue, not a headline.
        let late = Data("""
            <feed xmlns="http://www.w3.org/2005/Atom"><title>N</title>
              <entry><id>first</id><title>First</title><updated>2025-01-01T00:00:00Z</updated></entry>
              <entry><id>second</id><title>Second</title><updated>2025-01-02T00:00:00Z</updated>
                <link rel="enclosure" href="https://e.com/2.epub"/></entry>
              <entry><id>first</id><title>Again</title><updated>2025-01-03T00:00:00Z</updated>
                <n:end_date xmlns:n="http://itunes.apple.com/2011/Newsstand">2025-02-01T00:00:00Z</n:end_date></entry>
              <entry><id>fourth</id><title>Fourth</title><updated>2025-01-04T00:00:00Z</updated></entry>
            </feed>
            """.utf8)
        let feed = try FeedParser.parse(late, url: base)
        XCTAssertEqual(feed.format, .newsstandAtom)
        XCTAssertEqual(feed.entries.map(\.name), ["first", "second", "fourth"])
        XCTAssertEqual(feed.entries[0].title, "First", "the first of two issues with one name is kept")
        XCTAssertEqual(feed.problems, ["issue 'first' is listed twice; the first is kept"])
        XCTAssertTrue(feed.headlines.isEmpty)
        XCTAssertEqual("\(feed)", wholeDocument(late, url: base))

        // An OPDS link in a later entry makes the feed OPDS; the first entry stays a headline.
        let opds = Data("""
            <feed xmlns="http://www.w3.org/2005/Atom"><title>O</title>
              <entry><id>p</id><title>Post</title><link href="https://e.com/post"/></entry>
              <entry><id>b</id><title>Book</title><link rel="http://opds-spec.org/acquisition" href="/b.epub" type="application/epub+zip"/></entry>
            </feed>
            """.utf8)
        let catalog = try FeedParser.parse(opds, url: base)
        XCTAssertEqual(catalog.format, .opds1)
        XCTAssertEqual(catalog.headlines.map(\.title), ["Post"])
        XCTAssertEqual(catalog.entries.map(\.contentURLs), [[URL(string: "https://example.com/b.epub")!]])
        XCTAssertEqual("\(catalog)", wholeDocument(opds, url: base))
    }

    /// Reads `data` through a reader and an assembler as `FeedParser.parse` does, in pieces of `piece` bytes; the
    /// feed's description and how many items the fast lane read whole.
    private func streamedThroughTheLane(_ data: Data, piece: Int = 64 << 10) throws -> (feed: String, whole: Int) {
        let format = try XCTUnwrap(FeedParser.detectFormat(data))
        let assembler = FeedAssembler(detected: format)
        let reader = XMLFeedReader(feedURL: base, assembler: assembler)
        for start in stride(from: 0, to: data.count, by: piece) {
            data[start..<min(start + piece, data.count)].withUnsafeBytes { _ = reader.feed($0) }
        }
        return ("\(try assembler.finish(reader.finish()))", reader.itemsReadWhole)
    }

    /// The common issue item is read whole from the parser's log (the fast lane), anything else event by event; the
    /// feed is the same either way, whatever the mix of items and however the bytes come.
    func testCommonIssueItemsReadWholeGiveWhatReadingEventByEventGives() throws {
        let rss = Data("""
            <rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/" xmlns:dc="http://purl.org/dc/elements/1.1/">
            <channel xml:base="https://example.com/issues/"><title>Mixed</title><pubDate>Mon, 03 Feb 2025 10:00:00 GMT</pubDate>
              <item><guid isPermaLink="false">a</guid><title>A &amp; <b>bold</b></title><pubDate>Mon, 06 Jan 2025 10:00:00 GMT</pubDate>
                <description>&lt;p&gt;Tea &amp;amp; maps&lt;/p&gt;</description><link>https://example.com/a</link><category>x</category>
                <!-- a comment --><enclosure url="a.epub" length="12" type="application/epub+zip"/><media:thumbnail url="../covers/a.jpg"/></item>
              <item><guid>b</guid><title>Two files</title><enclosure url="b.epub" type="application/epub+zip"/><enclosure url="b.pdf" type="application/pdf"/></item>
              <item><guid>c</guid><title>Audio</title><description>An episode</description><enclosure url="c.mp3" type="audio/mpeg"/></item>
              <item><guid>  </guid><dc:title>Alternate title</dc:title><dc:date>2025-01-09T00:00:00Z</dc:date><enclosure url="d.cbz"/></item>
              <item><guid>a</guid><title>Again</title><enclosure url="a2.epub" type="application/epub+zip"/></item>
              <item><title>Nested</title><author><name>N</name></author><guid>e</guid><enclosure url="e.epub" type="application/epub+zip"/></item>
              <item><title>Own base</title><guid>f</guid><enclosure xml:base="https://other.org/" url="f.epub" type="application/epub+zip"/></item>
              <item><title>Picture</title><guid>g</guid><enclosure url="g.jpg" type="image/jpeg"/></item>
              <item><title>Untitled</title><description></description><description>Second</description><guid>h</guid><enclosure url="h.epub"/></item>
              <item><description>Only a summary</description></item>
            </channel></rss>
            """.utf8)
        let atom = Data("""
            <feed xmlns="http://www.w3.org/2005/Atom" xml:base="https://example.com/issues/"><title>Atom</title>
              <entry><id>urn:1</id><title type="html">One &lt;b&gt;bold&lt;/b&gt;</title><updated>2025-01-01T10:00:00Z</updated>
                <summary>Plain</summary><link rel="alternate" href="1"/><link rel="enclosure" type="application/epub+zip" length="9" href="1.epub"/></entry>
              <entry><id>urn:2</id><title>Cover link</title><link rel="http://opds-spec.org/image" href="2.jpg"/><link rel="enclosure" href="2.epub"/></entry>
              <entry><id>urn:3</id><title>Markup</title><content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml">x</div></content><link rel="enclosure" href="3.epub"/></entry>
              <entry><id>urn:4</id><published>2025-01-04T00:00:00Z</published><updated>2025-01-05T00:00:00Z</updated><content>Body</content><link rel="enclosure" href="4.epub"/></entry>
              <entry><id>urn:5</id><title>Catalog</title><link rel="alternate" type="application/atom+xml;profile=opds-catalog" href="5.xml"/><link rel="enclosure" href="5.epub"/></entry>
              <entry><id>urn:6</id><title>Post</title><link href="https://example.com/post"/></entry>
            </feed>
            """.utf8)
        let rdf = Data("""
            <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/"
                xmlns:enc="http://purl.oclc.org/net/rss_2.0/enc#"><channel rdf:about="https://example.com/"><title>RDF</title></channel>
              <item rdf:about="https://example.com/one"><title>One</title><enclosure url="https://example.com/one.epub" type="application/epub+zip"/></item>
              <item xml:base="https://other.org/" rdf:about="https://example.com/two"><title>Two</title><enclosure url="two.epub" type="application/epub+zip"/></item>
            </rdf:RDF>
            """.utf8)
        let podcast = Data("""
            <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel><title>Cast</title>
              <item><title>Episode</title><itunes:summary>Said</itunes:summary><itunes:duration>10:00</itunes:duration>
                <enclosure url="https://e.com/1.epub" type="application/epub+zip"/></item>
              <item><title>Art</title><itunes:image href="https://e.com/2.jpg"/><enclosure url="https://e.com/2.epub" type="application/epub+zip"/></item>
              <item><title>Newsstand</title><news:end_date xmlns:news="http://itunes.apple.com/2011/newsstand">2025-02-01</news:end_date>
                <enclosure url="https://e.com/3.epub" type="application/epub+zip"/></item>
            </channel></rss>
            """.utf8)
        for (name, data, lane) in [("RSS", rss, 3), ("Atom", atom, 2), ("RDF", rdf, 1), ("podcast", podcast, 1)] {
            let expected = wholeDocument(data, url: base)
            XCTAssertNotEqual(expected, "error", name)
            for piece in [7, 100, 64 << 10] {
                let (feed, whole) = try streamedThroughTheLane(data, piece: piece)
                XCTAssertEqual(feed, expected, "\(name) in pieces of \(piece)")
                if piece == 64 << 10 { XCTAssertEqual(whole, lane, "\(name): items the lane read whole") }
            }
        }
        let feed = try FeedParser.parse(rss, url: base)
        XCTAssertEqual(feed.entries.first?.title, "A & bold")
        XCTAssertEqual(feed.entries.first?.summary, "Tea & maps")
        XCTAssertEqual(feed.entries.first?.coverURLText, "https://example.com/covers/a.jpg")
        XCTAssertEqual(feed.entries.first?.contentLengths, [12])
        XCTAssertTrue(feed.problems.contains("issue 'a' is listed twice; the first is kept"), "\(feed.problems)")
    }

    /// The lane's issues wait, their texts as bytes, until the log is read or `laneIssueLimit` wait (short items: a
    /// log holds hundreds); items read event by event among them still come in document order.
    func testIssuesTheLaneReadWaitAndKeepTheirPlaceAmongTheOthers() throws {
        var rss = "<rss version=\"2.0\"><channel><title>Short</title>"
        var laneShaped = 0
        for index in 0..<1_000 {
            switch index % 9 {
            case 4:
                // Two files: read event by event.
                rss += "<item><guid>i\(index)</guid><enclosure url=\"https://e.com/\(index).epub\"/><enclosure url=\"https://e.com/\(index).pdf\"/></item>"
            case 7:
                rss += "<item xml:base=\"https://other.example/\"><title>B &amp; \(index)</title><enclosure url=\"\(index).epub\"/></item>"
            default:
                laneShaped += 1
                rss += "<item><title>T&lt;b&gt;\(index)</title><enclosure url=\"https://e.com/\(index).epub\"/></item>"
            }
        }
        let data = Data((rss + "</channel></rss>").utf8)
        let expected = wholeDocument(data, url: base)
        XCTAssertTrue(expected.contains("https://other.example/7.epub"), expected)
        for piece in [1_000, 64 << 10] {
            let (feed, whole) = try streamedThroughTheLane(data, piece: piece)
            XCTAssertEqual(feed, expected, "in pieces of \(piece)")
            XCTAssertGreaterThan(whole, laneShaped * 3 / 4, "in pieces of \(piece)")
            XCTAssertLessThanOrEqual(whole, laneShaped)
        }
    }

    func testALongFeedsItemsAreNotHeld() throws {
        for atom in [false, true] {
            var data = Data((atom ? "<feed xmlns=\"http://www.w3.org/2005/Atom\"><title>Long</title>"
                                  : "<rss version=\"2.0\"><channel><title>Long</title>").utf8)
            for index in 0..<3_000 {
                data.append(Data((atom
                    ? "<entry><id>i\(index)</id><title>I \(index)</title><link rel=\"enclosure\" href=\"https://e.com/\(index).epub\"/></entry>"
                    : "<item><guid>i\(index)</guid><title>I \(index)</title><enclosure url=\"https://e.com/\(index).epub\"/></item>").utf8))
            }
            data.append(Data((atom ? "</feed>" : "</channel></rss>").utf8))
            let assembler = FeedAssembler(detected: atom ? .atom : .rss)
            let reader = XMLFeedReader(feedURL: base, assembler: assembler)
            var heldAtMost = 0
            for start in stride(from: 0, to: data.count, by: 4096) {
                data[start..<min(start + 4096, data.count)].withUnsafeBytes { _ = reader.feed($0) }
                heldAtMost = max(heldAtMost, assembler.heldItems)
            }
            let read = try reader.finish()
            XCTAssertTrue(read.0.items.isEmpty, "items go to the assembler, not the document")
            XCTAssertEqual(read.0.itemCount, 3_000)
            XCTAssertEqual(heldAtMost, 0, "every item with content is mapped as it ends")
            let feed = try assembler.finish(read)
            XCTAssertEqual(feed.entries.count, 3_000)
            XCTAssertEqual(feed.entries.last?.contentURLTexts, ["https://e.com/2999.epub"])
            // Pieces of 4 KB cut items in two: those are read event by event, the rest whole.
            XCTAssertGreaterThan(reader.itemsReadWhole, 2_000)
            XCTAssertLessThan(reader.itemsReadWhole, 3_000)
        }
    }

    /// An item's page link (RSS `link` text, Atom's first `alternate` link) is kept as bytes until a headline or a
    /// held item needs it: resolved then against the base it had where it was read, and the first that resolves
    /// is the one used, as when it was resolved at once.
    func testPageLinksReadLateAreTheFirstThatResolveAgainstTheirOwnBase() throws {
        let rss = Data("""
            <rss version="2.0"><channel xml:base="https://example.com/news/"><title>T</title>
              <item><title>One</title><link xml:base="https://other.org/y/">story</link><link>https://example.com/second</link></item>
              <item><title>Two</title><link>http://[bad</link><link>two.html</link></item>
              <item><title>Three</title><link>three.html</link><enclosure url="three.epub" type="application/epub+zip"/></item>
            </channel></rss>
            """.utf8)
        let news = try FeedParser.parse(rss, url: base)
        XCTAssertEqual(news.headlines.map(\.title), ["One", "Two"])
        XCTAssertEqual(news.headlines.map(\.link?.absoluteString), ["https://other.org/y/story", "https://example.com/news/two.html"])
        XCTAssertEqual(news.entries.map(\.contentURLTexts), [["https://example.com/news/three.epub"]])
        XCTAssertEqual("\(news)", wholeDocument(rss, url: base))

        // Atom entries without content are held until the format is certain (the feed's end), links and all.
        let atom = Data("""
            <feed xmlns="http://www.w3.org/2005/Atom" xml:base="https://example.com/a/"><title>T</title>
              <entry><id>1</id><title>One</title><link xml:base="https://other.org/x/" href="page"/><link rel="alternate" href="second"/></entry>
              <entry><id>2</id><title>Two</title><link rel="alternate" href="http://[bad"/><link href="two"/></entry>
              <entry><id>3</id><title>Three</title><link rel="alternate" type="application/atom+xml;profile=opds-catalog" href="cat"/><link href="three"/></entry>
            </feed>
            """.utf8)
        let feed = try FeedParser.parse(atom, url: base)
        XCTAssertEqual(feed.headlines.map(\.link?.absoluteString), ["https://other.org/x/page", "https://example.com/a/two"])
        XCTAssertEqual(feed.navigation.map(\.url.absoluteString), ["https://example.com/a/cat"])
        XCTAssertEqual("\(feed)", wholeDocument(atom, url: base))
    }
}
