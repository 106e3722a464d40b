import Foundation
import XCTest
import LocalHTTPServer
@testable import NewsstandCore

/// OPDS-PSE page streams: the template read from a feed (resolved against it, with `pse:count` and
/// `pse:lastRead`) and expanded per page; and a page fetched within its limits, with the catalog's login.
final class CatalogPageStreamTests: XCTestCase {
    private let base = URL(string: "https://comics.example/opds/v1.2/books/latest")!

    /// The page stream of a one-entry Atom feed whose stream link has `attributes` (namespace prefix `pse`).
    private func stream(href: String, attributes: String) throws -> CatalogPageStream? {
        let feed = """
        <?xml version="1.0" encoding="UTF-8"?>
        <feed xmlns="http://www.w3.org/2005/Atom" xmlns:pse="http://vaemendis.net/opds-pse/ns">
          <id>latest</id><title>Latest</title><updated>2026-02-01T10:00:00Z</updated>
          <entry><title>Harbour Lights 1</title><id>b1</id><updated>2026-01-01T00:00:00Z</updated>
            <link rel="http://opds-spec.org/acquisition" type="application/zip" href="/files/b1.cbz"/>
            <link rel="http://vaemendis.net/opds-pse/stream" type="image/jpeg" href="\(href)" \(attributes)/></entry>
        </feed>
        """
        return try FeedParser.parse(Data(feed.utf8), url: base).entries.first?.pageStream
    }

    func testPageNumberAndMaxWidthAreFilledInAndARelativeTemplateIsResolvedAgainstTheFeed() throws {
        let stream = try XCTUnwrap(try stream(href: "../books/b1/pages/{pageNumber}?width={maxWidth}&amp;zero_based=true", attributes: #"pse:count="24""#))
        XCTAssertEqual(stream.template, "https://comics.example/opds/v1.2/books/b1/pages/{pageNumber}?width={maxWidth}&zero_based=true")
        XCTAssertEqual(stream.pageCount, 24)
        XCTAssertEqual(stream.url(forPage: 0, maxWidth: 800)?.absoluteString, "https://comics.example/opds/v1.2/books/b1/pages/0?width=800&zero_based=true")
        XCTAssertEqual(stream.url(forPage: 23)?.absoluteString, "https://comics.example/opds/v1.2/books/b1/pages/23?width=1600&zero_based=true")
        XCTAssertNil(stream.url(forPage: 24), "pages count from 0")
        XCTAssertNil(stream.url(forPage: -1))
        XCTAssertEqual(stream.startPage, 0, "no pse:lastRead: the first page")
    }

    func testAStreamWithoutACountOrAPageNumberIsNoStream() throws {
        XCTAssertNil(try stream(href: "/books/b1/pages/{pageNumber}", attributes: ""), "no pse:count")
        XCTAssertNil(try stream(href: "/books/b1/pages/{pageNumber}", attributes: #"pse:count="0""#))
        XCTAssertNil(try stream(href: "/books/b1/pages/{pageNumber}", attributes: #"pse:count="many""#))
        XCTAssertNil(try stream(href: "/books/b1/pages/1", attributes: #"pse:count="5""#), "no {pageNumber}")
        XCTAssertNil(try stream(href: "/books/b1/pages/{pageNumber}", attributes: #"count="5""#), "count outside the PSE namespace")
    }

    func testOtherTemplateVariablesAreLeftOut() throws {
        let stream = try XCTUnwrap(try stream(href: "/books/{bookId}/pages/{pageNumber}?h={maxHeight}&amp;w={maxWidth}", attributes: #"pse:count="3""#))
        XCTAssertEqual(stream.url(forPage: 2, maxWidth: 640)?.absoluteString, "https://comics.example/books//pages/2?h=&w=640")
        let unresolved = CatalogPageStream(template: "https://comics.example/p/{pageNumber}.jpg?t={token}", pageCount: 2)
        XCTAssertEqual(unresolved.url(forPage: 1)?.absoluteString, "https://comics.example/p/1.jpg?t=", "a template given as it is")
    }

    func testLastReadCountsFromOneAndIsKeptWithinTheBook() throws {
        let stream = try XCTUnwrap(try stream(href: "/p/{pageNumber}", attributes: #"pse:count="10" pse:lastRead="4" pse:lastReadDate="2026-01-10T10:01:11Z""#))
        XCTAssertEqual(stream.lastRead, 4)
        XCTAssertEqual(stream.startPage, 3, "the fourth page, 3 counting from 0")
        XCTAssertEqual(CatalogPageStream(template: "x{pageNumber}", pageCount: 10, lastRead: 0).startPage, 0, "0: nothing read yet")
        XCTAssertEqual(CatalogPageStream(template: "x{pageNumber}", pageCount: 10, lastRead: 99).startPage, 9)
        XCTAssertEqual(CatalogPageStream(template: "x{pageNumber}", pageCount: 10, lastRead: -3).startPage, 0)
    }

    func testAPageIsFetchedWithTheLoginWithinItsSizeLimit() throws {
        let server = try TestSupport.server(for: self)
        server.faults.requiredLogin = RequiredLogin(scheme: .basic, realm: "Komga", user: "reader", password: "page-pw")
        let picture = Data([0xFF, 0xD8, 0xFF, 0xE0] + Array(repeating: 7, count: 100))
        server.setResource("/books/b1/pages/2?convert=jpeg", data: picture, contentType: "image/jpeg")
        server.setResource("/books/b1/pages/3?convert=jpeg", data: Data(count: 4096), contentType: "image/jpeg")
        let stream = CatalogPageStream(template: server.baseURL.absoluteString + "books/b1/pages/{pageNumber}?convert=jpeg", pageCount: 5)

        XCTAssertThrowsError(try stream.fetchPage(2, maxWidth: 800, maxBytes: 1024, client: HTTPClient(credentials: nil))) { error in
            guard case .loginRequired(_, let realm)? = error as? HTTPError else { return XCTFail("\(error)") }
            XCTAssertEqual(realm, "Komga")
        }
        let credentials = SessionCredentials(over: nil)
        credentials.remember(Credentials(user: "reader", password: "page-pw"), for: try XCTUnwrap(CredentialHost(url: server.baseURL)))
        let client = HTTPClient(credentials: credentials)
        XCTAssertEqual(try stream.fetchPage(2, maxWidth: 800, maxBytes: 1024, client: client), picture)
        let asked = try XCTUnwrap(server.settledLog().last)
        XCTAssertEqual(asked.target, "/books/b1/pages/2?convert=jpeg")
        XCTAssertTrue(asked.headers["authorization"]?.hasPrefix("Basic ") == true)
        XCTAssertTrue(asked.headers["accept"]?.hasPrefix("image/jpeg") == true, asked.headers["accept"] ?? "")
        XCTAssertThrowsError(try stream.fetchPage(3, maxWidth: 800, maxBytes: 1024, client: client)) { error in
            XCTAssertEqual("\(error)", "page 4 is larger than 1 KB (page size limit)")
        }
        XCTAssertThrowsError(try stream.fetchPage(5, maxWidth: 800, maxBytes: 1024, client: client)) { error in
            XCTAssertEqual("\(error)", "page 6 is not in the book (it has 5)")
        }
    }
}
