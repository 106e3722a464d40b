import Foundation
import XCTest
@testable import NewsstandCore

/// Acquiring one title from a catalog (issue 12): the links an entry offers, ranked and told apart, and
/// the chosen one added to the Library shelf without subscribing.
final class TitleAcquisitionTests: XCTestCase {
    private let catalog = """
        <feed xmlns="http://www.w3.org/2005/Atom" xmlns:opds="http://opds-spec.org/2010/catalog"><title>Books</title>
        <entry><id>urn:book:1</id><title>Small Engines</title><updated>2025-01-01T00:00:00Z</updated>
          <link rel="http://opds-spec.org/acquisition/buy" href="/shop/1" type="application/epub+zip"/>
          <link rel="http://opds-spec.org/acquisition" href="/get/MOBI/1" type="application/x-mobipocket-ebook" length="900"/>
          <link rel="http://opds-spec.org/acquisition" href="/get/PDF/1" type="application/pdf" length="2202009"/>
          <link rel="http://opds-spec.org/acquisition/sample" href="/sample/1.epub" type="application/epub+zip"/>
          <link rel="http://opds-spec.org/acquisition/open-access" href="/free/1.cbz"/>
          <link rel="http://opds-spec.org/acquisition/borrow" href="/loan/1" type="application/atom+xml;type=entry;profile=opds-catalog">
            <opds:indirectAcquisition type="application/vnd.adobe.adept+xml"><opds:indirectAcquisition type="application/epub+zip"/></opds:indirectAcquisition>
          </link>
          <link rel="http://opds-spec.org/acquisition" href="/get/EPUB/1" type="application/epub+zip" length="12345"/>
          <link rel="http://opds-spec.org/acquisition/subscribe" href="/sub" type="application/epub+zip"/>
        </entry></feed>
        """

    private func entry() throws -> CatalogEntry {
        let feed = try FeedParser.parse(Data(catalog.utf8), url: URL(string: "https://books.example/opds")!)
        return try XCTUnwrap(feed.entries.first)
    }

    func testAcquisitionLinksAreRankedBestReadableFirstAndToldApart() throws {
        let ranked = AcquisitionLink.ranked(try entry().acquisitions)
        XCTAssertEqual(ranked.map(\.url.path), ["/get/EPUB/1", "/get/PDF/1", "/free/1.cbz", "/get/MOBI/1",
                                                "/shop/1", "/sample/1.epub", "/loan/1", "/sub"])
        XCTAssertEqual(ranked.map(\.kind), [.acquisition, .acquisition, .openAccess, .acquisition, .buy, .sample, .borrow, .subscribe])
        XCTAssertEqual(ranked[0].description, "EPUB · 12.1 KB · download")
        XCTAssertEqual(ranked[1].description, "PDF · 2.1 MB · download")
        XCTAssertEqual(ranked[2].description, "CBZ · open access")
        XCTAssertEqual(ranked[3].description, "MOBI · 900 bytes · download, but not a format Newsstand reads")
        XCTAssertTrue(ranked[4].description.hasPrefix("EPUB · buy: not followed"), ranked[4].description)
        XCTAssertTrue(ranked[6].description.hasPrefix("EPUB · borrow: not followed"), "the borrowed file's own type: \(ranked[6].description)")
        XCTAssertEqual(ranked.map(\.isDownloadable), [true, true, true, false, false, false, false, false])
    }

    func testAcquiringPutsTheTitleOnTheLibraryShelfWithoutSubscribing() throws {
        let (store, _) = try TestSupport.store(for: self)
        let entry = try entry()
        let ranked = AcquisitionLink.ranked(entry.acquisitions)
        let acquirer = TitleAcquirer(store: store)
        let issue = try acquirer.acquire(entry, through: ranked[0])
        XCTAssertEqual(issue.title, "Small Engines")
        XCTAssertEqual(issue.contentURLs, [URL(string: "https://books.example/get/EPUB/1")!])
        let shelf = try acquirer.libraryShelf()
        XCTAssertEqual(shelf.title, "Library")
        XCTAssertFalse(shelf.isSubscribed, "never refreshed")
        XCTAssertEqual(issue.publicationID, shelf.id)
        XCTAssertEqual(try store.publications().count, 1, "no subscription to the catalog")

        XCTAssertThrowsError(try acquirer.acquire(entry, through: ranked[4])) { error in
            XCTAssertTrue("\(error)".contains("buy link"), "\(error)")
        }
        XCTAssertThrowsError(try acquirer.acquire(entry, through: AcquisitionLink(url: URL(string: "https://b.example/a.mp3")!,
                                                                                   kind: .openAccess, type: "audio/mpeg"))) { error in
            XCTAssertTrue("\(error)".contains("audio (audio/mpeg)"), "\(error)")
        }
        _ = try acquirer.acquire(entry, through: ranked[1])
        XCTAssertEqual(try store.issues(publicationID: shelf.id).count, 1, "the same title twice stays one issue")
        XCTAssertEqual(try acquirer.libraryShelf().id, shelf.id, "one Library shelf")
    }

    /// A local catalog's file cannot go to the Library shelf, whose titles are fetched as from the network.
    func testALocalFileIsNotAddedToTheLibraryShelf() throws {
        let (store, _) = try TestSupport.store(for: self)
        let local = AcquisitionLink(url: URL(fileURLWithPath: "/srv/books/small-engines.epub"), kind: .acquisition, type: "application/epub+zip")
        let book = TestSupport.entry("small-engines")
        XCTAssertThrowsError(try TitleAcquirer(store: store).acquire(book, through: local)) { error in
            XCTAssertTrue("\(error)".hasPrefix("that link is not on the web (the feed points to a local file)"), "\(error)")
        }
        XCTAssertEqual(try store.publications(), [], "nothing added")
    }
}

/// A title got from a catalog leaves the Library shelf with its files; nothing else is removed that way.
final class TitleRemovalTests: XCTestCase {
    func testATitleIsRemovedWithItsFilesOnlyFromTheLibraryShelf() throws {
        let (store, paths) = try TestSupport.store(for: self)
        let acquirer = TitleAcquirer(store: store)
        let entry = CatalogEntry(name: "urn:book:9", title: "Small Engines", date: Date(timeIntervalSince1970: 0), contentURLs: [])
        let issue = try acquirer.acquire(entry, through: AcquisitionLink(url: URL(string: "https://b.example/9.epub")!, kind: .openAccess,
                                                                         type: "application/epub+zip"))
        let shelf = try acquirer.libraryShelf()
        let folder = paths.folder(for: issue, of: shelf)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: folder.appendingPathComponent("book.pdf"))
        try store.setState(.available, issueID: issue.id)

        try acquirer.remove(issueID: issue.id, paths: paths)
        XCTAssertNil(try store.issue(id: issue.id))
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.path), "its files go with it")
        XCTAssertEqual(try store.issueCounts(publicationID: shelf.id).total, 0)

        let other = try store.addPublication(title: "Weekly", feedURL: URL(string: "https://example.com/w.rss")!)
        let kept = try XCTUnwrap(try store.upsertIssues([TestSupport.entry("w-1")], publicationID: other.id).first)
        XCTAssertThrowsError(try acquirer.remove(issueID: kept.id, paths: paths))
        XCTAssertNotNil(try store.issue(id: kept.id), "an issue of a subscription is not removed one by one")
    }
}
