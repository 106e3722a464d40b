import Foundation
import XCTest
@testable import NewsstandCore
import LocalHTTPServer
import NewsstandTestSupport

/// A document fetched over http(s) reaches only the network; a local catalog only files below its folder.
/// Every kind of reference a document carries, pointed at a file (by `file://`, a bare path, a `../` escape or a
/// redirect), against real servers on 127.0.0.1 and a real library.
final class DocumentOriginTests: XCTestCase {
    private let remote = DocumentOrigin(documentURL: URL(string: "http://127.0.0.1:8080/feed.xml")!)

    /// A file on this machine that no feed from a server may reach: its bytes are recognisable.
    private func secretFile(named name: String = "private-book.epub") throws -> URL {
        let folder = try TestFiles.scratchFolder(for: self).appendingPathComponent("home/Documents")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent(name)
        try FileManager.default.copyItem(at: TestSupport.sampleIssue("2025-autumn"), to: file)
        return file
    }

    // MARK: The rule

    func testADocumentFromTheNetworkReachesOnlyHTTPAndHTTPS() {
        XCTAssertNil(remote.localFolder)
        XCTAssertNil(remote.refusal(of: URL(string: "http://example.com/a.epub")!))
        XCTAssertNil(remote.refusal(of: URL(string: "HTTPS://example.com/a.epub")!))
        for local in ["file:///etc/passwd", "file://localhost/etc/passwd", "FILE:///home/me/book.epub"] {
            XCTAssertEqual(remote.refusal(of: URL(string: local)!), "the feed points to a local file", local)
        }
        for (other, scheme) in [("ftp://example.com/a.epub", "ftp"), ("data:application/epub+zip;base64,UEsDBA==", "data"),
                                ("javascript:alert(1)", "javascript"), ("smb://server/share/a.epub", "smb"), ("sftp://h/a", "sftp")] {
            XCTAssertEqual(remote.refusal(of: URL(string: other)!),
                           "the feed points to an address of another kind (\(scheme):); only http and https are followed", other)
        }
        XCTAssertThrowsError(try remote.check(URL(string: "file:///etc/passwd")!)) { error in
            XCTAssertEqual("\(error)", "the feed points to a local file")
        }
        XCTAssertEqual(DocumentOrigin(documentURL: URL(string: "newsstand:library")!), .network, "the Library shelf is held to the network's rule")
    }

    func testALocalCatalogReachesFilesOnlyBelowItsFolder() throws {
        let scratch = try TestFiles.scratchFolder(for: self)
        let folder = scratch.appendingPathComponent("catalog")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("sub"), withIntermediateDirectories: true)
        let origin = DocumentOrigin(documentURL: folder.appendingPathComponent("catalog.plist"))
        XCTAssertNotNil(origin.localFolder)
        XCTAssertNil(origin.refusal(of: folder.appendingPathComponent("catalog.plist")), "the file the person named")
        XCTAssertNil(origin.refusal(of: folder.appendingPathComponent("a.epub")))
        XCTAssertNil(origin.refusal(of: folder.appendingPathComponent("sub/b.epub")))
        XCTAssertNil(origin.refusal(of: URL(string: "https://example.com/a.epub")!), "a local catalog may point to the web")

        let outside = "the feed points to a local file outside its folder"
        XCTAssertEqual(origin.refusal(of: scratch.appendingPathComponent("outside.epub")), outside)
        XCTAssertEqual(origin.refusal(of: URL(string: folder.absoluteString + "../outside.epub")!), outside, "../ escapes")
        XCTAssertEqual(origin.refusal(of: URL(string: folder.absoluteString + "sub/../../outside.epub")!), outside)
        XCTAssertEqual(origin.refusal(of: URL(string: folder.absoluteString + "%2e%2e/outside.epub")!), outside, "an escaped ../")
        XCTAssertEqual(origin.refusal(of: URL(fileURLWithPath: "/etc/passwd")), outside)
        XCTAssertEqual(origin.refusal(of: URL(string: scratch.absoluteString + "catalog-twin/a.epub")!), outside, "a folder named alike")
        try Data("outside".utf8).write(to: scratch.appendingPathComponent("outside.epub"))
        try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent("link"), withDestinationURL: scratch)
        XCTAssertEqual(origin.refusal(of: folder.appendingPathComponent("link/outside.epub")), outside, "a symbolic link out of the folder")
        XCTAssertEqual(origin.refusal(of: URL(string: "file://fileserver/share/a.epub")!), "the feed points to a file on another machine")
        XCTAssertNotNil(origin.refusal(of: URL(string: "ftp://example.com/a.epub")!))
    }

    /// A catalog whose folder is reached through a symbolic link keeps its own files, present or not yet there
    /// (a missing page says it cannot be read, not that it is outside), and still refuses what is outside.
    func testALocalCatalogReachedThroughALinkKeepsItsMissingFilesInside() throws {
        let scratch = try TestFiles.scratchFolder(for: self)
        let real = scratch.appendingPathComponent("real/catalog")
        try FileManager.default.createDirectory(at: real, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: scratch.appendingPathComponent("linked"), withDestinationURL: scratch.appendingPathComponent("real"))
        let folder = scratch.appendingPathComponent("linked/catalog")
        let origin = DocumentOrigin(documentURL: folder.appendingPathComponent("navigation.xml"))
        XCTAssertNil(origin.refusal(of: folder.appendingPathComponent("acquisition/main.xml")), "a missing page below the folder")
        XCTAssertNil(origin.refusal(of: real.appendingPathComponent("a.epub")), "the same folder by its real path")
        XCTAssertEqual(origin.refusal(of: scratch.appendingPathComponent("linked/elsewhere/a.epub")),
                       "the feed points to a local file outside its folder")
        XCTAssertEqual(origin.refusal(of: URL(string: folder.absoluteString + "missing/../../outside.epub")!),
                       "the feed points to a local file outside its folder")
    }

    /// A bare path is a path on the document's own server when the document came from one, and a file only in
    /// a local catalog, where it must stay below the folder.
    func testBarePathsAndEscapesResolveWithinTheirDocumentsOrigin() throws {
        let feed = URL(string: "http://127.0.0.1:8080/feeds/feed.xml")!
        XCTAssertEqual(CatalogParser.resolve("/etc/passwd", against: feed)?.absoluteString, "http://127.0.0.1:8080/etc/passwd")
        XCTAssertEqual(CatalogParser.resolve("../../../etc/passwd", against: feed)?.absoluteString, "http://127.0.0.1:8080/etc/passwd")
        let catalog = URL(fileURLWithPath: "/srv/catalog/catalog.plist")
        let local = DocumentOrigin(documentURL: catalog)
        for text in ["/etc/passwd", "../secret.epub", "sub/../../secret.epub"] {
            let url = try XCTUnwrap(CatalogParser.resolve(text, against: catalog))
            XCTAssertEqual(url.scheme, "file")
            XCTAssertEqual(local.refusal(of: url), "the feed points to a local file outside its folder", text)
        }
        XCTAssertNil(local.refusal(of: try XCTUnwrap(CatalogParser.resolve("issues/a.epub", against: catalog))))
    }

    // MARK: The places that read

    func testFetchersReadNoFileTheirOriginMayNotReach() throws {
        let secret = try secretFile()
        XCTAssertThrowsError(try ResourceFetcher.fetch(secret, from: remote)) { XCTAssertEqual("\($0)", "the feed points to a local file") }
        XCTAssertThrowsError(try ResourceFetcher.fetchConditionally(secret, from: remote, validators: nil)) {
            XCTAssertEqual("\($0)", "the feed points to a local file")
        }
        XCTAssertThrowsError(try CoverFileCache.fetch(secret, from: remote, validators: nil)) { XCTAssertEqual("\($0)", "the feed points to a local file") }
        let cache = CoverFileCache(directory: try TestFiles.scratchFolder(for: self).appendingPathComponent("covers"), revalidationInterval: 60)
        XCTAssertThrowsError(try cache.data(issueID: 1, url: secret, from: remote))
        XCTAssertTrue(TestFiles.listing(of: cache.directory).isEmpty, "nothing cached")
        XCTAssertThrowsError(try ResourceFetcher.fetch(URL(string: "ftp://127.0.0.1/feed.xml")!, from: remote)) {
            XCTAssertTrue("\($0)".hasPrefix("the feed points to an address of another kind (ftp:)"), "\($0)")
        }
        // The same file, named by a catalog in its own folder, is read.
        let own = DocumentOrigin(documentURL: secret.deletingLastPathComponent().appendingPathComponent("catalog.plist"))
        XCTAssertEqual(try ResourceFetcher.fetch(secret, from: own), try Data(contentsOf: secret))
    }

    func testARedirectToAFileIsRefusedAndNotRetried() throws {
        let secret = try secretFile()
        let server = try TestSupport.server(for: self)
        server.setResource("/feed.xml", data: Data("<rss/>".utf8))
        var plan = FaultPlan()
        plan.redirectTo = secret.absoluteString
        server.faults = plan
        XCTAssertThrowsError(try ResourceFetcher.fetch(server.url(for: "/feed.xml"), from: remote)) { error in
            XCTAssertEqual(error as? HTTPError, .refusedRedirect(host: "127.0.0.1", scheme: "file"))
            XCTAssertEqual("\(error)", "refused a redirect from 127.0.0.1 to a local file: only http and https are followed")
            XCTAssertEqual((error as? HTTPError)?.isTransient, false)
        }
        plan.redirectTo = "ftp://127.0.0.1/feed.xml"
        server.faults = plan
        XCTAssertThrowsError(try ResourceFetcher.fetch(server.url(for: "/feed.xml"), from: remote)) { error in
            XCTAssertEqual("\(error)", "refused a redirect from 127.0.0.1 to an address of another kind (ftp:): only http and https are followed")
        }

        // A cover redirected to the file is not read.
        XCTAssertThrowsError(try CoverFileCache.fetch(server.url(for: "/cover.png"), from: remote, validators: nil)) { error in
            XCTAssertEqual(error as? HTTPError, .refusedRedirect(host: "127.0.0.1", scheme: "ftp"))
        }
        plan.redirectTo = secret.absoluteString
        server.faults = plan
        XCTAssertThrowsError(try CoverFileCache.fetch(server.url(for: "/cover.png"), from: remote, validators: nil)) { error in
            XCTAssertEqual(error as? HTTPError, .refusedRedirect(host: "127.0.0.1", scheme: "file"))
        }

        // A download redirected to the file fails at once, with the reason, and copies nothing.
        let harness = try DownloadHarness.make(for: self)
        let issue = try harness.addIssue("redirected", content: [harness.server.url(for: "/issue.epub")])
        harness.server.faults = { var plan = FaultPlan(); plan.redirectTo = secret.absoluteString; return plan }()
        harness.queue.enqueue(issueID: issue.id)
        XCTAssertEqual(harness.outcome(of: issue.id),
                       .failed(issueID: issue.id, reason: "refused a redirect from 127.0.0.1 to a local file: only http and https are followed"))
        XCTAssertEqual(harness.retries(of: issue.id).count, 0, "not worth another attempt")
        XCTAssertFalse(FileManager.default.fileExists(atPath: harness.folder(of: issue).path))
        XCTAssertEqual(harness.partials, [])
    }

    // MARK: Every reference of a feed from the network

    /// An OPDS feed over http that points every kind of reference at a local file.
    private func hostileFeed(secret: URL, folder: URL) -> Data {
        let file = secret.absoluteString
        let dir = folder.absoluteString
        return Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <feed xmlns="http://www.w3.org/2005/Atom" xmlns:opds="http://opds-spec.org/2010/catalog"
                  xmlns:pse="http://vaemendis.net/opds-pse/ns" xmlns:media="http://search.yahoo.com/mrss/">
              <id>urn:hostile</id><title>Harbour Books</title><updated>2026-01-05T10:00:00Z</updated>
              <link rel="next" href="\(dir)next.xml" type="application/atom+xml;profile=opds-catalog;kind=acquisition"/>
              <link rel="start" href="\(dir)start.xml" type="application/atom+xml;profile=opds-catalog;kind=navigation"/>
              <link rel="search" href="\(dir)opensearch.xml" type="application/opensearchdescription+xml"/>
              <link rel="http://opds-spec.org/facet" href="\(dir)by-author.xml" title="Author" opds:facetGroup="Sort"/>
              <entry><id>enclosed</id><title>Enclosed</title><updated>2026-01-05T10:00:00Z</updated>
                <link rel="enclosure" href="\(file)" type="application/epub+zip"/></entry>
              <entry><id>acquired</id><title>Acquired</title><updated>2026-01-04T10:00:00Z</updated>
                <link rel="http://opds-spec.org/acquisition/open-access" href="\(file)" type="application/epub+zip"/></entry>
              <entry xml:base="\(dir)"><id>based</id><title>Based</title><updated>2026-01-03T10:00:00Z</updated>
                <link rel="enclosure" href="\(secret.lastPathComponent)" type="application/epub+zip"/></entry>
              <entry><id>pictured</id><title>Pictured</title><updated>2026-01-02T10:00:00Z</updated>
                <link rel="http://opds-spec.org/acquisition" href="issues/pictured.epub" type="application/epub+zip"/>
                <link rel="http://opds-spec.org/image" href="\(dir)cover.png" type="image/png"/>
                <link rel="http://opds-spec.org/image/thumbnail" href="\(dir)thumb.png" type="image/png"/>
                <media:thumbnail url="\(dir)thumb2.png"/>
                <link rel="http://vaemendis.net/opds-pse/stream" href="\(dir)pages/{pageNumber}.jpg" pse:count="3" type="image/jpeg"/></entry>
              <entry><id>shelf</id><title>More shelves</title><updated>2026-01-01T10:00:00Z</updated>
                <link rel="subsection" href="\(dir)shelf.xml" type="application/atom+xml;profile=opds-catalog;kind=navigation"/></entry>
              <entry><id>episode</id><title>Episode</title><updated>2025-12-31T10:00:00Z</updated>
                <link rel="alternate" href="\(dir)page.html" type="text/html"/>
                <link rel="enclosure" href="\(dir)episode.mp3" type="audio/mpeg"/>
                <content type="html">&lt;p&gt;Words&lt;/p&gt;</content></entry>
            </feed>
            """.utf8)
    }

    func testEveryReferenceOfAFeedFromTheNetworkToALocalFileIsRefused() throws {
        let secret = try secretFile()
        let folder = secret.deletingLastPathComponent()
        for name in ["next.xml", "start.xml", "opensearch.xml", "by-author.xml", "cover.png", "thumb.png", "thumb2.png", "shelf.xml",
                     "page.html", "episode.mp3"] {
            try FileManager.default.copyItem(at: secret, to: folder.appendingPathComponent(name))
        }
        let server = try TestSupport.server(for: self)
        server.setResource("/opds.xml", data: hostileFeed(secret: secret, folder: folder), contentType: "application/atom+xml")
        let url = server.url(for: "/opds.xml")
        let origin = DocumentOrigin(documentURL: url)

        // As parsed, the feed does point there: the checks below are what refuses.
        let parsed = try FeedParser.parse(try ResourceFetcher.fetch(url, from: origin), url: url)
        XCTAssertEqual(parsed.nextPage?.scheme, "file")
        XCTAssertEqual(parsed.navigation.first?.url.scheme, "file")

        let page = try CatalogPages().page(at: url, from: origin)
        XCTAssertNil(page.nextPage, "next")
        XCTAssertNil(page.start, "start")
        XCTAssertNil(page.search, "OpenSearch description")
        XCTAssertEqual(page.facets, [], "facets")
        XCTAssertEqual(page.navigation, [], "navigation")
        let episode = try XCTUnwrap(page.headlines.first { $0.title == "Episode" })
        XCTAssertNil(episode.link, "a link for the browser")
        XCTAssertNil(episode.mediaURL, "a file for the player")
        let pictured = try XCTUnwrap(page.entries.first { $0.name == "pictured" })
        XCTAssertNil(pictured.coverURL, "cover and thumbnails")
        XCTAssertNil(pictured.pageStream, "OPDS-PSE pages")
        XCTAssertEqual(pictured.contentURLs, [server.url(for: "/issues/pictured.epub")], "its web file stays")
        // The issues whose files are local stay listed, to say why they cannot be downloaded.
        XCTAssertEqual(Set(page.entries.map(\.name)), ["enclosed", "acquired", "based", "pictured"])
        XCTAssertEqual(page.entries.first { $0.name == "acquired" }?.acquisitions, [], "acquisition links are not offered")
        XCTAssertTrue(page.problems.contains("issue 'enclosed' (and 2 more): the feed points to a local file; it cannot be downloaded"),
                      "\(page.problems)")
        XCTAssertTrue(page.problems.contains { $0.hasPrefix("the next page (and ") && $0.hasSuffix(": the feed points to a local file") },
                      "\(page.problems)")

        // Subscribed and downloaded in a real library: refused, said so, nothing copied; the web issue downloads.
        let harness = try DownloadHarness.make(for: self)
        harness.server.setResource("/opds.xml", data: hostileFeed(secret: secret, folder: folder), contentType: "application/atom+xml")
        harness.server.setResource("/issues/pictured.epub", data: try Data(contentsOf: TestSupport.sampleIssue("2025-spring")),
                                   contentType: "application/epub+zip")
        let publication = try PublicationRefresher(store: harness.store).subscribe(to: harness.server.url(for: "/opds.xml"))
        XCTAssertTrue(publication.lastError?.contains("the feed points to a local file; it cannot be downloaded") == true,
                      publication.lastError ?? "no note")
        let issues = try harness.store.issues(publicationID: publication.id)
        XCTAssertEqual(issues.count, 4)
        for issue in issues { harness.queue.enqueue(issueID: issue.id) }
        for issue in issues {
            if issue.name == "pictured" {
                XCTAssertEqual(harness.outcome(of: issue.id), .installed(issueID: issue.id))
            } else {
                XCTAssertEqual(harness.outcome(of: issue.id), .failed(issueID: issue.id, reason: "the feed points to a local file"), issue.name)
                XCTAssertEqual(try harness.store.issue(id: issue.id)?.state, .failed(reason: "the feed points to a local file"))
                XCTAssertFalse(FileManager.default.fileExists(atPath: harness.folder(of: issue).path), issue.name)
                XCTAssertFalse(FileManager.default.fileExists(atPath: harness.paths.partialFile(issueID: issue.id, asset: 0).path), issue.name)
            }
        }
        let storedEpisode = try XCTUnwrap(try harness.store.headlines(publicationID: publication.id).first { $0.title == "Episode" })
        XCTAssertNil(storedEpisode.link)
        XCTAssertNil(storedEpisode.mediaURL)
        XCTAssertEqual(try Data(contentsOf: secret), try Data(contentsOf: TestSupport.sampleIssue("2025-autumn")), "the file is untouched")

        // A cover stored before this rule (or by any other path) is still never read for a feed from the network.
        let stored = try XCTUnwrap(try harness.store.upsertIssues([TestSupport.entry("old-cover", cover: folder.appendingPathComponent("cover.png"))],
                                                                  publicationID: publication.id).first { $0.name == "old-cover" })
        let covers = CoverArtService(store: harness.store, cacheDirectory: harness.paths.coverCacheDirectory) { _ in }
        XCTAssertThrowsError(try covers.coverData(issueID: stored.id)) { XCTAssertEqual("\($0)", "the feed points to a local file") }
        XCTAssertTrue(TestFiles.listing(of: harness.paths.coverCacheDirectory).isEmpty)
    }

    /// An OPDS-PSE stream's pages are fetched from the web only, whatever kept the stream.
    func testAPageStreamToLocalFilesFetchesNothing() throws {
        let secret = try secretFile(named: "0.jpg")
        let stream = CatalogPageStream(template: secret.deletingLastPathComponent().absoluteString + "{pageNumber}.jpg", pageCount: 3)
        XCTAssertEqual(stream.url(forPage: 0), secret)
        XCTAssertThrowsError(try stream.fetchPage(0, maxWidth: 800, maxBytes: 1 << 20, client: .shared)) {
            XCTAssertEqual("\($0)", "only pages on the web are streamed")
        }
    }

    /// A bare path in a feed from a server is a path on that server: asked of it, never read from this machine.
    func testABarePathInAFeedFromTheNetworkIsAskedOfItsServer() throws {
        let secret = try secretFile()
        let harness = try DownloadHarness.make(for: self)
        harness.server.setResource("/feed.rss", data: Data("""
            <rss version="2.0"><channel><title>Paths</title>
            <item><guid>bare</guid><title>Bare</title><enclosure url="\(secret.path)" type="application/epub+zip"/></item>
            </channel></rss>
            """.utf8), contentType: "application/rss+xml")
        let publication = try PublicationRefresher(store: harness.store).subscribe(to: harness.server.url(for: "/feed.rss"))
        let issue = try XCTUnwrap(try harness.store.issues(publicationID: publication.id).first)
        XCTAssertEqual(issue.contentURLs, [harness.server.url(for: secret.path)])
        harness.queue.enqueue(issueID: issue.id)
        guard case .failed(_, let reason)? = harness.outcome(of: issue.id) else { return XCTFail("\(harness.events(of: issue.id))") }
        XCTAssertTrue(reason.contains("404"), reason)
        XCTAssertEqual(harness.requests(secret.path).count, 1, "the server was asked for that path")
        XCTAssertFalse(FileManager.default.fileExists(atPath: harness.folder(of: issue).path))
    }

    /// `ftp:`, `data:`, `javascript:` and `smb:` references are no links at all: nothing carries them.
    func testOtherSchemesAreNeverFollowed() throws {
        let server = try TestSupport.server(for: self)
        var items = ""
        for (index, link) in ["ftp://127.0.0.1/a.epub", "data:application/epub+zip;base64,UEsDBAoAAAAAAA==", "javascript:alert(1)",
                              "smb://server/share/a.epub"].enumerated() {
            items += "<item><guid>i\(index)</guid><title>Item \(index)</title><link>\(link)</link>"
                + "<enclosure url=\"\(link)\" type=\"application/epub+zip\"/></item>"
        }
        server.setResource("/feed.rss", data: Data("<rss version=\"2.0\"><channel><title>Schemes</title>\(items)</channel></rss>".utf8))
        let url = server.url(for: "/feed.rss")
        let feed = try CatalogPages().page(at: url, from: DocumentOrigin(documentURL: url))
        let urls = feed.entries.flatMap(\.contentURLs) + feed.entries.compactMap(\.coverURL)
            + feed.headlines.compactMap(\.link) + feed.headlines.compactMap(\.mediaURL)
        XCTAssertEqual(urls.filter { !["http", "https"].contains($0.scheme ?? "") }, [])
        XCTAssertEqual(feed.headlines.count + feed.entries.count, 4, "the items are still listed")
    }

    // MARK: A local catalog

    func testALocalCatalogDownloadsItsOwnFilesButNotThoseOutsideItsFolder() throws {
        let scratch = try TestFiles.scratchFolder(for: self)
        let folder = scratch.appendingPathComponent("catalog")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: TestSupport.sampleIssue("2025-spring"), to: folder.appendingPathComponent("inside.epub"))
        let outside = scratch.appendingPathComponent("outside.epub")
        try FileManager.default.copyItem(at: TestSupport.sampleIssue("2025-autumn"), to: outside)
        let catalog = folder.appendingPathComponent("catalog.plist")
        try TestSupport.xmlPlist(["Title": "Local", "Issues": [
            TestSupport.catalogItem("inside", content: "inside.epub", cover: "../cover.png"),
            TestSupport.catalogItem("escape", content: "../outside.epub"),
            TestSupport.catalogItem("absolute", content: outside.path),
            TestSupport.catalogItem("url", content: outside.absoluteString),
        ]]).write(to: catalog)
        let harness = try DownloadHarness.make(for: self)
        let publication = try PublicationRefresher(store: harness.store).subscribe(to: catalog)
        XCTAssertTrue(publication.lastError?.contains("the feed points to a local file outside its folder; it cannot be downloaded") == true,
                      publication.lastError ?? "no note")
        XCTAssertTrue(publication.lastError?.contains("the cover of 'inside': the feed points to a local file outside its folder") == true,
                      publication.lastError ?? "no note")
        let issues = try harness.store.issues(publicationID: publication.id)
        XCTAssertEqual(Set(issues.map(\.name)), ["inside", "escape", "absolute", "url"])
        XCTAssertNil(issues.first { $0.name == "inside" }?.coverURL, "a cover up the tree")
        for issue in issues { harness.queue.enqueue(issueID: issue.id) }
        for issue in issues {
            if issue.name == "inside" {
                XCTAssertEqual(harness.outcome(of: issue.id), .installed(issueID: issue.id))
            } else {
                XCTAssertEqual(harness.outcome(of: issue.id),
                               .failed(issueID: issue.id, reason: "the feed points to a local file outside its folder"), issue.name)
                XCTAssertFalse(FileManager.default.fileExists(atPath: harness.folder(of: issue).path), issue.name)
            }
        }
        XCTAssertEqual(harness.server.requestLog, [])
    }

    func testALocalCatalogsPagesAndLinksStayBelowItsFolder() throws {
        let scratch = try TestFiles.scratchFolder(for: self)
        let folder = scratch.appendingPathComponent("catalog")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("<feed xmlns=\"http://www.w3.org/2005/Atom\"><title>Else</title></feed>".utf8).write(to: scratch.appendingPathComponent("else.xml"))
        let root = folder.appendingPathComponent("root.xml")
        try Data("""
            <feed xmlns="http://www.w3.org/2005/Atom"><title>Local</title>
              <link rel="next" href="../else.xml"/>
              <entry><id>in</id><title>In</title><updated>2026-01-01T00:00:00Z</updated>
                <link rel="subsection" href="sub/feed.xml" type="application/atom+xml;profile=opds-catalog;kind=acquisition"/></entry>
              <entry><id>out</id><title>Out</title><updated>2026-01-01T00:00:00Z</updated>
                <link rel="subsection" href="/etc/feed.xml" type="application/atom+xml;profile=opds-catalog;kind=acquisition"/></entry>
            </feed>
            """.utf8).write(to: root)
        let page = try CatalogPages().page(at: root, from: DocumentOrigin(documentURL: root))
        XCTAssertNil(page.nextPage, "../ out of the folder")
        XCTAssertEqual(page.navigation.map(\.title), ["In"])
        XCTAssertTrue(page.problems.contains("the next page (and 1 more): the feed points to a local file outside its folder"), "\(page.problems)")
        XCTAssertThrowsError(try CatalogPages().page(at: scratch.appendingPathComponent("else.xml"), from: DocumentOrigin(documentURL: root)))
    }
}
