import Foundation
import XCTest
import LocalHTTPServer
@testable import NewsstandCore

/// The rate limit reaches libcurl (`CURLOPT_MAX_RECV_SPEED_LARGE`), shared among the running rate-limited
/// transfers, and takes effect on a running one.
final class HTTPClientRateLimitTests: XCTestCase {
    /// Polls the client until its transfers' limits are `expected` (at most 5 s).
    private func waitForLimits(_ client: HTTPClient, _ expected: [Int64], file: StaticString = #filePath, line: UInt = #line) {
        let deadline = Date().addingTimeInterval(5)
        var limits = client.receiveSpeedLimits()
        while limits != expected && Date() < deadline {
            usleep(5_000)
            limits = client.receiveSpeedLimits()
        }
        XCTAssertEqual(limits, expected, file: file, line: line)
    }

    func testTheLimitIsSharedAmongRunningRateLimitedTransfersAndReshared() throws {
        let server = try TestSupport.server(for: self)
        server.setResource("/issue.epub", data: TestFiles.pseudoRandomData(count: 100_000))
        var plan = FaultPlan()
        plan.stallAfterBytes = 10  // the transfers stay running
        server.faults = plan
        let client = HTTPTestSupport.client()
        client.setRateLimit(bytesPerSecond: 1_000_000)
        let limits = HTTPLimits(lowSpeed: nil)
        let url = server.url(for: "/issue.epub")
        let first = client.start(HTTPTestSupport.request(url, limits: limits, isRateLimited: true), sink: HTTPBufferSink(capacity: 1 << 20)) { _ in }
        let second = client.start(HTTPTestSupport.request(url, limits: limits, isRateLimited: true), sink: HTTPBufferSink(capacity: 1 << 20)) { _ in }
        let feed = client.start(HTTPTestSupport.request(url, limits: limits), sink: HTTPBufferSink(capacity: 1 << 20)) { _ in }
        defer { [first, second, feed].forEach { $0.cancel() } }
        waitForLimits(client, [500_000, 500_000])  // the feed is not rate-limited
        first.cancel()
        waitForLimits(client, [1_000_000])
        client.setRateLimit(bytesPerSecond: 300_000)
        waitForLimits(client, [300_000])
        client.setRateLimit(bytesPerSecond: nil)
        waitForLimits(client, [0])
    }

    func testALimitSetWhileATransferRunsSlowsItAtOnce() throws {
        let server = try TestSupport.server(for: self)
        let payload = TestFiles.pseudoRandomData(count: 1_500_000)
        server.setResource("/issue.epub", data: payload)
        let client = HTTPTestSupport.client()
        let sink = HTTPBufferSink(capacity: 200_000, whenFull: .pause)
        let log = EventLog<HTTPEvent>()
        let started = Date()
        client.start(HTTPTestSupport.request(server.url(for: "/issue.epub"), isRateLimited: true), sink: sink) { log.append($0) }
        while !sink.isPausingTransfer && Date().timeIntervalSince(started) < 10 { usleep(1_000) }
        XCTAssertTrue(sink.isPausingTransfer, "unlimited, loopback fills the buffer at once")
        let limitedAt = Date()
        client.setRateLimit(bytesPerSecond: 1_000_000)
        waitForLimits(client, [1_000_000])
        var received = Data()
        while !log.all.contains(where: \.isTerminal) && Date().timeIntervalSince(started) < 20 {
            received.append(sink.take())
            usleep(2_000)
        }
        received.append(sink.take())
        XCTAssertEqual(log.all.last, .finished)
        XCTAssertEqual(received, payload)
        // 1.5 MB at 1 MB/s, counted by libcurl from the transfer's start: about 1.5 s, against milliseconds unlimited.
        XCTAssertGreaterThan(Date().timeIntervalSince(limitedAt), 0.8)
    }
}
