import Foundation
import NewsstandTestSupport
import XCTest

/// calibre-web, a second real OPDS server beside calibre's: behind its login, its "Recently added" feed subscribes,
/// and a book without a publication date — calibre's `0101-01-01`, which calibre-web writes as `101-01-01` (its
/// strftime does not pad the year) — is listed with the date it was added (the entry's `updated`), shown and
/// sorted as that date, not as the year 101.
final class CalibreWebEndToEndTests: EndToEndTestCase {
    /// A copy of a sample issue with another title and no `dc:date`, so calibre gives it no publication date.
    private func undatedBook(in folder: URL) throws -> URL {
        let source = TestEnvironment.sampleLibrary.appendingPathComponent("issues/2025-spring.epub")
        let target = folder.appendingPathComponent("undated.epub")
        try TestFiles.python("""
            import re, sys, zipfile
            with zipfile.ZipFile(sys.argv[1]) as source, zipfile.ZipFile(sys.argv[2], "w") as target:
                for info in source.infolist():
                    data = source.read(info)
                    if info.filename.endswith(".opf"):
                        text = re.sub(r"<dc:date[^>]*>[^<]*</dc:date>", "", data.decode())
                        text = re.sub(r"(<dc:title[^>]*>)[^<]*", r"\\1Undated Almanac", text)
                        data = text.encode()
                    target.writestr(info, data)
            """, [source.path, target.path])
        return target
    }

    /// The feed as calibre-web serves it (HTTP Basic, through the venv's python), to see the placeholder is there.
    private func rawFeed(_ server: CalibreWebServer) throws -> String {
        let python = CalibreWebServer.environmentFolder.appendingPathComponent("bin/python3")
        let process = Process()
        process.executableURL = python
        process.arguments = ["-c", """
            import base64, sys, urllib.request
            request = urllib.request.Request(sys.argv[1])
            request.add_header("Authorization", "Basic " + base64.b64encode(sys.stdin.readline().strip().encode()).decode())
            sys.stdout.write(urllib.request.urlopen(request, timeout=30).read().decode())
            """, server.newestFeed.absoluteString]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        input.fileHandleForWriting.write(Data("\(server.user):\(server.password)\n".utf8))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "fetching calibre-web's feed")
        return String(decoding: data, as: UTF8.self)
    }

    func testABookWithoutAPublicationDateIsListedByWhenItWasAdded() throws {
        let scratch = try TestFiles.scratchFolder(for: self)
        let dated = TestEnvironment.sampleLibrary.appendingPathComponent("issues/2025-autumn.epub")
        let started = Date()
        let server = try CalibreWebServer(for: self, books: [try undatedBook(in: scratch), dated])
        let feed = try rawFeed(server)
        XCTAssertTrue(feed.contains("<published>101-01-01T00:00:00+00:00</published>"), "calibre-web's placeholder for no date:\n\(feed.prefix(3_000))")
        XCTAssertTrue(feed.contains("<published>2025-09-22"), feed)

        let environment = TestEnvironment.environment(home: home)
        let refused = try TestEnvironment.run(["subscribe", server.newestFeed.absoluteString], environment: environment)
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.errors.contains("asks for a login"), refused.errors)
        let login = try TestEnvironment.run(["login", server.opdsRoot.absoluteString, "--user", server.user, "--password-stdin"],
                                            input: server.password + "\n", environment: environment)
        XCTAssertEqual(login.status, 0, login.errors)
        let subscribed = try TestEnvironment.run(["subscribe", server.newestFeed.absoluteString], environment: environment)
        XCTAssertEqual(subscribed.status, 0, subscribed.errors)
        XCTAssertTrue(subscribed.output.contains(": 2 issues"), subscribed.output)

        let list = try TestEnvironment.run(["list", "--json"], environment: environment)
        XCTAssertEqual(list.status, 0, list.errors)
        let issues = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(list.output.utf8)) as? [[String: Any]], list.output)
        XCTAssertEqual(issues.count, 2, list.output)
        // Newest first: the undated book was added during this test, after the other was published.
        XCTAssertEqual(issues.first?["title"] as? String, "Undated Almanac", list.output)
        let undatedDate = try XCTUnwrap(issues.first?["date"] as? String)
        let added = try XCTUnwrap(ISO8601DateFormatter().date(from: undatedDate), undatedDate)
        XCTAssertEqual(added.timeIntervalSince(started), 0, accuracy: 600, "the date it was added (\(undatedDate)), not the year 101")
        XCTAssertTrue((issues.last?["date"] as? String)?.hasPrefix("2025-09-22") == true, list.output)

        let plain = try TestEnvironment.run(["list"], environment: environment)
        let row = try XCTUnwrap(plain.output.split(separator: "\n").first { $0.contains("Undated Almanac") }, plain.output)
        XCTAssertTrue(row.contains("\t\(undatedDate.prefix(10))\t"), "shown as the date it was added: \(row)")
        XCTAssertFalse(plain.output.contains("101-01-01") || list.output.contains("101-01-01"), plain.output)

        // The catalog browser's page says the same.
        let page = try TestEnvironment.run(["catalog", server.newestFeed.absoluteString, "--json"], environment: environment)
        XCTAssertEqual(page.status, 0, page.errors)
        XCTAssertFalse(page.output.contains("101-01-01"), page.output)
        let entries = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(page.output.utf8)) as? [String: Any])?["entries"] as? [[String: Any]],
                                    page.output)
        let entry = try XCTUnwrap(entries.first { $0["title"] as? String == "Undated Almanac" }, page.output)
        XCTAssertEqual((entry["date"] as? String)?.prefix(10), undatedDate.prefix(10), "\(entry)")
        XCTAssertFalse(page.output.contains(server.password))
    }
}
