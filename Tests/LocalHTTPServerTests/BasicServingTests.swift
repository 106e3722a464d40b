import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NewsstandTestSupport
import XCTest
@testable import LocalHTTPServer
import Synchronization

final class BasicServingTests: XCTestCase {
    /// GET through URLSession, the way the app's downloader talks to the server.
    func testURLSessionGetsFullBodyAndHeaders() throws {
        let server = try makeServer(self)
        let payload = TestFiles.pseudoRandomData(count: 300_000)
        server.setResource("/issues/one.epub", data: payload, contentType: "application/epub+zip", etag: "\"v1\"")
        XCTAssertNotEqual(server.port, 0)
        XCTAssertEqual(server.baseURL.absoluteString, "http://127.0.0.1:\(server.port)/")

        let configuration = URLSessionConfiguration.ephemeral
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        let session = URLSession(configuration: configuration)
        defer { session.invalidateAndCancel() }
        let done = expectation(description: "download")
        nonisolated(unsafe) var received: (Data?, URLResponse?, Error?)
        session.dataTask(with: server.url(for: "/issues/one.epub")) { data, response, error in
            received = (data, response, error)
            done.fulfill()
        }.resume()
        wait(for: [done], timeout: 20)

        XCTAssertNil(received.2)
        let http = try XCTUnwrap(received.1 as? HTTPURLResponse)
        XCTAssertEqual(http.statusCode, 200)
        XCTAssertEqual(received.0, payload)
        XCTAssertEqual(http.value(forHTTPHeaderField: "Content-Type"), "application/epub+zip")
        XCTAssertEqual(http.value(forHTTPHeaderField: "ETag"), "\"v1\"")
        XCTAssertEqual(http.value(forHTTPHeaderField: "Accept-Ranges"), "bytes")
        XCTAssertEqual(http.value(forHTTPHeaderField: "Content-Length"), "300000")
        XCTAssertNotNil(http.value(forHTTPHeaderField: "Last-Modified").flatMap(HTTPDate.parse))
    }

    /// URLSession reports a dropped connection as an error rather than a short success.
    func testURLSessionSeesDroppedConnectionAsError() throws {
        let server = try makeServer(self)
        server.setResource("/issue.epub", data: TestFiles.pseudoRandomData(count: 500_000))
        var plan = FaultPlan()
        plan.dropConnectionAfterBytes = 100_000
        server.faults = plan
        let session = URLSession(configuration: .ephemeral)
        defer { session.invalidateAndCancel() }
        let done = expectation(description: "download")
        nonisolated(unsafe) var received: (Data?, Error?)
        session.dataTask(with: server.url(for: "/issue.epub")) { data, _, error in
            received = (data, error)
            done.fulfill()
        }.resume()
        wait(for: [done], timeout: 20)
        XCTAssertNotNil(received.1, "got \(received.0?.count ?? -1) bytes and no error")
    }

    func testRawGetHasHeadersAndExactBody() throws {
        let server = try makeServer(self)
        let modified = Date(timeIntervalSince1970: 1_700_000_000)
        server.setResource("feed.xml", data: Data("<rss/>".utf8), contentType: "application/rss+xml", lastModified: modified)
        let response = try RawHTTP.request(port: server.port, "GET", "/feed.xml")
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.body, Data("<rss/>".utf8))
        XCTAssertEqual(response.contentLength, 6)
        XCTAssertEqual(response.headers["content-type"], "application/rss+xml")
        XCTAssertEqual(response.headers["last-modified"], "Tue, 14 Nov 2023 22:13:20 GMT")
        XCTAssertEqual(response.headers["connection"], "close")
        XCTAssertNotNil(response.headers["etag"])
    }

    func testHeadSendsHeadersWithoutBody() throws {
        let server = try makeServer(self)
        server.setResource("/big.bin", data: TestFiles.pseudoRandomData(count: 12_345))
        let response = try RawHTTP.request(port: server.port, "HEAD", "/big.bin")
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.contentLength, 12_345)
        XCTAssertEqual(response.headers["accept-ranges"], "bytes")
        XCTAssertTrue(response.body.isEmpty)
        XCTAssertEqual(server.requestLog.last?.method, "HEAD")
        XCTAssertEqual(server.requestLog.last?.bodyBytesSent, 0)
    }

    func testMissingResourceIs404AndRemovedResourceDisappears() throws {
        let server = try makeServer(self)
        XCTAssertEqual(try RawHTTP.request(port: server.port, "GET", "/nothing-here").status, 404)
        server.setResource("/x", data: Data("x".utf8))
        XCTAssertEqual(try RawHTTP.request(port: server.port, "GET", "/x").status, 200)
        server.removeResource("/x")
        XCTAssertEqual(try RawHTTP.request(port: server.port, "GET", "/x").status, 404)
    }

    func testOtherMethodsAre405AndGarbageIs400() throws {
        let server = try makeServer(self)
        server.setResource("/x", data: Data("x".utf8))
        let post = try RawHTTP.request(port: server.port, "POST", "/x")
        XCTAssertEqual(post.status, 405)
        XCTAssertEqual(post.headers["allow"], "GET, HEAD")

        let fd = try RawHTTP.connect(port: server.port)
        defer { close(fd) }
        RawHTTP.send(fd, "NONSENSE\r\n\r\n")
        XCTAssertEqual(try RawHTTP.parse(RawHTTP.readAll(fd)).status, 400)
    }

    func testQueryStringAndPercentEncodingAreHandled() throws {
        let server = try makeServer(self)
        server.setResource("/a b.epub", data: Data("spaced".utf8))
        let response = try RawHTTP.request(port: server.port, "GET", "/a%20b.epub?token=1")
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.body, Data("spaced".utf8))
        XCTAssertEqual(server.requestLog.last?.path, "/a b.epub")
        XCTAssertEqual(server.url(for: "/a b.epub").absoluteString, "http://127.0.0.1:\(server.port)/a%20b.epub")
        XCTAssertEqual(server.url(for: "a b.epub"), server.url(for: "/a b.epub"))
    }

    /// A 3 MiB file under root is streamed intact, typed by extension, with a size+mtime ETag.
    func testServesFilesFromRoot() throws {
        let root = try TestFiles.scratchFolder(for: self)
        let payload = TestFiles.pseudoRandomData(count: 3 * 1024 * 1024 + 17)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("issues"), withIntermediateDirectories: true)
        try payload.write(to: root.appendingPathComponent("issues/March 2024.epub"))
        try Data("<plist/>".utf8).write(to: root.appendingPathComponent("catalog.plist"))
        try Data([0xFF, 0xD8]).write(to: root.appendingPathComponent("cover.JPG"))
        try Data("?".utf8).write(to: root.appendingPathComponent("notes.unknownext"))
        let server = try makeServer(self, root: root)

        let file = try RawHTTP.request(port: server.port, "GET", "/issues/March%202024.epub")
        XCTAssertEqual(file.status, 200)
        XCTAssertEqual(file.headers["content-type"], "application/epub+zip")
        XCTAssertEqual(file.contentLength, payload.count)
        XCTAssertTrue(file.body == payload, "streamed body differs (\(file.body.count) bytes)")
        let etag = try XCTUnwrap(file.headers["etag"])
        XCTAssertTrue(etag.hasPrefix("\"\(String(payload.count, radix: 16))-") && etag.hasSuffix("\""), etag)
        XCTAssertNotNil(file.headers["last-modified"].flatMap(HTTPDate.parse))
        XCTAssertEqual(server.requestLog.last?.bodyBytesSent, payload.count)

        XCTAssertEqual(try RawHTTP.request(port: server.port, "GET", "/catalog.plist").headers["content-type"], "application/x-plist")
        XCTAssertEqual(try RawHTTP.request(port: server.port, "GET", "/cover.JPG").headers["content-type"], "image/jpeg")
        XCTAssertEqual(try RawHTTP.request(port: server.port, "GET", "/notes.unknownext").headers["content-type"],
                       "application/octet-stream")
        XCTAssertEqual(try RawHTTP.request(port: server.port, "GET", "/issues").status, 404, "directories are not served")
        XCTAssertEqual(try RawHTTP.request(port: server.port, "GET", "/issues/missing.epub").status, 404)

        let range = try RawHTTP.request(port: server.port, "GET", "/issues/March%202024.epub", headers: ["Range": "bytes=1000000-"])
        XCTAssertEqual(range.status, 206)
        XCTAssertEqual(range.body, payload[1_000_000...])

        // The file's ETag changes when the file does.
        try TestFiles.pseudoRandomData(count: 10, seed: 7).write(to: root.appendingPathComponent("issues/March 2024.epub"))
        let changed = try RawHTTP.request(port: server.port, "HEAD", "/issues/March%202024.epub")
        XCTAssertNotEqual(changed.headers["etag"], etag)
        XCTAssertEqual(changed.contentLength, 10)
    }

    func testPathTraversalIsRefused() throws {
        let outside = try TestFiles.scratchFolder(for: self)
        try Data("secret".utf8).write(to: outside.appendingPathComponent("secret.txt"))
        let root = try TestFiles.scratchFolder(for: self)
        try Data("public".utf8).write(to: root.appendingPathComponent("public.txt"))
        try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("escape.txt"),
                                                   withDestinationURL: outside.appendingPathComponent("secret.txt"))
        let server = try makeServer(self, root: root)

        for target in ["/../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/sub/../../etc/passwd",
                       "/..%2f..%2fetc%2fpasswd", "/../\(outside.lastPathComponent)/secret.txt", "/escape.txt"] {
            let response = try RawHTTP.request(port: server.port, "GET", target)
            XCTAssertTrue([403, 404].contains(response.status), "\(target) answered \(response.status)")
            XCTAssertFalse(String(decoding: response.body, as: UTF8.self).contains("secret"), target)
            XCTAssertFalse(String(decoding: response.body, as: UTF8.self).contains("root:"), target)
        }
        XCTAssertEqual(try RawHTTP.request(port: server.port, "GET", "/../etc/passwd").status, 403)
        XCTAssertEqual(try RawHTTP.request(port: server.port, "GET", "/escape.txt").status, 403)
        XCTAssertEqual(try RawHTTP.request(port: server.port, "GET", "/./public.txt").body, Data("public".utf8))
    }

    func testResourcesTakePrecedenceOverFilesAndServerWithoutRootServesNoFiles() throws {
        let root = try TestFiles.scratchFolder(for: self)
        try Data("file".utf8).write(to: root.appendingPathComponent("a.txt"))
        let server = try makeServer(self, root: root)
        server.setResource("/a.txt", data: Data("memory".utf8))
        XCTAssertEqual(try RawHTTP.request(port: server.port, "GET", "/a.txt").body, Data("memory".utf8))
        server.removeResource("/a.txt")
        XCTAssertEqual(try RawHTTP.request(port: server.port, "GET", "/a.txt").body, Data("file".utf8))

        let bare = try makeServer(self)
        XCTAssertEqual(try RawHTTP.request(port: bare.port, "GET", "/etc/passwd").status, 404)
    }

    func testConcurrentClientsAreServed() throws {
        let server = try makeServer(self)
        let payload = TestFiles.pseudoRandomData(count: 1_000_000)
        server.setResource("/p", data: payload)
        let port = server.port
        let results = LockedCounter()
        DispatchQueue.concurrentPerform(iterations: 16) { _ in
            if let response = try? RawHTTP.request(port: port, "GET", "/p"), response.body == payload { results.increment() }
        }
        XCTAssertEqual(results.value, 16)
        XCTAssertEqual(server.requestLog.count, 16)
    }
}

/// A thread-safe counter for concurrent test clients.
final class LockedCounter: Sendable {
    private let count = Mutex(0)
    func increment() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}
