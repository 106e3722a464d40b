import Foundation
import XCTest
@testable import NewsstandCore
import LocalHTTPServer

/// Komga's and Kavita's OPDS (fixtures in `OPDSDialectFixtures`), served on 127.0.0.1: subscribing to the
/// root, pagination, OpenSearch and CBZ acquisition.
final class OPDSDialectTests: XCTestCase {
    typealias F = OPDSDialectFixtures

    private func serveKomga(_ server: LocalHTTPServer) {
        server.setResource("/opds/v1.2/catalog", data: Data(F.komgaRoot.utf8))
        server.setResource("/opds/v1.2/search", data: Data(F.komgaSearchDescription.utf8))
        server.setResource("/opds/v1.2/series/latest", data: Data(F.komgaBooksPage(
            path: "/opds/v1.2/series/latest", title: "Latest series", page: 0, lastPage: 0,
            entries: [F.komgaSeriesEntry(id: "s1", title: "Harbour Lights")]).utf8))
        for page in 0...2 {
            let books = (0..<3).map { F.komgaBookEntry(id: "b\(page)\($0)", title: "Harbour Lights \(9 - page * 3 - $0)", day: 28 - page * 3 - $0) }
            let feed = F.komgaBooksPage(path: "/opds/v1.2/books/latest", title: "Latest books", page: page, lastPage: 2, entries: books)
            server.setResource(page == 0 ? "/opds/v1.2/books/latest" : "/opds/v1.2/books/latest?page=\(page)", data: Data(feed.utf8))
        }
        server.setResource("/opds/v1.2/series?search=harbour%20lights", data: Data(F.komgaBooksPage(
            path: "/opds/v1.2/series", title: "Series search for: harbour lights", page: 0, lastPage: 0,
            entries: [F.komgaSeriesEntry(id: "s1", title: "Harbour Lights")]).utf8))
    }

    func testKomgaRootSubscribesToLatestBooksAcrossPages() throws {
        let (store, _) = try TestSupport.store(for: self)
        let server = try TestSupport.server(for: self)
        serveKomga(server)
        let publication = try PublicationRefresher(store: store).subscribe(to: server.url(for: "/opds/v1.2/catalog"))
        XCTAssertEqual(publication.title, "Komga OPDS catalog")
        XCTAssertEqual(publication.catalogFeedTitle, "Latest books", "'Latest series' lists series, so the next candidate is taken")
        let issues = try store.issues(publicationID: publication.id)
        XCTAssertEqual(issues.count, 9, "three pages through ?page=N")
        XCTAssertEqual(issues.first?.title, "Harbour Lights 9")
        XCTAssertEqual(issues.first?.contentURLs.first?.path, "/opds/v1.2/books/b00/file/b00.cbz", "the CBZ file, not the page stream")
        XCTAssertEqual(issues.first?.coverURL?.path, "/opds/v1.2/books/b00/thumbnail")
    }

    func testPageStreamsAreReadWhateverTheirPrefix() throws {
        let server = try TestSupport.server(for: self)
        serveKomga(server)
        serveKavita(server)
        let komga = try CatalogPages().page(at: server.url(for: "/opds/v1.2/books/latest"), from: .network)
        let stream = try XCTUnwrap(komga.entries.first?.pageStream)
        XCTAssertEqual(stream.pageCount, 24)
        XCTAssertEqual(stream.type, "image/jpeg")
        XCTAssertEqual(stream.template, server.baseURL.absoluteString + "opds/v1.2/books/b00/pages/{pageNumber}?convert=jpeg")
        XCTAssertEqual(stream.url(forPage: 0)?.absoluteString, server.baseURL.absoluteString + "opds/v1.2/books/b00/pages/0?convert=jpeg")
        XCTAssertNil(stream.url(forPage: 24), "pages count from 0")
        let kavita = try CatalogPages().page(at: server.url(for: "/api/opds/\(F.kavitaKey)/series/1"), from: .network)
        XCTAssertEqual(kavita.entries.first?.pageStream?.pageCount, 20, "p5:count, another prefix for the same namespace")
        XCTAssertTrue(kavita.entries.first?.pageStream?.url(forPage: 3)?.absoluteString.hasSuffix("chapterId=10&pageNumber=3") == true)
    }

    func testKomgaSearchReadsTheOpenSearchDescription() throws {
        let server = try TestSupport.server(for: self)
        serveKomga(server)
        let pages = CatalogPages()
        let root = try pages.page(at: server.url(for: "/opds/v1.2/catalog"), from: .network)
        XCTAssertEqual(root.search, .description(server.url(for: "/opds/v1.2/search")))
        let (url, results) = try pages.search("harbour lights", in: root, from: .network)
        XCTAssertEqual(url.absoluteString, server.baseURL.absoluteString + "opds/v1.2/series?search=harbour%20lights")
        XCTAssertEqual(results.title, "Series search for: harbour lights")
        XCTAssertEqual(results.navigation.map(\.title), ["Harbour Lights"])
    }

    func testKomgaOPDS2SearchTemplateFacetsAndComicBooks() throws {
        let base = URL(string: "https://komga.example/opds/v2/books/latest")!
        let feed = try FeedParser.parse(Data(F.komgaOPDS2Latest.utf8), url: base)
        XCTAssertEqual(feed.search, .template("https://komga.example/opds/v2/search?query={searchTerms}"))
        XCTAssertEqual(SearchTemplate.fill("https://komga.example/opds/v2/search?query={searchTerms}", with: "tin moon & co")?.absoluteString,
                       "https://komga.example/opds/v2/search?query=tin%20moon%20%26%20co")
        XCTAssertEqual(feed.facets.map(\.title), ["Unread", "All"])
        XCTAssertEqual(feed.facets.first?.group, "Read status")
        XCTAssertEqual(feed.facets.first?.count, 7)
        XCTAssertEqual(feed.facets.map(\.isActive), [false, true])
        XCTAssertEqual(feed.start?.absoluteString, "https://komga.example/opds/v2/catalog")
        XCTAssertEqual(feed.nextPage?.absoluteString, "https://komga.example/opds/v2/books/latest?page=1")
        XCTAssertEqual(feed.entries.map(\.contentTypes), [["application/vnd.comicbook+zip"], ["application/vnd.comicbook+zip"]])
    }

    private func serveKavita(_ server: LocalHTTPServer) {
        let prefix = "/api/opds/\(F.kavitaKey)"
        server.setResource(prefix, data: Data(F.kavitaRoot.utf8))
        server.setResource(prefix + "/search", data: Data(F.kavitaSearchDescription.utf8))
        server.setResource(prefix + "/recently-added", data: Data(F.kavitaRecentlyAdded.utf8))
        for page in 1...3 {
            let chapters = (0..<4).map { (id: page * 10 + $0, title: "Harbour Lights Ch \(page * 10 + $0)") }
            let feed = F.kavitaSeries(page: page, lastPage: 3, chapters: chapters)
            server.setResource(page == 1 ? prefix + "/series/1" : prefix + "/series/1?pageNumber=\(page)", data: Data(feed.utf8))
        }
        server.setResource(prefix + "/series?query=tin", data: Data(F.kavitaRecentlyAdded.utf8))
    }

    func testKavitaRootSubscribesThroughRecentlyAddedToASeriesAcrossPages() throws {
        let (store, _) = try TestSupport.store(for: self)
        let server = try TestSupport.server(for: self)
        serveKavita(server)
        let publication = try PublicationRefresher(store: store).subscribe(to: server.url(for: "/api/opds/\(F.kavitaKey)"))
        XCTAssertEqual(publication.title, "Kavita")
        XCTAssertEqual(publication.catalogFeedTitle, "Recently Added › Harbour Lights")
        let issues = try store.issues(publicationID: publication.id)
        XCTAssertEqual(issues.count, 12, "three pages through ?pageNumber=N")
        XCTAssertTrue(issues.allSatisfy { $0.contentURLs.first?.lastPathComponent.hasSuffix(".cbz") == true }, "\(issues.map(\.contentURLs))")
    }

    func testKavitaSearchAndOnePageAtATime() throws {
        let server = try TestSupport.server(for: self)
        serveKavita(server)
        let pages = CatalogPages()
        let prefix = "/api/opds/\(F.kavitaKey)"
        let first = try pages.page(at: server.url(for: prefix + "/series/1"), from: .network)
        XCTAssertEqual(first.entries.count, 4)
        XCTAssertEqual(first.entries.first?.contentTypes, ["application/x-cbz"])
        XCTAssertEqual(first.nextPage?.absoluteString, server.baseURL.absoluteString + "api/opds/\(F.kavitaKey)/series/1?pageNumber=2")
        let second = try pages.page(at: try XCTUnwrap(first.nextPage), from: .network)
        XCTAssertEqual(second.entries.first?.title, "Harbour Lights Ch 20")
        let (_, results) = try pages.search("tin", in: first, from: .network)
        XCTAssertEqual(results.navigation.map(\.title), ["Harbour Lights", "Tin Moon"])
    }

    func testSearchTemplatesAndDescriptions() throws {
        let base = URL(string: "http://127.0.0.1:8080/opds")!
        XCTAssertEqual(SearchTemplate.normalize("/opds/search/{searchTerms}?library_id=lib", base: base),
                       "http://127.0.0.1:8080/opds/search/{searchTerms}?library_id=lib", "calibre's direct template")
        XCTAssertEqual(SearchTemplate.fill("http://h/opds/search/{searchTerms}?library_id=lib", with: "small engines")?.absoluteString,
                       "http://h/opds/search/small%20engines?library_id=lib")
        XCTAssertEqual(SearchTemplate.fill("http://h/s?q={searchTerms}&page={startPage?}&n={count}", with: "x")?.absoluteString,
                       "http://h/s?q=x&page=&n=")
        XCTAssertEqual(SearchTemplate.normalize("search{?query,title,author}", base: base), "http://127.0.0.1:8080/search?query={searchTerms}")
        XCTAssertNil(SearchTemplate.normalize("/no/template", base: base))
        let description = Data("""
            <OpenSearchDescription xmlns="http://a9.com/-/spec/opensearch/1.1/">
              <Url type="text/html" template="https://example.com/web?q={searchTerms}"/>
              <Url type="application/atom+xml;profile=opds-catalog" template="/opds/search?q={searchTerms}&amp;p={startPage?}"/>
            </OpenSearchDescription>
            """.utf8)
        XCTAssertEqual(OpenSearchDescription.template(in: description, url: URL(string: "https://example.com/opensearch.xml")!),
                       "https://example.com/opds/search?q={searchTerms}&p={startPage?}", "the feed's Url, not the web page's")
        XCTAssertNil(OpenSearchDescription.template(in: Data("<html/>".utf8), url: base))
    }
}
