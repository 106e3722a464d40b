import Foundation
import LocalHTTPServer
import NewsstandTestSupport
import XCTest

/// Streamed pages (OPDS-PSE) in the real program: a Komga-like catalog on 127.0.0.1, browsed from the
/// subscriptions screen; a book's pages streamed one per screen and turned; back at the catalog after.
/// And `catalog` names an acquisition link without a type plainly.
final class PageStreamEndToEndTests: EndToEndTestCase {
    private func serveComics() throws -> LocalHTTPServer {
        let server = LocalHTTPServer(root: nil)
        try server.start()
        addTeardownBlock { server.stop() }
        let feed = """
        <?xml version="1.0" encoding="UTF-8"?>
        <feed xmlns="http://www.w3.org/2005/Atom" xmlns:opds="http://opds-spec.org/2010/catalog" xmlns:pse="http://vaemendis.net/opds-pse/ns">
          <id>latest</id><title>Latest books</title><updated>2026-02-01T10:00:00Z</updated>
          <entry><title>Harbour Lights 1</title><updated>2026-01-15T08:00:00Z</updated><id>b1</id>
            <link type="application/zip" rel="http://opds-spec.org/acquisition" href="/opds/books/b1/file.cbz"/>
            <link type="image/jpeg" rel="http://vaemendis.net/opds-pse/stream" href="/opds/books/b1/pages/{pageNumber}" pse:count="3"/></entry>
          <entry><title>Loose Leaves</title><updated>2026-01-10T08:00:00Z</updated><id>b2</id>
            <link rel="http://opds-spec.org/acquisition" href="/opds/books/b2/download"/></entry>
        </feed>
        """
        server.setResource("/opds/latest", data: Data(feed.utf8), contentType: "application/atom+xml;profile=opds-catalog")
        let covers = TestFiles.sampleLibrary.appendingPathComponent("covers")
        for (page, name) in ["2025-spring.png", "2025-autumn.jpg", "2026-spring.jpg"].enumerated() {
            server.setResource("/opds/books/b1/pages/\(page)", data: try Data(contentsOf: covers.appendingPathComponent(name)),
                               contentType: name.hasSuffix("png") ? "image/png" : "image/jpeg")
        }
        return server
    }

    func testABooksPagesAreStreamedAndTurnedThenTheCatalogIsAsItWas() throws {
        let server = try serveComics()
        let environment = TestEnvironment.environment(home: home)
        let feed = server.url(for: "/opds/latest").absoluteString
        let subscribed = try TestEnvironment.run(["subscribe", feed], environment: environment)
        XCTAssertEqual(subscribed.status, 0, subscribed.errors)
        let session = try TmuxSession(command: try TestEnvironment.binary().path, width: 100, height: 30, environment: environment)
        try session.waitFor(text: "Latest books")
        try session.send("s")
        try session.waitFor(text: "SUBSCRIPTIONS")
        try session.send("B")
        let catalog = try session.waitFor("the catalog page") { $0.contains("Harbour Lights 1") && $0.contains("3 pages to stream") }
        XCTAssertFalse(catalog.contains("/ search"), "this catalog offers no search: \(catalog)")
        try session.send("Enter")
        try session.waitFor(text: "Stream 3 pages")
        try session.send("Enter")
        try session.waitFor("the first page drawn") { $0.contains("Harbour Lights 1 · page 1 of 3") && !$0.contains("Fetching page") }
        try session.send("Right")
        try session.waitFor("the second page drawn") { $0.contains("page 2 of 3") && !$0.contains("Fetching page") }
        let asked = Set(server.settledLog().filter { $0.status == 200 }.map(\.target))
        XCTAssertTrue(asked.isSuperset(of: ["/opds/books/b1/pages/0", "/opds/books/b1/pages/1", "/opds/books/b1/pages/2"]),
                      "each page, and the next one ahead: \(asked)")
        try session.send("Escape")
        let back = try session.waitFor(text: "CATALOG · Latest books")
        XCTAssertTrue(back.contains("Loose Leaves"), back)
        try session.send("Escape", "Escape", "q")
        session.waitForExit()
    }

    func testCatalogNamesAnUntypedAcquisitionPlainly() throws {
        let server = try serveComics()
        let result = try TestEnvironment.run(["catalog", server.url(for: "/opds/latest").absoluteString], environment: TestEnvironment.environment(home: home))
        XCTAssertEqual(result.status, 0, result.errors)
        let line = try XCTUnwrap(result.output.split(separator: "\n").first { $0.contains("Loose Leaves") })
        XCTAssertTrue(line.hasSuffix("\tuntyped " + server.url(for: "/opds/books/b2/download").absoluteString), String(line))
        XCTAssertTrue(result.output.contains("page stream (3 pages)"), result.output)
    }
}
