import Foundation
import XCTest
@testable import NewsstandCore

/// FeedParser on the OPDS and Newsstand samples and on hand-written feeds of every format.
final class FeedParserTests: XCTestCase {
    private let base = URL(string: "https://example.com/feeds/feed.xml")!

    private func parse(_ text: String, url: URL? = nil) throws -> Feed {
        try FeedParser.parse(Data(text.utf8), url: url ?? base)
    }

    private func corpus(_ path: String, base: String) throws -> Feed {
        let file = try TestFiles.corpus(path)
        return try FeedParser.parse(try Data(contentsOf: file), url: URL(string: base)!)
    }

    private func utc(_ y: Int, _ mo: Int, _ d: Int, _ h: Int = 0, _ mi: Int = 0, _ s: Int = 0) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar.date(from: DateComponents(year: y, month: mo, day: d, hour: h, minute: mi, second: s))!
    }

    // MARK: OPDS samples (opds/EXPECTED.md)

    func testOPDSWikiAcquisitionFeed() throws {
        let feed = try corpus("opds/readium-swift-toolkit/wiki_1_1.opds", base: "http://test.com")
        XCTAssertEqual(feed.format, .opds1)
        XCTAssertEqual(feed.title, "Unpopular Publications")
        XCTAssertEqual(feed.entries.count, 2)
        let bob = try XCTUnwrap(feed.entries.first)
        XCTAssertEqual(bob.title, "Bob, Son of Bob")
        XCTAssertEqual(bob.name, "urn:uuid:6409a00b-7bf2-405e-826c-3fdff0fd0734")
        XCTAssertEqual(bob.contentURLs, [URL(string: "http://test.com/content/free/4561.epub")!], "EPUB chosen over MOBI")
        XCTAssertEqual(bob.contentTypes, ["application/epub+zip"])
        XCTAssertEqual(bob.coverURL, URL(string: "http://test.com/covers/4561.lrg.png"), "the image before its thumbnail")
        XCTAssertTrue(bob.summary.hasPrefix("The story of the son of the Bob and the gallant part he played in the lives"))
        XCTAssertEqual(bob.date, utc(2010, 1, 10, 10, 1, 11))
        XCTAssertEqual(feed.entries[1].contentURLs, [URL(string: "http://test.com/content/buy/11241.epub")!])
        XCTAssertNil(feed.nextPage)
    }

    func testOPDSKotlinNavigationAndAcquisitionFeeds() throws {
        let navigation = try corpus("opds/readium-kotlin-toolkit/nav-feed.atom", base: "https://example.com")
        XCTAssertEqual(navigation.format, .opds1)
        XCTAssertEqual(navigation.title, "OPDS Catalog Root Example")
        XCTAssertEqual(navigation.entries, [])
        XCTAssertEqual(navigation.navigation.map(\.title), ["Popular Publications", "New Publications", "Unpopular Publications"])
        XCTAssertEqual(navigation.navigation.map(\.url.absoluteString), ["https://example.com/opds-catalogs/popular.xml",
                                                                          "https://example.com/opds-catalogs/new.xml",
                                                                          "https://example.com/opds-catalogs/unpopular.xml"])
        XCTAssertEqual(navigation.navigation[0].summary, "Popular publications from this catalog based on downloads.")

        let acquisition = try corpus("opds/readium-kotlin-toolkit/acquisition-feed.atom", base: "https://example.com")
        XCTAssertEqual(acquisition.title, "Unpopular Publications")
        XCTAssertEqual(acquisition.entries.count, 2)
        XCTAssertEqual(acquisition.entries[0].name, "urn:uuid:6409a00b-7bf2-405e-826c-3fdff0fd0734")
        XCTAssertEqual(acquisition.entries[0].title, "Bob, Son of Bob")
        XCTAssertEqual(acquisition.entries[0].date, utc(2010, 1, 10, 10, 1, 11))

        let entry = try corpus("opds/readium-kotlin-toolkit/entry.atom", base: "https://example.com")
        XCTAssertEqual(entry.format, .opds1)
        XCTAssertEqual(entry.entries.count + entry.headlines.count, 1, "a standalone entry reads as one item")
    }

    func testOPDSFeedbooksTestCatalog() throws {
        let navigation = try corpus("opds/nypl-opds-feed-parser/navigation.xml", base: "http://feedbooks.github.io/test/root.xml")
        XCTAssertEqual(navigation.title, "Test Catalog Root")
        XCTAssertEqual(navigation.navigation.count, 6)
        XCTAssertEqual(navigation.navigation[0].title, "First Acquisition feed")
        XCTAssertEqual(navigation.navigation[0].summary, "Basic acquisition feed")
        XCTAssertEqual(navigation.navigation[0].url.absoluteString, "http://feedbooks.github.io/test/acquisition/main.xml")
        XCTAssertEqual(navigation.navigation[3].title, "Link: Recommended")

        let acquisition = try corpus("opds/nypl-opds-feed-parser/acquisition.xml", base: "http://feedbooks.github.io/test/acquisition/main.xml")
        XCTAssertEqual(acquisition.format, .opds1)
        XCTAssertEqual(acquisition.title, "First Acquisition Feed")
        XCTAssertEqual(acquisition.entries.count, 17)
        let first = try XCTUnwrap(acquisition.entries.first)
        XCTAssertEqual(first.title, "Pride and Prejudice")
        XCTAssertEqual(first.name, "http://feedbooks.github.io/test/1")
        XCTAssertEqual(first.date, utc(2006, 12, 28, 20, 0, 54), "published (updated is 2012-10-12T17:43:18Z; dcterms:issued 1813 is the book's)")
        XCTAssertTrue(first.summary.contains("the story of Mrs. Bennet's attempts to marry off her five daughters"), first.summary)
        XCTAssertEqual(first.contentURLs, [URL(string: "http://www.feedbooks.com/book/52.epub")!])
        XCTAssertEqual(first.coverURL?.absoluteString, "http://feedbooks.github.io/test/larger.jpg")
        XCTAssertEqual(acquisition.nextPage?.absoluteString, "http://feedbooks.github.io/test/acquisition/page2.xml")
    }

    func testOPDS2Samples() throws {
        let readium = try corpus("opds/readium-swift-toolkit/opds_2_0.json", base: "https://readium2.feedbooks.net/publications.json")
        XCTAssertEqual(readium.format, .opds2)
        XCTAssertEqual(readium.title, "Readium 2 OPDS 2.0 Feed")
        XCTAssertEqual(readium.entries.count + readium.headlines.count, 5, "numberOfItems")

        let w3c = try corpus("opds/w3c-epub-tests/opds.json", base: "https://w3c.github.io/epub-tests/opds.json")
        XCTAssertEqual(w3c.title, "W3C EPUB 3.4 Test Suite")
        XCTAssertEqual(w3c.entries.count + w3c.problems.count, 199)
        XCTAssertEqual(w3c.problems.count, 2, "two identifiers repeat upstream (lay-fxl-svg-icb_multi, pkg-unique-id): \(w3c.problems)")
        XCTAssertTrue(w3c.entries.allSatisfy { $0.contentURLs.count == 1 && $0.contentURLs[0].pathExtension == "epub" })
        XCTAssertTrue(w3c.entries.allSatisfy { $0.coverURL?.lastPathComponent == "test_cover.png" })
        XCTAssertTrue(w3c.entries.allSatisfy { $0.contentTypes == ["application/epub+zip"] })

        let home = try corpus("opds/palace-android-opds2/aldiko/home.json", base: "https://example.org/home.json")
        XCTAssertEqual(home.title, "Libraries by country")
        XCTAssertEqual(home.navigation.count, 7)
        let france = try corpus("opds/palace-android-opds2/aldiko/france.json", base: "https://example.org/france.json")
        XCTAssertEqual(france.navigation.count, 15)
        XCTAssertEqual(france.navigation[0].title, "Bibliothèque départementale de l’Aisne")

        let groups = try corpus("opds/palace-android-opds2/groups-20250821.json", base: "https://example.org/groups.json")
        XCTAssertEqual(groups.entries.count + groups.headlines.count + groups.problems.filter { $0.contains("listed twice") }.count, 217)
        XCTAssertTrue(groups.entries.count > 0)
    }

    // MARK: Newsstand samples (newsstand/EXPECTED.md)

    func testNewsstandAtomSamples() throws {
        let atomgen = try corpus("newsstand/atomgen/simple.atom", base: "http://ccc.com/feed.atom")
        XCTAssertEqual(atomgen.format, .newsstandAtom)
        XCTAssertEqual(atomgen.entries.map(\.name), ["1", "2"])
        XCTAssertEqual(atomgen.entries.map(\.summary), ["This is the summary 1", "This is the summary 2"])
        XCTAssertEqual(atomgen.entries.map(\.date), [utc(2013, 12, 10, 1, 10, 53), utc(2013, 12, 10, 1, 7, 53)], "published")
        XCTAssertEqual(atomgen.entries.map { $0.coverURL?.absoluteString }, ["http://ccc.com/img.png", "http://ccc2.com/img2.png"])

        let validated = try corpus("newsstand/atomgen/validated-image.atom", base: "http://example.com/feed.atom")
        XCTAssertEqual(Set(validated.entries.compactMap { $0.coverURL?.absoluteString }),
                       ["http://cdn.tennis.com/uploads/magazine/test_material/img_1024_600.png"])

        let rack = try corpus("newsstand/rack-newsstand/issues.atom", base: "http://example.com/issues")
        XCTAssertEqual(rack.format, .newsstandAtom)
        XCTAssertEqual(rack.entries.count, 1)
        let issue = try XCTUnwrap(rack.entries.first)
        XCTAssertEqual(issue.name, "magazine-0")
        XCTAssertEqual(issue.summary, "")
        XCTAssertEqual(issue.date, utc(2013, 4, 30, 16, 59, 54), "2013-04-30 09:59:54 -0700")
        XCTAssertEqual(issue.coverURL?.absoluteString, "http://example.com/assets/covers/magazine-1.png")

        let plist = try corpus("newsstand/rack-newsstand/issues.plist", base: "http://example.com/issues")
        XCTAssertEqual(plist.format, .propertyList)
        XCTAssertEqual(plist.entries.map(\.name), ["magazine-1"])
        XCTAssertEqual(plist.entries.first?.title, "Magazine Issue 1")
        XCTAssertEqual(plist.entries.first?.date, utc(2013, 4, 19, 12))
    }

    func testNewsstandCoverPrefersSourceSize() throws {
        let feed = try parse("""
            <feed xmlns="http://www.w3.org/2005/Atom" xmlns:news="http://itunes.apple.com/2011/Newsstand">
              <entry><id>2024-05</id><title>May</title><published>2024-05-01T00:00:00Z</published>
                <news:end_date>2024-06-01T00:00:00Z</news:end_date>
                <news:cover_art_icons>
                  <news:cover_art_icon size="SMALL" src="covers/small.png"/>
                  <news:cover_art_icon size="SOURCE" src="covers/source.png"/>
                </news:cover_art_icons></entry>
            </feed>
            """)
        XCTAssertEqual(feed.format, .newsstandAtom)
        XCTAssertEqual(feed.entries.first?.coverURL?.absoluteString, "https://example.com/feeds/covers/source.png")
        XCTAssertEqual(feed.entries.first?.title, "May")
    }

    // MARK: Hand-written feeds

    func testRSSWithEnclosureMediaAndITunes() throws {
        let feed = try parse("""
            <?xml version="1.0"?>
            <rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"
                 xmlns:content="http://purl.org/rss/1.0/modules/content/">
            <channel>
              <title>Kettle &amp; Compass</title>
              <itunes:image href="https://example.com/art/channel.jpg"/>
              <item>
                <title>Spring &lt;b&gt;2025&lt;/b&gt;</title>
                <guid isPermaLink="false">kc-2025-spring</guid>
                <pubDate>Sat, 01 Mar 2025 09:30:00 +0100</pubDate>
                <description>&lt;p&gt;Tea &amp;amp; maps&lt;/p&gt;&lt;script&gt;evil()&lt;/script&gt;</description>
                <enclosure url="issues/2025-spring.epub" length="123456" type="application/epub+zip"/>
                <media:thumbnail url="https://example.com/covers/spring-thumb.jpg"/>
              </item>
              <item>
                <title>Summer</title>
                <link>https://example.com/summer</link>
                <pubDate>Sun, 1 Jun 2025 08:00:00 GMT</pubDate>
                <content:encoded><![CDATA[<p>Long <em>summer</em> read</p>]]></content:encoded>
                <media:group>
                  <media:content url="https://cdn.example.com/summer.pdf" type="application/pdf"/>
                  <media:content url="https://cdn.example.com/summer-cover.jpg" medium="image"/>
                </media:group>
                <itunes:image href="https://example.com/covers/summer.jpg"/>
              </item>
              <item>
                <title>Autumn</title>
                <enclosure url="https://example.com/autumn.epub" type="application/epub+zip" length="1"/>
              </item>
            </channel></rss>
            """)
        XCTAssertEqual(feed.format, .rss)
        XCTAssertEqual(feed.title, "Kettle & Compass")
        XCTAssertEqual(feed.entries.count, 3)
        let spring = feed.entries[0]
        XCTAssertEqual(spring.name, "kc-2025-spring")
        XCTAssertEqual(spring.title, "Spring 2025")
        XCTAssertEqual(spring.summary, "Tea & maps")
        XCTAssertEqual(spring.date, utc(2025, 3, 1, 8, 30))
        XCTAssertEqual(spring.contentURLs, [URL(string: "https://example.com/feeds/issues/2025-spring.epub")!])
        XCTAssertEqual(spring.contentTypes, ["application/epub+zip"])
        XCTAssertNil(spring.expectedSize, "enclosure lengths are often wrong; they are not used as a size check")
        XCTAssertEqual(spring.coverURL?.absoluteString, "https://example.com/covers/spring-thumb.jpg")
        let summer = feed.entries[1]
        XCTAssertEqual(summer.name, "https://cdn.example.com/summer.pdf", "no guid: the enclosure URL names the issue")
        XCTAssertEqual(summer.summary, "Long summer read")
        XCTAssertEqual(summer.contentURLs.map(\.absoluteString), ["https://cdn.example.com/summer.pdf"])
        XCTAssertEqual(summer.coverURL?.absoluteString, "https://example.com/covers/summer.jpg", "itunes:image before media images")
        let autumn = feed.entries[2]
        XCTAssertEqual(autumn.coverURL?.absoluteString, "https://example.com/art/channel.jpg", "the channel's artwork when the item has none")
        XCTAssertEqual(autumn.date, Date(timeIntervalSince1970: 0), "no date anywhere")
        XCTAssertEqual(feed.headlines, [])
    }

    func testHeadlinesOnlyRSS() throws {
        let feed = try parse("""
            <rss version="2.0"><channel><title>News</title>
              <item><title>First &amp; foremost</title><link>/news/1</link><pubDate>Mon, 06 Jan 2025 10:00:00 GMT</pubDate>
                <description>Plain &lt;i&gt;words&lt;/i&gt;
                  across lines</description></item>
              <item><title>Second</title><guid>https://example.com/news/2</guid></item>
              <item><description>Only a description, &amp;#27;[31mred</description></item>
            </channel></rss>
            """)
        XCTAssertEqual(feed.entries, [])
        XCTAssertEqual(feed.headlines.count, 3)
        XCTAssertEqual(feed.headlines[0], Headline(title: "First & foremost", link: URL(string: "https://example.com/news/1"),
                                                   date: utc(2025, 1, 6, 10), summary: "Plain words across lines",
                                                   body: "Plain <i>words</i>\n      across lines"), "the HTML is kept for reading")
        XCTAssertEqual(feed.headlines[1].link?.absoluteString, "https://example.com/news/2", "a permalink guid is the link")
        XCTAssertEqual(feed.headlines[2].summary, "Only a description, red", "escape sequences are removed")
    }

    func testAtomEnclosureAndXMLBase() throws {
        let feed = try parse("""
            <feed xmlns="http://www.w3.org/2005/Atom" xml:base="https://cdn.example.org/magazine/">
              <title type="html">The &lt;em&gt;Atom&lt;/em&gt; Quarterly</title>
              <link rel="next" href="?page=2"/>
              <entry xml:base="2025/">
                <id>tag:example.org,2025:q1</id>
                <title type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml">Q1 <b>issue</b></div></title>
                <updated>2025-01-15T12:00:00Z</updated>
                <published>2025-01-10T08:00:00+02:00</published>
                <summary>Winter &lt;not a tag&gt;</summary>
                <link rel="alternate" type="text/html" href="q1.html"/>
                <link rel="enclosure" type="application/epub+zip" length="42" href="q1.epub"/>
              </entry>
              <entry><id>tag:example.org,2025:post</id><title>A post</title><updated>2025-02-01T00:00:00Z</updated>
                <link href="https://example.org/post"/></entry>
            </feed>
            """)
        XCTAssertEqual(feed.format, .atom)
        XCTAssertEqual(feed.title, "The Atom Quarterly")
        XCTAssertEqual(feed.nextPage?.absoluteString, "https://cdn.example.org/magazine/?page=2")
        XCTAssertEqual(feed.entries.count, 1)
        let entry = feed.entries[0]
        XCTAssertEqual(entry.name, "tag:example.org,2025:q1")
        XCTAssertEqual(entry.title, "Q1 issue")
        XCTAssertEqual(entry.summary, "Winter <not a tag>", "plain-text summaries keep their angle brackets")
        XCTAssertEqual(entry.date, utc(2025, 1, 10, 6))
        XCTAssertEqual(entry.contentURLs.map(\.absoluteString), ["https://cdn.example.org/magazine/2025/q1.epub"])
        XCTAssertEqual(feed.headlines, [Headline(title: "A post", link: URL(string: "https://example.org/post"), date: utc(2025, 2, 1))])
    }

    func testOPDSIndirectAcquisitionGivesTheFinalType() throws {
        let feed = try parse("""
            <feed xmlns="http://www.w3.org/2005/Atom" xmlns:opds="http://opds-spec.org/2010/catalog">
              <title>Library</title>
              <link rel="next" href="/catalog?page=2" type="application/atom+xml;profile=opds-catalog;kind=acquisition"/>
              <entry><id>urn:isbn:1</id><title>Borrowed</title><updated>2024-01-01T00:00:00Z</updated>
                <link rel="http://opds-spec.org/acquisition/borrow" href="/borrow/1" type="application/atom+xml;type=entry;profile=opds-catalog">
                  <opds:indirectAcquisition type="application/vnd.adobe.adept+xml">
                    <opds:indirectAcquisition type="application/epub+zip"/>
                  </opds:indirectAcquisition>
                </link>
                <link rel="http://opds-spec.org/acquisition/sample" href="/sample/1.epub" type="application/epub+zip"/>
                <link rel="http://opds-spec.org/image/thumbnail" href="/thumb/1.jpg" type="image/jpeg"/>
              </entry>
              <entry><id>urn:isbn:2</id><title>Shop only</title><updated>2024-01-01T00:00:00Z</updated>
                <link rel="http://opds-spec.org/acquisition/buy" href="/shop/2" type="text/html"/></entry>
              <entry><id>urn:isbn:3</id><title>Free</title><updated>2024-01-01T00:00:00Z</updated>
                <link rel="http://opds-spec.org/acquisition/open-access" href="/free/3.pdf" type="application/pdf"/>
                <link rel="http://opds-spec.org/acquisition/open-access" href="/free/3.epub" type="application/epub+zip"/></entry>
            </feed>
            """, url: URL(string: "https://library.example/catalog")!)
        XCTAssertEqual(feed.format, .opds1)
        XCTAssertEqual(feed.nextPage?.absoluteString, "https://library.example/catalog?page=2")
        XCTAssertEqual(feed.entries.map(\.name), ["urn:isbn:1", "urn:isbn:3"])
        XCTAssertEqual(feed.entries[0].contentURLs.map(\.absoluteString), ["https://library.example/borrow/1"], "borrow before sample")
        XCTAssertEqual(feed.entries[0].contentTypes, ["application/epub+zip"], "the innermost indirect acquisition type")
        XCTAssertEqual(feed.entries[0].coverURL?.absoluteString, "https://library.example/thumb/1.jpg")
        XCTAssertEqual(feed.entries[1].contentURLs.map(\.absoluteString), ["https://library.example/free/3.epub"], "EPUB before PDF")
        XCTAssertEqual(feed.headlines.map(\.title), ["Shop only"], "a shop page is not downloadable content")
    }

    func testOPDS2JSON() throws {
        let feed = try parse("""
            {"metadata": {"title": "Shelf"},
             "links": [{"rel": "self", "href": "/opds2"}, {"rel": ["next"], "href": "/opds2?page=2", "type": "application/opds+json"}],
             "navigation": [{"href": "/new", "title": "New", "type": "application/opds+json"}],
             "publications": [
               {"metadata": {"identifier": "urn:x:1", "title": "One", "published": "2024-03-01", "description": "<p>First</p>"},
                "links": [{"rel": "http://opds-spec.org/acquisition/borrow", "href": "/loan/1", "type": "application/opds-publication+json",
                           "properties": {"indirectAcquisition": [{"type": "application/vnd.readium.lcp.license.v1.0+json",
                                                                    "child": [{"type": "application/epub+zip"}]}]}}],
                "images": [{"href": "/small.jpg", "width": 100}, {"href": "/large.jpg", "width": 600}]}],
             "groups": [{"metadata": {"title": "Featured"},
                         "publications": [{"metadata": {"title": "Two", "modified": "2024-04-01T00:00:00Z"},
                                           "links": [{"rel": "http://opds-spec.org/acquisition", "href": "two.epub", "type": "application/epub+zip"}]}],
                         "navigation": [{"href": "/featured", "title": "All featured"}]}]}
            """, url: URL(string: "https://books.example/opds2")!)
        XCTAssertEqual(feed.format, .opds2)
        XCTAssertEqual(feed.title, "Shelf")
        XCTAssertEqual(feed.nextPage?.absoluteString, "https://books.example/opds2?page=2")
        XCTAssertEqual(feed.navigation.map(\.title), ["New", "All featured"])
        XCTAssertEqual(feed.entries.map(\.name), ["urn:x:1", "https://books.example/two.epub"])
        XCTAssertEqual(feed.entries[0].contentTypes, ["application/epub+zip"])
        XCTAssertEqual(feed.entries[0].coverURL?.absoluteString, "https://books.example/large.jpg")
        XCTAssertEqual(feed.entries[0].summary, "First")
        XCTAssertEqual(feed.entries[0].date, utc(2024, 3, 1))
        XCTAssertEqual(feed.entries[1].date, utc(2024, 4, 1))
    }

    // MARK: Detection

    func testFormatIsDetectedFromContentNotFileName() throws {
        let samples: [(String, FeedFormat?)] = [
            ("opds/readium-swift-toolkit/opds1-feed.unknown", .opds1),
            ("opds/readium-swift-toolkit/opds1-entry.unknown", .opds1),
            ("opds/readium-swift-toolkit/opds2-feed.json", .opds2),
            ("opds/readium-swift-toolkit/opds2-publication.json", .opds2),
            ("opds/readium-swift-toolkit/opds-authentication.json", nil),
            ("opds/readium-swift-toolkit/wiki_1_1.opds", .opds1),
            ("opds/readium-swift-toolkit/feedbooks_catalog.atom", .opds1),
            ("newsstand/rack-newsstand/issues.atom", .newsstandAtom),
            ("newsstand/rack-newsstand/issues.plist", .propertyList),
            ("feedparser/wellformed/rss/channel_title.xml", .rss),
            ("feedparser/wellformed/rdf/rdf_channel_title.xml", .rss),
            ("feedparser/wellformed/rdf/rss090_channel_title.xml", .rss),
            ("feedparser/wellformed/atom10/feed_title.xml", .atom),
            ("feedparser/wellformed/atom/feed_title.xml", .atom),
        ]
        for (path, expected) in samples {
            let data = try Data(contentsOf: try TestFiles.corpus(path))
            XCTAssertEqual(FeedParser.detectFormat(data), expected, path)
        }
        XCTAssertEqual(FeedParser.detectFormat(try Data(contentsOf: TestFiles.sampleLibrary.appendingPathComponent("catalog.plist"))), .propertyList)
        let binary = try PropertyListSerialization.data(fromPropertyList: [["Name": "a"]], format: .binary, options: 0)
        XCTAssertEqual(FeedParser.detectFormat(binary), .propertyList)
        XCTAssertEqual(FeedParser.detectFormat(Data("\u{FEFF}  <!-- c --><rss/>".utf8)), .rss)
        XCTAssertEqual(FeedParser.detectFormat(Data("<?xml version='1.0' encoding='utf-16'?><rss/>".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })), .rss)
        XCTAssertEqual(FeedParser.detectFormat(Data("<!DOCTYPE rss [ <!ENTITY a \"x>y\"> <!-- ] > --> ]>\n<rss/>".utf8)), .rss,
                       "a doctype's internal subset is skipped whole")
        XCTAssertEqual(FeedParser.detectFormat(try Data(contentsOf: TestFiles.corpus("feedparser/wellformed/rss/entity_in_doctype.xml"))), .rss)
        XCTAssertNil(FeedParser.detectFormat(Data("<html><body>Oops</body></html>".utf8)))
        XCTAssertNil(FeedParser.detectFormat(Data()))
        XCTAssertNil(FeedParser.detectFormat(Data([0xFF, 0xD8, 0xFF, 0xE0])))

        // The same RSS bytes under a misleading name still parse as RSS.
        let folder = try TestFiles.scratchFolder(for: self)
        let file = folder.appendingPathComponent("catalog.plist")
        try Data("<rss><channel><title>T</title><item><title>x</title><enclosure url='a.epub'/></item></channel></rss>".utf8).write(to: file)
        let feed = try FeedParser.parse(contentsOf: file, url: file)
        XCTAssertEqual(feed.format, .rss)
        XCTAssertEqual(feed.entries.first?.contentURLs, [folder.appendingPathComponent("a.epub")])
    }

    func testNotAFeedIsRefusedInPlainWords() {
        for text in ["<html><body>Oops</body></html>", "just words", "{\"authentication\": []}", "<rss><channel><item><title>x</item>"] {
            XCTAssertThrowsError(try parse(text), text) { error in
                XCTAssertTrue(error is CatalogError, "\(error)")
                let words = "\(error)"
                XCTAssertTrue(words.contains("not a feed") || words.contains("not well-formed"), words)
            }
        }
    }

    // MARK: Large feeds

    func testFeedLargerThanTenMegabytesParses() throws {
        var data = Data("<?xml version=\"1.0\"?>\n<rss version=\"2.0\"><channel><title>Big</title>\n".utf8)
        let filler = String(repeating: "Lorem ipsum dolor sit amet, consectetur adipiscing elit. ", count: 100)
        var count = 0
        while data.count < 11 << 20 {
            data.append(contentsOf: Array(("<item><guid>item-\(count)</guid><title>Item \(count)</title><pubDate>Mon, 06 Jan 2025 10:00:00 GMT</pubDate>"
                + "<description>\(filler)</description><enclosure url=\"https://example.com/\(count).epub\" type=\"application/epub+zip\"/></item>\n").utf8))
            count += 1
        }
        data.append(contentsOf: Array("</channel></rss>\n".utf8))
        let started = Date()
        XCTAssertGreaterThan(data.count, 10 << 20)
        let feed = try FeedParser.parse(data, url: base)
        XCTAssertEqual(feed.entries.count, count)
        XCTAssertEqual(feed.entries.last?.name, "item-\(count - 1)")
        print("parsed \(data.count >> 20) MB, \(count) items in \(Date().timeIntervalSince(started)) s")

        let folder = try TestFiles.scratchFolder(for: self)
        let file = folder.appendingPathComponent("big.xml")
        try data.write(to: file)
        XCTAssertEqual(try FeedParser.parse(contentsOf: file, url: base).entries.count, count)
    }

    // MARK: Dates

    func testFlexibleDates() {
        let cases: [(String, Date?)] = [
            ("2003-12-31T10:14:55Z", utc(2003, 12, 31, 10, 14, 55)),
            ("2003-12-31T10:14:55.123-08:00", utc(2003, 12, 31, 18, 14, 55).addingTimeInterval(0.123)),
            ("2003-12-31t10:14:55+0100", utc(2003, 12, 31, 9, 14, 55)),
            ("2003-12-31T10:14Z", utc(2003, 12, 31, 10, 14)),
            ("2003-12-31", utc(2003, 12, 31)),
            ("20031231T101455Z", utc(2003, 12, 31, 10, 14, 55)),
            ("2013-04-30 09:59:54 -0700", utc(2013, 4, 30, 16, 59, 54)),
            ("Thu, 01 Jan 2004 19:48:21 GMT", utc(2004, 1, 1, 19, 48, 21)),
            ("Thu, 1 Jan 2004 19:48:21 +0000", utc(2004, 1, 1, 19, 48, 21)),
            ("01 Jan 2004 19:48 EST", utc(2004, 1, 2, 0, 48)),
            ("Thu, 01 Jan 04 19:48:21 PDT", utc(2004, 1, 2, 2, 48, 21)),
            ("Thu,01 Jan 2004 19:48:21", utc(2004, 1, 1, 19, 48, 21)),
            ("Sat, 07 Sep 2002 00:00:01 GMT", utc(2002, 9, 7, 0, 0, 1)),
            ("", nil), ("   ", nil), ("not a date", nil), ("2003-13-01", nil), ("32 Jan 2004 10:00 GMT", nil),
        ]
        for (text, expected) in cases {
            let parsed = FlexibleDateParser.parse(text)
            if let expected, let parsed {
                XCTAssertEqual(parsed.timeIntervalSince1970, expected.timeIntervalSince1970, accuracy: 0.001, text)
            } else {
                XCTAssertEqual(parsed, expected, text)
            }
        }
    }
}
