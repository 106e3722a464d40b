import Foundation
import XCTest
import LocalHTTPServer
@testable import NewsstandCore

/// ResourceFetcher over HTTPClient: the symptoms of issue #11 (an endless feed, a gzip bomb, a 401) end at once,
/// in plain words; conditional fetches keep working.
final class ResourceFetcherTests: XCTestCase {
    private let client = HTTPTestSupport.client()

    private func server(_ configure: (inout FaultPlan) -> Void = { _ in }) throws -> LocalHTTPServer {
        let server = try TestSupport.server(for: self)
        server.setResource("/feed.xml", data: Data("<feed/>".utf8), contentType: "application/atom+xml", etag: "v1")
        var plan = FaultPlan()
        configure(&plan)
        server.faults = plan
        return server
    }

    func testAnEndlessFeedStopsAtTheSizeLimit() throws {
        let server = try server { $0.endlessBody = true }
        XCTAssertThrowsError(try ResourceFetcher.fetch(server.url(for: "/feed.xml"), from: .network, maxBytes: 2 << 20, client: client)) { error in
            XCTAssertEqual("\(error)", "the feed is larger than 2 MB (feed size limit)")
        }
    }

    func testAGzipBombStopsAtTheSizeLimitOfWhatItUnpacksTo() throws {
        let server = try server { $0.gzipBombInflatedBytes = 1 << 30 }
        XCTAssertThrowsError(try ResourceFetcher.fetchConditionally(server.url(for: "/feed.xml"), from: .network, validators: nil, maxBytes: 2 << 20, client: client)) { error in
            XCTAssertEqual("\(error)", "the feed unpacks to more than 2 MB (feed size limit)")
        }
    }

    func testAProtectedFeedFailsAtOnceAskingForALogin() throws {
        let server = try server { $0.requiredLogin = RequiredLogin(realm: "Calibre", user: "u", password: "p") }
        let start = Date()
        XCTAssertThrowsError(try ResourceFetcher.fetch(server.url(for: "/feed.xml"), from: .network, client: client)) { error in
            XCTAssertEqual(error as? HTTPError, .loginRequired(host: "127.0.0.1", realm: "Calibre"))
        }
        XCTAssertLessThan(Date().timeIntervalSince(start), 2)
    }

    func testConditionalFetchSendsTheValidatorsAndMaps304() throws {
        let server = try server()
        guard case .fetched(let data, let validators) = try ResourceFetcher.fetchConditionally(server.url(for: "/feed.xml"), from: .network, validators: nil, client: client) else {
            return XCTFail("expected the feed")
        }
        XCTAssertEqual(data, Data("<feed/>".utf8))
        XCTAssertEqual(validators.etag, "\"v1\"")
        XCTAssertNotNil(validators.lastModified)
        XCTAssertEqual(try ResourceFetcher.fetchConditionally(server.url(for: "/feed.xml"), from: .network, validators: validators, client: client), .notModified)
        let asked = server.log(atLeast: 2).last?.headers ?? [:]
        XCTAssertEqual(asked["if-none-match"], "\"v1\"")
        XCTAssertEqual(asked["if-modified-since"], validators.lastModified)
    }

    func testAMissingFeedSaysWhatTheServerAnswered() throws {
        let server = try server()
        XCTAssertThrowsError(try ResourceFetcher.fetch(server.url(for: "/gone.xml"), from: .network, client: client)) { error in
            XCTAssertEqual("\(error)", "127.0.0.1 answered 404 Not Found for /gone.xml")
        }
    }

    /// A feed that drips a byte a second gives up after the timeout (every feed's minimum rate is 1 KB a second),
    /// not at the minute-long deadline, saying the server sent too little. Here with a 2-second timeout.
    func testAFeedThatDripsGivesUpAfterTheTimeout() throws {
        let server = try server { $0.slowDrip = true }
        server.setResource("/feed.xml", data: Data(("<feed>" + String(repeating: " ", count: 1000) + "</feed>").utf8), contentType: "application/atom+xml")
        let start = Date()
        XCTAssertThrowsError(try ResourceFetcher.fetchConditionally(server.url(for: "/feed.xml"), from: .network, validators: nil, timeout: 2,
                                                                    client: client)) { error in
            XCTAssertEqual(error as? HTTPError, .tooSlow(host: "127.0.0.1", bytesPerSecond: 1024, seconds: 2))
            XCTAssertEqual("\(error)", "127.0.0.1 sent less than 1 KB/s for 2 s")
        }
        let elapsed = Date().timeIntervalSince(start)
        XCTAssertGreaterThanOrEqual(elapsed, 1.8, "not before the timeout")
        XCTAssertLessThan(elapsed, 6, "at the timeout, not at the deadline")
    }

    /// The limits every feed, page and cover fetch gets: under 1 KB/s for `timeout` (30 s unless told), a minute in all.
    func testEveryFetchHasTheMinimumRateForItsTimeout() {
        let limits = ResourceFetcher.limits(maxBytes: 1 << 20, timeout: 30)
        XCTAssertEqual(limits.deadline, 60)
        XCTAssertEqual(limits.lowSpeed, HTTPLimits.LowSpeed(bytesPerSecond: 1024, seconds: 30))
        XCTAssertEqual(HTTPLimits.feed.lowSpeed, limits.lowSpeed)
        XCTAssertEqual(ResourceFetcher.limits(maxBytes: 1 << 20, timeout: 90).deadline, 90)
    }
}
