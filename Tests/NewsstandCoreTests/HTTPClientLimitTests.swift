import Foundation
import XCTest
import LocalHTTPServer
@testable import NewsstandCore

/// Every limit stops a transfer as it is passed, with a plain message, and the sink never holds more than the
/// limit: hostile bodies (endless, bombs), slow and silent servers, lies and loops.
final class HTTPClientLimitTests: XCTestCase {
    private func server(_ configure: (inout FaultPlan) -> Void = { _ in }) throws -> LocalHTTPServer {
        let server = try TestSupport.server(for: self)
        server.setResource("/feed.xml", data: Data("<feed/>".utf8), contentType: "application/atom+xml")
        var plan = FaultPlan()
        configure(&plan)
        server.faults = plan
        return server
    }

    private func feedLimits(maxBytes: Int64) -> HTTPLimits {
        var limits = HTTPLimits.feed
        limits.maxBodyBytes = maxBytes
        limits.maxReceivedBytes = maxBytes
        return limits
    }

    func testEndlessBodyStopsAtTheLimitWithTheSinkNeverHoldingMore() throws {
        let server = try server { $0.endlessBody = true }
        let sink = HTTPBufferSink(capacity: 64 << 20)
        let result = HTTPTestSupport.run(HTTPTestSupport.client(), HTTPTestSupport.request(server.url(for: "/feed.xml"), limits: feedLimits(maxBytes: 1 << 20)),
                                         sink: sink)
        guard case .tooLarge(_, let limit, _, _, _)? = result.error else { return XCTFail("\(result.events.suffix(2))") }
        XCTAssertEqual(limit, 1 << 20)
        XCTAssertLessThanOrEqual(sink.receivedBytes, 1 << 20, "the sink never got more than the limit")
        XCTAssertGreaterThan(sink.receivedBytes, 900_000, "it got up to the limit")
        XCTAssertEqual(result.error?.description.hasPrefix("the feed "), true)
        XCTAssertEqual(result.error?.description.hasSuffix(" 1 MB (feed size limit)"), true, result.error!.description)
        XCTAssertEqual(result.error?.isTransient, false)
    }

    func testGzipBombStopsWhenWhatItUnpacksToPassesTheLimit() throws {
        let server = try server { $0.gzipBombInflatedBytes = 2 << 30 }  // about 2 MB sent, 2 GiB inflated
        let sink = HTTPBufferSink(capacity: 64 << 20)
        var limits = HTTPLimits.feed
        limits.maxBodyBytes = 4 << 20
        let result = HTTPTestSupport.run(HTTPTestSupport.client(), HTTPTestSupport.request(server.url(for: "/feed.xml"), limits: limits), sink: sink)
        XCTAssertEqual(result.error, .tooLarge(subject: "the feed", limit: 4 << 20, limitName: "feed size limit", remedy: nil, isDecoded: true))
        XCTAssertEqual(result.error?.description, "the feed unpacks to more than 4 MB (feed size limit)")
        XCTAssertLessThanOrEqual(sink.receivedBytes, 4 << 20)
        XCTAssertLessThanOrEqual(sink.peakHeldBytes, 4 << 20)
        XCTAssertEqual(Set(sink.data), [0], "the body was decoded")
    }

    func testGzipBodyWithinTheLimitIsDecoded() throws {
        let server = try server { $0.gzipBombInflatedBytes = 3_000_000 }
        let response = try HTTPTestSupport.client().fetch(HTTPTestSupport.request(server.url(for: "/feed.xml"), limits: feedLimits(maxBytes: 8 << 20)))
        XCTAssertEqual(response.head.header("Content-Encoding"), "gzip")
        XCTAssertEqual(response.body.count, 775 + 1032 * ((3_000_000 - 775) / 1032), "what the server's bomb inflates to")
        XCTAssertEqual(Set(response.body), [0])
    }

    func testAnnouncedLengthOverTheLimitIsRefusedBeforeTheBody() throws {
        let server = try server()
        server.setResource("/big.xml", data: TestFiles.pseudoRandomData(count: 3 << 20))
        let sink = HTTPBufferSink(capacity: 64 << 20)
        let result = HTTPTestSupport.run(HTTPTestSupport.client(), HTTPTestSupport.request(server.url(for: "/big.xml"), limits: feedLimits(maxBytes: 1 << 20)),
                                         sink: sink)
        XCTAssertEqual(result.error, .tooLarge(subject: "the feed", limit: 1 << 20, limitName: "feed size limit", remedy: nil, isDecoded: false))
        XCTAssertEqual(result.error?.description, "the feed is larger than 1 MB (feed size limit)")
        XCTAssertEqual(sink.receivedBytes, 0)
    }

    func testStalledServerFailsAfterTheLowSpeedTime() throws {
        let server = try server { $0.stallAfterBytes = 1000 }
        server.setResource("/issue.epub", data: TestFiles.pseudoRandomData(count: 100_000))
        var limits = HTTPLimits()
        // libcurl measures speed over the last 5 s: with 1 byte/s, the 1,000 bytes would keep it "fast enough"
        // for 5 s before the 2 s count started.
        limits.lowSpeed = .init(bytesPerSecond: 1000, seconds: 2)
        let sink = HTTPBufferSink(capacity: 1 << 20)
        let start = Date()
        let result = HTTPTestSupport.run(HTTPTestSupport.client(), HTTPTestSupport.request(server.url(for: "/issue.epub"), limits: limits), sink: sink)
        XCTAssertEqual(result.error, .stalled(host: "127.0.0.1", seconds: 2))
        XCTAssertEqual(result.error?.description, "127.0.0.1 stopped sending for 2 s")
        XCTAssertEqual(result.error?.isTransient, true)
        XCTAssertEqual(sink.receivedBytes, 1000)
        XCTAssertLessThan(Date().timeIntervalSince(start), 5)
    }

    func testSlowDripFailsAsTooSlow() throws {
        let server = try server { $0.slowDrip = true }
        var limits = HTTPLimits()
        limits.lowSpeed = .init(bytesPerSecond: 100, seconds: 2)
        let result = HTTPTestSupport.run(HTTPTestSupport.client(), HTTPTestSupport.request(server.url(for: "/feed.xml"), limits: limits),
                                         sink: HTTPBufferSink(capacity: 1 << 20))
        XCTAssertEqual(result.error, .tooSlow(host: "127.0.0.1", bytesPerSecond: 100, seconds: 2))
        XCTAssertEqual(result.error?.description, "127.0.0.1 sent less than 100 bytes/s for 2 s")
    }

    func testDeadlineCoversTheWholeTransfer() throws {
        let server = try server { $0.slowDrip = true }
        var limits = HTTPLimits(lowSpeed: nil)
        limits.deadline = 1.5
        let start = Date()
        let result = HTTPTestSupport.run(HTTPTestSupport.client(), HTTPTestSupport.request(server.url(for: "/feed.xml"), limits: limits),
                                         sink: HTTPBufferSink(capacity: 1 << 20))
        XCTAssertEqual(result.error, .deadlineExceeded(host: "127.0.0.1", seconds: 1.5))
        XCTAssertEqual(result.error?.description, "127.0.0.1 took longer than 1.5 s")
        XCTAssertLessThan(Date().timeIntervalSince(start), 5)
    }

    func testLyingContentLengthIsATruncatedTransfer() throws {
        let server = try server { $0.wrongContentLength = true }
        let result = HTTPTestSupport.run(HTTPTestSupport.client(), HTTPTestSupport.request(server.url(for: "/feed.xml")),
                                         sink: HTTPBufferSink(capacity: 1 << 20))
        XCTAssertEqual(result.error, .truncated(host: "127.0.0.1", received: 7, expected: 7 + 1024))
        XCTAssertEqual(result.error?.description, "the connection to 127.0.0.1 closed after 7 of 1031 bytes")
        XCTAssertEqual(result.error?.isTransient, true)
    }

    func testRedirectLoopStopsAtTheLimit() throws {
        let server = try server { $0.redirectLoop = true }
        var limits = HTTPLimits()
        limits.maxRedirects = 5
        let result = HTTPTestSupport.run(HTTPTestSupport.client(), HTTPTestSupport.request(server.url(for: "/feed.xml"), limits: limits),
                                         sink: HTTPBufferSink(capacity: 1 << 20))
        XCTAssertEqual(result.error, .tooManyRedirects(host: "127.0.0.1", limit: 5))
        XCTAssertEqual(result.error?.description, "too many redirects (more than 5) from 127.0.0.1")
        XCTAssertEqual(server.log(atLeast: 6).count, 6)
    }

    func testRedirectToAnotherServerIsFollowed() throws {
        let target = try TestSupport.server(for: self)
        target.setResource("/moved.xml", data: Data("<feed>moved</feed>".utf8))
        let server = try server { $0.redirectTo = target.url(for: "/moved.xml").absoluteString }
        let response = try HTTPTestSupport.client().fetch(HTTPTestSupport.request(server.url(for: "/feed.xml")))
        XCTAssertEqual(response.body, Data("<feed>moved</feed>".utf8))
        XCTAssertEqual(response.head.url, target.url(for: "/moved.xml"))
        XCTAssertEqual(server.log(atLeast: 1).map(\.status), [302])
    }

    func testPausingSinkHoldsAtMostOneChunkBeyondItsCapacityAndTheTransferCompletesAfterResume() throws {
        let server = try server()
        let payload = TestFiles.pseudoRandomData(count: 2 << 20)
        server.setResource("/issue.epub", data: payload)
        let capacity = 64 << 10
        let sink = HTTPBufferSink(capacity: capacity, whenFull: .pause)
        let log = EventLog<HTTPEvent>()
        let client = HTTPTestSupport.client()
        client.start(HTTPTestSupport.request(server.url(for: "/issue.epub")), sink: sink) { log.append($0) }
        // A slow reader: takes what the buffer holds every few milliseconds.
        var received = Data()
        let deadline = Date().addingTimeInterval(20)
        while !log.all.contains(where: \.isTerminal) && Date() < deadline {
            usleep(2_000)
            received.append(sink.take())
        }
        received.append(sink.take())
        XCTAssertEqual(log.all.last, .finished)
        XCTAssertEqual(received, payload)
        XCTAssertGreaterThan(sink.timesPaused, 0, "the reader was slower than loopback")
        XCTAssertLessThanOrEqual(sink.peakHeldBytes, capacity + 16 << 10, "capacity plus at most one 16 KiB write")
    }

    func testPausedTransferWaitsForResumeWithoutLosingBytes() throws {
        let server = try server()
        let payload = TestFiles.pseudoRandomData(count: 300_000)
        server.setResource("/issue.epub", data: payload)
        let sink = HTTPBufferSink(capacity: 100_000, whenFull: .pause)
        let log = EventLog<HTTPEvent>()
        let client = HTTPTestSupport.client()
        client.start(HTTPTestSupport.request(server.url(for: "/issue.epub")), sink: sink) { log.append($0) }
        let start = Date()
        while !sink.isPausingTransfer && Date().timeIntervalSince(start) < 10 { usleep(1_000) }
        XCTAssertTrue(sink.isPausingTransfer)
        usleep(300_000)
        XCTAssertFalse(log.all.contains(where: \.isTerminal), "a paused transfer waits")
        XCTAssertLessThanOrEqual(sink.data.count, 100_000 + 16 << 10)
        var received = sink.take()  // resumes
        while !log.all.contains(where: \.isTerminal) && Date().timeIntervalSince(start) < 20 {
            usleep(1_000)
            received.append(sink.take())
        }
        received.append(sink.take())
        XCTAssertEqual(log.all.last, .finished)
        XCTAssertEqual(received, payload)
    }

    func testPausedTransferIsNotTooSlowForTheLowSpeedLimit() throws {
        let server = try server()
        let payload = TestFiles.pseudoRandomData(count: 300_000)
        server.setResource("/issue.epub", data: payload)
        var limits = HTTPLimits()
        limits.lowSpeed = .init(bytesPerSecond: 1000, seconds: 1)
        let sink = HTTPBufferSink(capacity: 100_000, whenFull: .pause)
        let log = EventLog<HTTPEvent>()
        let client = HTTPTestSupport.client()
        client.start(HTTPTestSupport.request(server.url(for: "/issue.epub"), limits: limits), sink: sink) { log.append($0) }
        let start = Date()
        while !sink.isPausingTransfer && Date().timeIntervalSince(start) < 10 { usleep(1_000) }
        usleep(2_500_000)  // paused for longer than the low-speed time: the reader's doing, not the server's
        XCTAssertFalse(log.all.contains(where: \.isTerminal), "\(log.all.suffix(1))")
        var received = Data()
        while !log.all.contains(where: \.isTerminal) && Date().timeIntervalSince(start) < 20 {
            received.append(sink.take())
            usleep(1_000)
        }
        received.append(sink.take())
        XCTAssertEqual(log.all.last, .finished)
        XCTAssertEqual(received, payload)
    }
}
