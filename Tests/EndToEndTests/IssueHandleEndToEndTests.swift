import Foundation
import LocalHTTPServer
@testable import NewsstandCore
import NewsstandTestSupport
import XCTest

/// Names people can type: an OPDS catalog whose ids are `urn:uuid:…` (as calibre's are) gives issues names from
/// their titles and dates on the command line, kept across refreshes, and a library from before them gets them too.
final class IssueHandleEndToEndTests: EndToEndTestCase {
    private let smallEngines = "urn:uuid:4ca679e5-0b1c-4d7e-9f00-000000000001"
    private let olderEngines = "urn:uuid:4ca679e5-0b1c-4d7e-9f00-000000000002"

    /// An OPDS 1 acquisition feed titled "calibre" at /calibre.xml: (id, title, updated, sample issue) per entry.
    private func publish(_ server: LocalHTTPServer, _ entries: [(id: String, title: String, updated: String, issue: String)]) {
        let items = entries.map { entry in
            """
            <entry><title>\(entry.title)</title><id>\(entry.id)</id><updated>\(entry.updated)</updated>
            <link rel="http://opds-spec.org/acquisition" href="issues/\(entry.issue).epub" type="application/epub+zip"/></entry>
            """
        }
        let feed = """
            <?xml version="1.0" encoding="UTF-8"?>
            <feed xmlns="http://www.w3.org/2005/Atom" xmlns:opds="http://opds-spec.org/2010/catalog">
            <id>urn:uuid:00000000-0000-0000-0000-00000000feed</id><title>calibre</title><updated>2026-03-20T00:00:00Z</updated>
            \(items.joined(separator: "\n"))
            </feed>
            """
        server.setResource("/calibre.xml", data: Data(feed.utf8), contentType: "application/atom+xml;profile=opds-catalog;kind=acquisition")
    }

    private var firstCatalog: [(id: String, title: String, updated: String, issue: String)] {
        [(smallEngines, "Small Engines", "2026-03-14T12:00:00Z", "2025-autumn"),
         (olderEngines, "Small Engines", "2025-11-02T12:00:00Z", "2025-spring"),
         ("https://calibre.example/book/3", "Kettle Repairs", "2026-02-01T12:00:00Z", "2025-summer")]
    }

    private func listed(_ environment: [String: String]) throws -> [String: [String: Any]] {
        let listed = try TestEnvironment.run(["list", "--json"], environment: environment)
        XCTAssertEqual(listed.status, 0, listed.errors)
        let array = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(listed.output.utf8)) as? [[String: Any]])
        return Dictionary(uniqueKeysWithValues: array.map { ("\($0["publication"] as? String ?? "")/\($0["name"] as? String ?? "")", $0) })
    }

    func testAnOPDSCatalogWithUUIDIdsGetsNamesPeopleCanType() throws {
        let server = try startSampleServer()
        publish(server, firstCatalog)
        let environment = TestEnvironment.environment(home: home)
        let subscribed = try TestEnvironment.run(["subscribe", server.url(for: "calibre.xml").absoluteString], environment: environment)
        XCTAssertEqual(subscribed.status, 0, subscribed.errors)

        let list = try TestEnvironment.run(["list"], environment: environment)
        XCTAssertEqual(list.status, 0, list.errors)
        for line in ["calibre/small-engines-2026\t2026-03-14", "calibre/small-engines-2025\t2025-11-02", "calibre/kettle-repairs-2026\t2026-02-01"] {
            XCTAssertTrue(list.output.contains(line + "\t"), "list lacks \(line): \(list.output)")
        }
        XCTAssertFalse(list.output.contains("urn:"), list.output)
        var rows = try listed(environment)
        XCTAssertEqual(rows["calibre/small-engines-2026"]?["id"] as? String, smallEngines, "--json keeps the catalog's id")
        XCTAssertEqual(rows["calibre/kettle-repairs-2026"]?["id"] as? String, "https://calibre.example/book/3")

        let notYet = try TestEnvironment.run(["read", "small-engines-2026"], environment: environment)
        XCTAssertEqual(notYet.status, 1)
        XCTAssertTrue(notYet.errors.contains("run `newsstand download calibre/small-engines-2026` first"), notYet.errors)
        let download = try TestEnvironment.run(["download", "calibre/small-engines-2026"], environment: environment)
        XCTAssertEqual(download.status, 0, download.errors)
        let read = try TestEnvironment.run(["read", "small-engines-2026", "--plain", "--article", "1"], environment: environment)
        XCTAssertEqual(read.status, 0, read.errors)
        XCTAssertTrue(read.output.contains("金継ぎ"), read.output)
        for old in [smallEngines, "calibre/\(smallEngines)"] {
            let byID = try TestEnvironment.run(["read", old, "--toc"], environment: environment)
            XCTAssertEqual(byID.status, 0, "the catalog's id still names the issue: \(old): \(byID.errors)")
        }
        let found = try TestEnvironment.run(["search", "thermostat"], environment: environment)
        XCTAssertEqual(found.status, 0, found.errors)
        XCTAssertTrue(found.output.hasPrefix("calibre/small-engines-2026  Small Engines — 2. "), found.output)

        // The catalog renames the issue and adds one of the same title: the names already given stay.
        publish(server, [(smallEngines, "Small Engines: Spring Special", "2027-01-05T12:00:00Z", "2025-autumn"),
                         ("urn:uuid:4ca679e5-0b1c-4d7e-9f00-000000000004", "Small Engines", "2026-06-01T12:00:00Z", "2026-spring")]
                        + firstCatalog.dropFirst())
        let sync = try TestEnvironment.run(["sync"], environment: environment)
        XCTAssertEqual(sync.status, 0, sync.errors)
        XCTAssertTrue(sync.output.contains("calibre: 1 new issue"), sync.output)
        rows = try listed(environment)
        XCTAssertEqual(rows.count, 4, "\(rows.keys.sorted())")
        XCTAssertEqual(rows["calibre/small-engines-2026"]?["title"] as? String, "Small Engines: Spring Special")
        XCTAssertEqual(rows["calibre/small-engines-2026"]?["state"] as? String, "available")
        XCTAssertEqual(rows["calibre/small-engines-2026-06-01"]?["id"] as? String, "urn:uuid:4ca679e5-0b1c-4d7e-9f00-000000000004")
        XCTAssertEqual(try TestEnvironment.run(["read", "calibre/small-engines-2026", "--toc"], environment: environment).status, 0)
    }

    func testALibraryFromBeforeNamesGetsThemAndItsDownloadStaysReadable() throws {
        let server = try startSampleServer()
        publish(server, firstCatalog)
        let environment = TestEnvironment.environment(home: home)
        XCTAssertEqual(try TestEnvironment.run(["subscribe", server.url(for: "calibre.xml").absoluteString], environment: environment).status, 0)
        let download = try TestEnvironment.run(["download", smallEngines], environment: environment)
        XCTAssertEqual(download.status, 0, download.errors)
        let issues = home.appendingPathComponent(".local/share/newsstand/issues/calibre")
        let folders = try FileManager.default.contentsOfDirectory(atPath: issues.path)
        XCTAssertEqual(folders.count, 1)
        XCTAssertTrue(folders.first?.hasSuffix("-urn_uuid_4ca679e5-0b1c-4d7e-9f00-000000000001") == true, "named from the catalog's id: \(folders)")

        // Back to the schema before handles (version 8), as the previous Newsstand left it.
        let database = try SQLiteDatabase(path: home.appendingPathComponent(".local/share/newsstand/library.sqlite").path)
        try database.execute("DROP INDEX issues_by_handle; ALTER TABLE issues DROP COLUMN handle; PRAGMA user_version = 8;")
        // And without what later migrations added (10, 11 and 13's columns; 12 may run again).
        try database.execute("ALTER TABLE headlines DROP COLUMN media_url; ALTER TABLE headlines DROP COLUMN media_kind; ALTER TABLE headlines DROP COLUMN body;")
        try database.execute("ALTER TABLE publications DROP COLUMN catalog_root_url; ALTER TABLE publications DROP COLUMN catalog_feed_title;")
        try database.execute("ALTER TABLE publications DROP COLUMN account_id; ALTER TABLE publications DROP COLUMN account_stream; ALTER TABLE issues DROP COLUMN is_starred;")
        database.close()

        let list = try TestEnvironment.run(["list"], environment: environment)
        XCTAssertEqual(list.status, 0, list.errors)
        XCTAssertTrue(list.output.contains("calibre/small-engines-2026\t2026-03-14\tavailable\tSmall Engines"), list.output)
        XCTAssertTrue(list.output.contains("calibre/small-engines-2025\t"), list.output)
        let read = try TestEnvironment.run(["read", "small-engines-2026", "--plain", "--article", "1"], environment: environment)
        XCTAssertEqual(read.status, 0, read.errors)
        XCTAssertTrue(read.output.contains("金継ぎ"), "the issue downloaded before the names opens by its new one")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: issues.path), folders, "no folder moved")
    }
}
