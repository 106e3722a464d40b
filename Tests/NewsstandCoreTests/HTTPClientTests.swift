import Foundation
import XCTest
import LocalHTTPServer
@testable import NewsstandCore

/// The client's everyday work: fetching, events, conditional requests, sinks, cancelling, many at once.
final class HTTPClientTests: XCTestCase {
    private let feed = Data("<feed xmlns=\"http://www.w3.org/2005/Atom\"><title>T</title></feed>".utf8)

    func testFetchesASmallResourceWithTheClientsConventions() throws {
        let server = try TestSupport.server(for: self)
        server.setResource("/feed.xml", data: feed, contentType: "application/atom+xml")
        let response = try HTTPTestSupport.client().fetch(HTTPTestSupport.request(server.url(for: "/feed.xml"), limits: .feed))
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.body, feed)
        XCTAssertEqual(response.head.header("Content-Type"), "application/atom+xml")
        XCTAssertEqual(response.head.reason, "OK")
        XCTAssertEqual(response.head.url, server.url(for: "/feed.xml"))
        let sent = try XCTUnwrap(server.log(atLeast: 1).last?.headers)
        XCTAssertEqual(sent["user-agent"], "Newsstand/\(NewsstandVersion.string)")
        let encodings = Set((sent["accept-encoding"] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        XCTAssertTrue(encodings.isSuperset(of: ["gzip", "deflate"]), "\(encodings)")
        XCTAssertNil(sent["authorization"])
    }

    func testHeadAsksWithoutABody() throws {
        let server = try TestSupport.server(for: self)
        server.setResource("/issue.epub", data: TestFiles.pseudoRandomData(count: 100_000))
        let response = try HTTPTestSupport.client().fetch(HTTPTestSupport.request(server.url(for: "/issue.epub"), method: .head))
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.head.contentLength, 100_000)
        XCTAssertTrue(response.body.isEmpty)
        XCTAssertEqual(server.log(atLeast: 1).last?.method, "HEAD")
    }

    func testConditionalRequestGets304AsAnAnswerNotAnError() throws {
        let server = try TestSupport.server(for: self)
        server.setResource("/feed.xml", data: feed, etag: "v1")
        let client = HTTPTestSupport.client()
        let first = try client.fetch(HTTPTestSupport.request(server.url(for: "/feed.xml")))
        let etag = try XCTUnwrap(first.head.header("ETag"))
        let second = try client.fetch(HTTPTestSupport.request(server.url(for: "/feed.xml"), headers: ["If-None-Match": etag]))
        XCTAssertEqual(second.status, 304)
        XCTAssertTrue(second.body.isEmpty)
        XCTAssertEqual(server.log(atLeast: 2).last?.headers["if-none-match"], "\"v1\"")
    }

    func testAnErrorStatusFailsWithThePlainStatusAndNoBody() throws {
        let server = try TestSupport.server(for: self)
        let sink = HTTPBufferSink(capacity: 1 << 20)
        let result = HTTPTestSupport.run(HTTPTestSupport.client(), HTTPTestSupport.request(server.url(for: "/missing.xml")), sink: sink)
        guard case .status(let head)? = result.error else { return XCTFail("\(result.events)") }
        XCTAssertEqual(head.status, 404)
        XCTAssertEqual(result.error?.description, "127.0.0.1 answered 404 Not Found for /missing.xml")
        XCTAssertEqual(result.error?.isTransient, false)
        XCTAssertEqual(sink.receivedBytes, 0, "an error page never reaches the sink")
        XCTAssertNil(result.head, "no .response for a failure")

        var plan = FaultPlan()
        plan.failFirstRequests = (count: 1, status: 503, retryAfter: 7)
        server.faults = plan
        server.setResource("/feed.xml", data: feed)
        let busy = HTTPTestSupport.run(HTTPTestSupport.client(), HTTPTestSupport.request(server.url(for: "/feed.xml")), sink: sink)
        guard case .status(let busyHead)? = busy.error else { return XCTFail("\(busy.events)") }
        XCTAssertEqual(busyHead.header("Retry-After"), "7")
        XCTAssertEqual(busy.error?.isTransient, true)
    }

    func testEventsComeInOrderWithProgress() throws {
        let server = try TestSupport.server(for: self)
        let payload = TestFiles.pseudoRandomData(count: 600_000)
        server.setResource("/issue.pdf", data: payload, contentType: "application/pdf")
        server.bytesPerSecond = 2_000_000
        let sink = HTTPBufferSink(capacity: 1 << 20)
        let result = HTTPTestSupport.run(HTTPTestSupport.client(), HTTPTestSupport.request(server.url(for: "/issue.pdf")), sink: sink)
        XCTAssertTrue(result.isFinished, "\(result.events.last!)")
        guard case .response(let head)? = result.events.first else { return XCTFail("\(result.events)") }
        XCTAssertEqual(head.status, 200)
        XCTAssertEqual(head.contentLength, 600_000)
        let progress = result.events.compactMap { event -> (Int64, Int64?)? in
            if case let .progress(received, expected) = event { return (received, expected) }
            return nil
        }
        XCTAssertGreaterThanOrEqual(progress.count, 2, "about 0.3 s at 2 MB/s: several reports")
        XCTAssertEqual(progress.map(\.0), progress.map(\.0).sorted())
        XCTAssertEqual(progress.last?.0, 600_000)
        XCTAssertEqual(progress.last?.1, 600_000)
        XCTAssertEqual(sink.data, payload)
    }

    func testFileSinkWritesTheBodyInBlocks() throws {
        let server = try TestSupport.server(for: self)
        let payload = TestFiles.pseudoRandomData(count: 3_500_000)
        server.setResource("/issue.epub", data: payload)
        let folder = try TestFiles.scratchFolder(for: self)
        let file = folder.appendingPathComponent("issue.partial")
        try Data("kept:".utf8).write(to: file)
        let handle = try FileHandle(forWritingTo: file)
        try handle.seekToEnd()
        let sink = HTTPFileSink(fileHandle: handle, label: "the download", blockSize: 1 << 20)
        let result = HTTPTestSupport.run(HTTPTestSupport.client(), HTTPTestSupport.request(server.url(for: "/issue.epub")), sink: sink)
        try handle.close()
        XCTAssertTrue(result.isFinished, "\(result.events.last!)")
        XCTAssertEqual(sink.bytesWritten, 3_500_000)
        XCTAssertEqual(try Data(contentsOf: file), Data("kept:".utf8) + payload)
    }

    func testFileSinkFailureFailsTheTransferInItsWords() throws {
        let server = try TestSupport.server(for: self)
        server.setResource("/issue.epub", data: TestFiles.pseudoRandomData(count: 200_000))
        let handle = try XCTUnwrap(FileHandle(forReadingAtPath: "/dev/null"))  // writing to it fails
        let sink = HTTPFileSink(fileHandle: handle, label: "the download", blockSize: 64 << 10)
        let result = HTTPTestSupport.run(HTTPTestSupport.client(), HTTPTestSupport.request(server.url(for: "/issue.epub")), sink: sink)
        guard case .sink(let reason)? = result.error else { return XCTFail("\(result.events)") }
        XCTAssertTrue(reason.hasPrefix("cannot write the download: "), reason)
    }

    func testCancelStopsTheSinkAtOnceAndEndsWithCancelled() throws {
        let server = try TestSupport.server(for: self)
        var plan = FaultPlan()
        plan.endlessBody = true
        server.faults = plan
        let sink = HTTPBufferSink(capacity: 256 << 20)
        let log = EventLog<HTTPEvent>()
        let transfer = HTTPTestSupport.client().start(HTTPTestSupport.request(server.url(for: "/endless")), sink: sink) { log.append($0) }
        XCTAssertTrue(log.wait(timeout: 10) { $0.contains { if case .progress = $0 { true } else { false } } })
        transfer.cancel()
        let heldAtCancel = sink.receivedBytes
        XCTAssertTrue(transfer.isCancelled)
        XCTAssertTrue(log.wait(timeout: 5) { $0.contains(where: \.isTerminal) })
        usleep(100_000)
        XCTAssertEqual(sink.receivedBytes, heldAtCancel, "nothing reaches the sink once cancel() returns")
        XCTAssertEqual(log.all.last, .failed(.cancelled))
        XCTAssertEqual(log.all.filter(\.isTerminal).count, 1)
        transfer.cancel()  // again: harmless
    }

    /// A cancel from another thread while the transfer is ending must still leave exactly one end: the client's own
    /// (finished) or `.failed(.cancelled)`. A cancel that came between the loop's check and its event once dropped the
    /// event while its command found the transfer gone, so the transfer never ended (a download hung for good).
    func testACancelRacingTheEndStillLeavesExactlyOneEnd() throws {
        let server = try TestSupport.server(for: self)
        server.keepsConnectionsAlive = true
        server.setResource("/small.xml", data: feed, contentType: "application/atom+xml")
        let client = HTTPTestSupport.client()
        var logs: [EventLog<HTTPEvent>] = []
        for round in 0..<25 {
            var batch: [(HTTPTransfer, EventLog<HTTPEvent>)] = []
            for _ in 0..<20 {
                let log = EventLog<HTTPEvent>()
                batch.append((client.start(HTTPTestSupport.request(server.url(for: "/small.xml")), sink: HTTPBufferSink(capacity: 64 << 10)) {
                    log.append($0)
                }, log))
            }
            // Cancels spread over the time the small answers take to end, from other threads.
            for (index, (transfer, _)) in batch.enumerated() {
                DispatchQueue.global().asyncAfter(deadline: .now() + .microseconds((index * 97 + round * 31) % 1500)) { transfer.cancel() }
            }
            logs += batch.map(\.1)
        }
        for (index, log) in logs.enumerated() {
            XCTAssertTrue(log.wait(timeout: 10) { $0.contains(where: \.isTerminal) }, "transfer \(index) never ended: \(log.all)")
            usleep(1000)
            XCTAssertEqual(log.all.filter(\.isTerminal).count, 1, "transfer \(index): \(log.all)")
        }
    }

    func testManyConcurrentFetchesShareAFewKeptAliveConnections() throws {
        let server = try TestSupport.server(for: self)
        server.keepsConnectionsAlive = true
        let count = 200
        for index in 0..<count {
            server.setResource("/feeds/\(index).xml", data: Data("<feed><id>\(index)</id></feed>".utf8), contentType: "application/atom+xml")
        }
        let client = HTTPTestSupport.client()
        let group = DispatchGroup()
        let results = EventLog<(Int, Data?)>()
        for index in 0..<count {
            let sink = HTTPBufferSink(capacity: 64 << 10)
            group.enter()
            client.start(HTTPTestSupport.request(server.url(for: "/feeds/\(index).xml"), limits: .feed), sink: sink) { event in
                switch event {
                case .finished: results.append((index, sink.data)); group.leave()
                case .failed: results.append((index, nil)); group.leave()
                default: break
                }
            }
        }
        XCTAssertEqual(group.wait(timeout: .now() + 30), .success)
        let bodies = Dictionary(results.all.map { ($0.0, $0.1) }, uniquingKeysWith: { first, _ in first })
        XCTAssertEqual(bodies.count, count)
        for index in 0..<count {
            XCTAssertEqual(bodies[index] ?? nil, Data("<feed><id>\(index)</id></feed>".utf8), "feed \(index)")
        }
        XCTAssertEqual(server.log(atLeast: count).count, count)
        XCTAssertLessThanOrEqual(server.connectionCount, 6, "at most 6 connections to one host, each kept alive")
    }

    func testUnsupportedSchemeFails() throws {
        let result = HTTPTestSupport.run(HTTPTestSupport.client(), HTTPTestSupport.request(URL(string: "ftp://user:pw@example.com/feed.xml")!),
                                         sink: HTTPBufferSink(capacity: 1024))
        XCTAssertEqual(result.error, .unsupportedURL("ftp://example.com/feed.xml"))
        XCTAssertEqual(result.error?.description, "cannot fetch ftp://example.com/feed.xml: only http and https are supported")
    }

    func testConnectionRefusedSaysTheHostCannotBeReached() throws {
        let server = try TestSupport.server(for: self)
        let url = server.url(for: "/feed.xml")
        server.stop()
        let result = HTTPTestSupport.run(HTTPTestSupport.client(), HTTPTestSupport.request(url), sink: HTTPBufferSink(capacity: 1024))
        XCTAssertEqual(result.error, .cannotConnect(host: "127.0.0.1", detail: "connection refused"))
        XCTAssertEqual(result.error?.description, "cannot reach 127.0.0.1: connection refused")
        XCTAssertEqual(result.error?.isTransient, true)
    }

    func testErrorDescriptionsNameTheLimitAndTheHost() {
        XCTAssertEqual(HTTPError.tooLarge(subject: "the feed", limit: 64 << 20, limitName: "feed size limit",
                                          remedy: "set feed-size-limit in the config file", isDecoded: false).description,
                       "the feed is larger than 64 MB (feed size limit); set feed-size-limit in the config file")
        XCTAssertEqual(HTTPError.tooLarge(subject: "the cover", limit: 1536 << 10, limitName: "cover size limit", remedy: nil, isDecoded: true).description,
                       "the cover unpacks to more than 1.5 MB (cover size limit)")
        XCTAssertEqual(HTTPError.loginRequired(host: "127.0.0.1", realm: nil).description, "127.0.0.1 asks for a login")
        XCTAssertEqual(HTTPError.stalled(host: "127.0.0.1", seconds: 30).description, "127.0.0.1 stopped sending for 30 s")
        XCTAssertEqual(HTTPError.deadlineExceeded(host: "127.0.0.1", seconds: 60).description, "127.0.0.1 took longer than 60 s")
        XCTAssertEqual(HTTPError.cancelled.description, "cancelled")
        XCTAssertTrue(HTTPError.proxyLoginRequired.description.hasPrefix("the proxy asks for a login"))
    }
}
