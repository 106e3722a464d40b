import Foundation
import XCTest
import LocalHTTPServer
import NewsstandCore
import NewsstandImaging
import NewsstandTestSupport
import NewsstandUI
@testable import NewsstandRuntime

/// Streamed pages end to end but for the terminal: a Komga-like catalog behind a login on the test HTTP
/// server, its page stream read from the feed, pages fetched with the catalog's login at the URL the
/// template gives, decoded and drawn; a page in a format Newsstand cannot show says so; pages the reader
/// has moved past are skipped, not fetched.
final class PageStreamRunnerTests: XCTestCase {
    private let login = Credentials(user: "reader", password: "comic-pw")

    private func wait(until description: String, _ condition: () -> Bool) {
        let deadline = Date().addingTimeInterval(20)
        while !condition() && Date() < deadline { usleep(20_000) }
        XCTAssertTrue(condition(), "timed out waiting for \(description)")
    }

    /// A Komga-like server: one book of three pages — a JPEG, a WebP and a large PNG — behind a Basic login.
    private func komga() throws -> LocalHTTPServer {
        let server = LocalHTTPServer(root: nil)
        try server.start()
        addTeardownBlock { server.stop() }
        server.faults.requiredLogin = RequiredLogin(scheme: .basic, realm: "Komga", user: login.user, password: login.password)
        let feed = """
        <?xml version="1.0" encoding="UTF-8"?>
        <feed xmlns="http://www.w3.org/2005/Atom" xmlns:opds="http://opds-spec.org/2010/catalog" xmlns:pse="http://vaemendis.net/opds-pse/ns">
          <id>latest</id><title>Latest books</title><updated>2026-02-01T10:00:00Z</updated>
          <link type="application/atom+xml;profile=opds-catalog;kind=navigation" rel="start" href="/opds/v1.2/catalog"/>
          <entry><title>Harbour Lights 1</title><updated>2026-01-15T08:00:00Z</updated><id>b1</id>
            <link type="image/jpeg" rel="http://opds-spec.org/image" href="/opds/v1.2/books/b1/thumbnail"/>
            <link type="application/zip" rel="http://opds-spec.org/acquisition" href="/opds/v1.2/books/b1/file/b1.cbz"/>
            <link type="image/jpeg" rel="http://vaemendis.net/opds-pse/stream" href="b1/pages/{pageNumber}?zero_based=true&amp;width={maxWidth}"
                  pse:count="3" pse:lastRead="1"/></entry>
        </feed>
        """
        server.setResource("/opds/v1.2/books/latest", data: Data(feed.utf8), contentType: "application/atom+xml;profile=opds-catalog")
        let covers = TestFiles.sampleLibrary.appendingPathComponent("covers")
        server.setResource("/opds/v1.2/books/b1/pages/0?zero_based=true&width=480", data: try Data(contentsOf: covers.appendingPathComponent("2025-autumn.jpg")),
                           contentType: "image/jpeg")
        server.setResource("/opds/v1.2/books/b1/pages/1?zero_based=true&width=480", data: Data("RIFF\u{0}\u{1}\u{0}\u{0}WEBPVP8 ".utf8), contentType: "image/webp")
        server.setResource("/opds/v1.2/books/b1/pages/2?zero_based=true&width=480", data: try Data(contentsOf: covers.appendingPathComponent("2025-winter.png")),
                           contentType: "image/png")
        return server
    }

    func testPagesAreFetchedWithTheCatalogsLoginAtTheTemplatesURLAndDrawn() throws {
        let library = try TemporaryLibrary(for: self)
        let server = try komga()
        let inbox = MessageInbox()
        let runner = EffectRunner(store: library.store, paths: library.paths) { inbox.append($0) }
        let feedURL = server.url(for: "/opds/v1.2/books/latest")

        // Browsing the catalog asks for its login, as before.
        runner.perform(.loadFeed(feedURL))
        wait(until: "the catalog's login to be asked for") { !inbox.logins.isEmpty }
        let asked = try XCTUnwrap(inbox.logins.first)
        runner.perform([.saveLogin(host: asked.host, realm: asked.realm, credentials: login, remember: true), asked.retry])
        wait(until: "the feed") { !inbox.feeds.isEmpty }
        let feed = try XCTUnwrap(try inbox.feeds.first?.1.get())
        let stream = try XCTUnwrap(feed.entries.first?.pageStream)
        XCTAssertEqual(stream.template, server.baseURL.absoluteString + "opds/v1.2/books/b1/pages/{pageNumber}?zero_based=true&width={maxWidth}")
        XCTAssertEqual(stream.startPage, 0, "pse:lastRead 1: the first page")

        // The first page and the next, fetched ahead; the same login serves them.
        server.clearLog()
        let drawing = PageDrawing(columns: 60, rows: 20)
        let first = StreamedPageRequest(stream: stream, page: 0, readingPage: 0, drawing: drawing)
        let second = StreamedPageRequest(stream: stream, page: 1, readingPage: 0, drawing: drawing)
        runner.perform([.fetchStreamedPage(first), .fetchStreamedPage(second)])
        wait(until: "two pages") { inbox.streamedPages.count == 2 }
        let answers = inbox.streamedPages
        XCTAssertEqual(answers.map(\.0), [first, second])
        let art = try XCTUnwrap(try answers[0].1?.get())
        XCTAssertEqual(art.columns, 60)
        XCTAssertEqual(art.rows, 20)
        XCTAssertGreaterThan(art.lines.joined().filter { $0 != " " }.count, 100, "the picture is drawn")
        XCTAssertEqual(answers[1].1, .failure(ReaderFailure("page 2 is a WebP picture, which Newsstand cannot show")))
        let asks = server.settledLog().filter { $0.status == 200 }.map(\.target)
        XCTAssertEqual(asks, ["/opds/v1.2/books/b1/pages/0?zero_based=true&width=480", "/opds/v1.2/books/b1/pages/1?zero_based=true&width=480"],
                       "{pageNumber} from 0, {maxWidth} 8 pixels a column")
        XCTAssertTrue(server.settledLog().filter { $0.status == 200 }.allSatisfy { $0.headers["authorization"]?.hasPrefix("Basic ") == true })
        XCTAssertEqual(inbox.logins.count, 1, "no second login asked for")

        // Turned past before its turn came: a page is skipped, never fetched.
        server.clearLog()
        server.bytesPerSecond = 100_000
        let slow = StreamedPageRequest(stream: stream, page: 2, readingPage: 2, drawing: drawing)
        let passed = StreamedPageRequest(stream: stream, page: 0, readingPage: 0, drawing: drawing)
        runner.perform([.fetchStreamedPage(slow), .fetchStreamedPage(passed), .fetchStreamedPage(slow)])
        wait(until: "three more answers") { inbox.streamedPages.count == 5 }
        server.bytesPerSecond = nil
        let later = inbox.streamedPages.dropFirst(2)
        XCTAssertEqual(later.map(\.0), [slow, passed, slow])
        XCTAssertNil(later.dropFirst().first?.1, "the page passed was skipped")
        XCTAssertEqual(try later.first?.1?.get().columns, 60)
        XCTAssertFalse(server.settledLog().contains { $0.target.contains("pages/0") })
    }

    func testAPageBehindALoginAsksForItAndSaysSoInItsPlaceMeanwhile() throws {
        let library = try TemporaryLibrary(for: self)
        let server = try komga()
        let inbox = MessageInbox()
        let runner = EffectRunner(store: library.store, paths: library.paths) { inbox.append($0) }
        let stream = CatalogPageStream(template: server.baseURL.absoluteString + "opds/v1.2/books/b1/pages/{pageNumber}?zero_based=true&width={maxWidth}",
                                       pageCount: 3)
        let request = StreamedPageRequest(stream: stream, page: 0, readingPage: 0, drawing: PageDrawing(columns: 60, rows: 20))
        runner.perform(.fetchStreamedPage(request))
        wait(until: "the login to be asked for") { !inbox.logins.isEmpty && !inbox.streamedPages.isEmpty }
        let asked = try XCTUnwrap(inbox.logins.first)
        XCTAssertEqual(asked.host, "127.0.0.1:\(server.port)")
        XCTAssertEqual(asked.retry, .fetchStreamedPage(request))
        guard case .failure(let failure)? = inbox.streamedPages.first?.1 else { return XCTFail("the page says why it is missing") }
        XCTAssertTrue(failure.reason.hasPrefix("page 1 could not be fetched: 127.0.0.1 asks for a login"), failure.reason)

        runner.perform([.saveLogin(host: asked.host, realm: asked.realm, credentials: login, remember: false), asked.retry])
        wait(until: "the page fetched again") { inbox.streamedPages.count == 2 }
        XCTAssertEqual(try inbox.streamedPages.last?.1?.get().rows, 20)
    }
}

/// One page's failures, each said in plain words naming the page.
final class StreamedPageWorkTests: XCTestCase {
    func testAPageThatCannotBeFetchedOrDecodedSaysWhyAndTheWidthAskedForFollowsTheWindow() throws {
        let server = LocalHTTPServer(root: nil)
        try server.start()
        addTeardownBlock { server.stop() }
        server.setResource("/p/0", data: Data("<html>\u{1B}[2Joops</html>".utf8), contentType: "image/jpeg")
        let stream = CatalogPageStream(template: server.baseURL.absoluteString + "p/{pageNumber}", pageCount: 3)
        func page(_ number: Int) throws -> Result<TextArt, ReaderFailure> {
            let request = StreamedPageRequest(stream: stream, page: number, readingPage: number, drawing: PageDrawing(columns: 30, rows: 10))
            return try StreamedPageWork.page(request, client: HTTPClient(credentials: nil))
        }
        XCTAssertEqual(try page(0), .failure(ReaderFailure("page 1: the picture cannot be drawn: not a PNG or JPEG image")))
        guard case .failure(let missing) = try page(1) else { return XCTFail("no page 2 on the server") }
        XCTAssertTrue(missing.reason.hasPrefix("page 2 could not be fetched: 127.0.0.1 answered 404"), missing.reason)
        XCTAssertEqual(StreamedPageWork.maxWidth(forColumns: 10), 320)
        XCTAssertEqual(StreamedPageWork.maxWidth(forColumns: 98), 784)
        XCTAssertEqual(StreamedPageWork.maxWidth(forColumns: 500), 1600)
    }
}
