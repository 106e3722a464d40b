import Foundation
import LocalHTTPServer
import NewsstandTestSupport
import XCTest

/// A feed from a server never makes Newsstand read a file on this machine, tried as a new user would.
final class DocumentOriginEndToEndTests: EndToEndTestCase {

    /// A feed served over http whose enclosure is a `file://` URL of an EPUB on this machine: the download is
    /// refused and says so; nothing is copied, installed or indexed; the feed's other issue and the rest of the
    /// library are as they were.
    func testAFeedFromTheNetworkCannotDownloadALocalFile() throws {
        let environment = TestEnvironment.environment(home: home, sample: true)
        let before = try rows(environment)
        XCTAssertEqual(before.count, 6, "the sample library")

        let privateBook = home.appendingPathComponent("Documents/private-book.epub")
        try FileManager.default.createDirectory(at: privateBook.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: TestEnvironment.sampleLibrary.appendingPathComponent("issues/2025-autumn.epub"), to: privateBook)
        let server = try startSampleServer()
        server.setResource("/feed.xml", data: Data("""
            <?xml version="1.0"?>
            <rss version="2.0"><channel><title>Harbour Notes</title>
            <item><title>Private</title><guid>private-book</guid><pubDate>Mon, 05 Jan 2026 10:00:00 GMT</pubDate>
              <enclosure url="\(privateBook.absoluteString)" type="application/epub+zip" length="52687"/></item>
            <item><title>Spring</title><guid>spring-from-the-web</guid><pubDate>Mon, 29 Dec 2025 10:00:00 GMT</pubDate>
              <enclosure url="issues/2025-spring.epub" type="application/epub+zip"/></item>
            </channel></rss>
            """.utf8), contentType: "application/rss+xml")

        let subscribe = try TestEnvironment.run(["subscribe", server.url(for: "feed.xml").absoluteString], environment: environment)
        XCTAssertEqual(subscribe.status, 0, subscribe.errors)
        XCTAssertTrue((subscribe.output + subscribe.errors).contains("the feed points to a local file"),
                      "subscribing says at once: \(subscribe.output) \(subscribe.errors)")

        let download = try TestEnvironment.run(["download", "private-book", "spring-from-the-web"], environment: environment)
        XCTAssertEqual(download.status, 1, download.errors)
        XCTAssertTrue(download.errors.contains("Private: download failed: the feed points to a local file"), download.errors)
        XCTAssertTrue(download.output.contains("Downloaded Spring."), "the feed's web issue downloads: \(download.output)")

        let after = try rows(environment)
        let refused = try XCTUnwrap(after.first { $0["name"] as? String == "private-book" })
        XCTAssertEqual(refused["state"] as? String, "failed")
        XCTAssertEqual(refused["failure"] as? String, "the feed points to a local file")
        XCTAssertEqual(after.first { $0["name"] as? String == "spring-from-the-web" }?["state"] as? String, "available")
        for row in before {
            let same = after.first { $0["publication"] as? String == row["publication"] as? String && $0["name"] as? String == row["name"] as? String }
            XCTAssertEqual(same?["state"] as? String, row["state"] as? String, "the sample's \(row["name"] ?? "?") is as it was")
        }

        // No file of the library holds the private book's bytes, and its words are found nowhere.
        let secret = try Data(contentsOf: privateBook)
        let library = home.appendingPathComponent(".local/share/newsstand")
        let files = FileManager.default.enumerator(at: library, includingPropertiesForKeys: [.fileSizeKey])?.compactMap { $0 as? URL } ?? []
        XCTAssertFalse(files.isEmpty)
        for file in files where (try? file.resourceValues(forKeys: [.fileSizeKey]).fileSize) == secret.count {
            XCTAssertNotEqual(try Data(contentsOf: file), secret, "\(file.path) is a copy of the private book")
        }
        let search = try TestEnvironment.run(["search", "金継ぎ"], environment: environment)
        XCTAssertFalse(search.output.contains("private-book") || search.output.contains("Private"), "indexed: \(search.output)")
        XCTAssertTrue(server.requestLog.allSatisfy { !$0.path.contains("private-book") }, "nothing asked of the server in its place")
    }

    private func rows(_ environment: [String: String]) throws -> [[String: Any]] {
        let listed = try TestEnvironment.run(["list", "--json"], environment: environment)
        XCTAssertEqual(listed.status, 0, listed.errors)
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(listed.output.utf8)) as? [[String: Any]])
    }
}
