import Foundation
import XCTest
@testable import NewsstandCore

/// Every real catalog in `../shared/corpora/opds` browses: it parses without error, and the values its
/// upstream project's tests assert (EXPECTED.md there) come out.
final class OPDSCorpusTests: XCTestCase {
    /// The catalogs (feeds and entries), with the base URL the upstream tests used.
    static let catalogs: [(path: String, base: String)] = [
        ("readium-swift-toolkit/wiki_1_1.opds", "http://test.com"),
        ("readium-swift-toolkit/opds_2_0.json", "http://test.com"),
        ("readium-swift-toolkit/feedbooks_catalog.atom", "http://test.com"),
        ("readium-swift-toolkit/opds1-feed.unknown", "http://test.com"),
        ("readium-swift-toolkit/opds1-entry.unknown", "http://test.com"),
        ("readium-swift-toolkit/opds2-feed.json", "http://test.com"),
        ("readium-swift-toolkit/opds2-publication.json", "http://test.com"),
        ("readium-kotlin-toolkit/nav-feed.atom", "https://example.com"),
        ("readium-kotlin-toolkit/acquisition-feed.atom", "https://example.com"),
        ("readium-kotlin-toolkit/entry.atom", "https://example.com"),
        ("nypl-opds-feed-parser/navigation.xml", "http://feedbooks.github.io/test/root.xml"),
        ("nypl-opds-feed-parser/acquisition.xml", "http://feedbooks.github.io/test/acquisition/main.xml"),
        ("nypl-opds-feed-parser/entry.xml", "http://feedbooks.github.io/test/"),
        ("palace-android-opds2/aldiko/home.json", "https://example.org/"),
        ("palace-android-opds2/aldiko/france.json", "https://example.org/"),
        ("palace-android-opds2/aldiko/canada.json", "https://example.org/"),
        ("palace-android-opds2/aldiko/canada/ontario.json", "https://example.org/"),
        ("palace-android-opds2/groups-20250821.json", "https://example.org/"),
        ("w3c-epub-tests/opds.json", "https://w3c.github.io/epub-tests/"),
    ]

    private func feed(_ path: String, base: String) throws -> Feed {
        let file = try TestFiles.corpus("opds/" + path)
        return try FeedParser.parse(contentsOf: file, url: URL(string: base)!)
    }

    func testEveryCatalogBrowses() throws {
        _ = try TestFiles.corpus("opds") // outside the assertions, so a missing corpus skips (or fails in CI) as itself
        for (path, base) in Self.catalogs {
            XCTAssertNoThrow(try feed(path, base: base), path)
            if let feed = try? feed(path, base: base) {
                XCTAssertTrue(feed.format == .opds1 || feed.format == .opds2, "\(path): \(feed.format)")
                XCTAssertFalse(feed.entries.isEmpty && feed.navigation.isEmpty && feed.headlines.isEmpty, "\(path) lists nothing")
            }
        }
    }

    func testReadiumNavigationFeedChoosesNewPublications() throws {
        let feed = try feed("readium-kotlin-toolkit/nav-feed.atom", base: "https://example.com")
        XCTAssertEqual(feed.title, "OPDS Catalog Root Example")
        XCTAssertEqual(feed.navigation.map(\.title), ["Popular Publications", "New Publications", "Unpopular Publications"])
        XCTAssertEqual(feed.navigation.map(\.rel), ["http://opds-spec.org/sort/popular", "http://opds-spec.org/sort/new", "subsection"])
        XCTAssertTrue(feed.navigation.allSatisfy(\.isAcquisitionFeed))
        XCTAssertEqual(CatalogShelfChooser.choice(in: feed.navigation)?.url.absoluteString, "https://example.com/opds-catalogs/new.xml")
        XCTAssertEqual(feed.start?.absoluteString, "https://example.com/opds-catalogs/root.xml")
    }

    func testReadiumAcquisitionFeedFacets() throws {
        let feed = try feed("readium-kotlin-toolkit/acquisition-feed.atom", base: "https://example.com")
        XCTAssertEqual(feed.title, "Unpopular Publications")
        XCTAssertEqual(feed.entries.count, 2)
        XCTAssertEqual(feed.entries.first?.title, "Bob, Son of Bob")
        XCTAssertEqual(feed.facets.map(\.group), ["Categories", "Categories"])
        XCTAssertEqual(feed.facets.map(\.title), ["Science-Fiction", "Romance"])
        XCTAssertEqual(feed.facets.map(\.url.absoluteString), ["https://example.com/sci-fi", "https://example.com/romance"])
        XCTAssertEqual(feed.facets.map(\.isActive), [true, false])
        XCTAssertEqual(feed.facets.last?.count, 600)
    }

    func testFeedbooksTestCatalogSearchDescriptions() throws {
        let navigation = try feed("nypl-opds-feed-parser/navigation.xml", base: "http://feedbooks.github.io/test/root.xml")
        XCTAssertEqual(navigation.title, "Test Catalog Root")
        XCTAssertEqual(navigation.search, .description(URL(string: "http://feedbooks.github.io/test/opensearch.xml")!))
        XCTAssertEqual(navigation.navigation.first?.title, "First Acquisition feed")
        let acquisition = try feed("nypl-opds-feed-parser/acquisition.xml", base: "http://feedbooks.github.io/test/acquisition/main.xml")
        XCTAssertEqual(acquisition.entries.count, 17)
        XCTAssertEqual(acquisition.entries.first?.title, "Pride and Prejudice")
        XCTAssertEqual(acquisition.search, .description(URL(string: "http://feedbooks.github.io/test/opensearch.xml")!))
        XCTAssertEqual(acquisition.nextPage?.absoluteString, "http://feedbooks.github.io/test/acquisition/page2.xml")
    }

    func testOtherExpectedValues() throws {
        let wiki = try feed("readium-swift-toolkit/wiki_1_1.opds", base: "http://test.com")
        XCTAssertEqual(wiki.title, "Unpopular Publications")
        XCTAssertEqual(wiki.entries.count, 2)
        XCTAssertEqual(wiki.entries.first?.title, "Bob, Son of Bob")
        let w3c = try feed("w3c-epub-tests/opds.json", base: "https://w3c.github.io/epub-tests/")
        XCTAssertEqual(w3c.title, "W3C EPUB 3.4 Test Suite")
        // 199 publications, two of them sharing an identifier with another: the first of each is kept, and said.
        XCTAssertEqual(w3c.entries.count, 197)
        XCTAssertEqual(w3c.problems.filter { $0.contains("listed twice") }.count, 2)
        XCTAssertTrue(w3c.entries.allSatisfy { $0.contentURLs.first?.pathExtension == "epub" })
        let feedbooks = try feed("readium-swift-toolkit/feedbooks_catalog.atom", base: "http://test.com")
        XCTAssertEqual(feedbooks.search, .description(URL(string: "http://www.feedbooks.com/opensearch.xml")!))
    }
}
