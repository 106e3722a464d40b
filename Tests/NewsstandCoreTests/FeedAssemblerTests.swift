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
