import Foundation
import XCTest
import LocalHTTPServer
@testable import NewsstandCore

/// libcurl is opened at run time: it opens here, and where it cannot be, every transfer fails saying why.
final class LibcurlTests: XCTestCase {
    private let missing = "libnewsstand-no-such-curl.so.4"

    func testTheSystemsLibcurlOpens() throws {
        guard case .success = Libcurl.shared else { return XCTFail("libcurl did not open: \(Libcurl.shared)") }
        guard case .success = Libcurl.open(soname: Libcurl.soname) else { return XCTFail("opening it again failed") }
    }

    func testAMissingLibcurlIsAPlainErrorNamingThePackage() throws {
        guard case .failure(let error) = Libcurl.open(soname: missing) else { return XCTFail("a library that does not exist opened") }
        guard case .networkUnavailable(let detail) = error else { return XCTFail("\(error)") }
        XCTAssertTrue(detail.contains(missing), detail)
        XCTAssertTrue(error.description.hasPrefix("the network cannot be used: libcurl could not be loaded"), error.description)
        XCTAssertTrue(error.description.hasSuffix("install Debian's libcurl4 package"), error.description)
        XCTAssertFalse(error.isTransient, "retrying will not install it")
    }

    func testWithoutLibcurlEveryTransferFailsAtOnceAndCancellingIsHarmless() throws {
        let server = try TestSupport.server(for: self)
        server.setResource("/feed.xml", data: Data("<rss/>".utf8))
        let missing = self.missing
        let client = HTTPClient(configuration: HTTPClient.Configuration(), library: { Libcurl.open(soname: missing) })
        XCTAssertThrowsError(try client.fetch(HTTPTestSupport.request(server.url(for: "/feed.xml")))) { error in
            guard case .networkUnavailable? = error as? HTTPError else { return XCTFail("\(error)") }
        }
        let failed = expectation(description: "the transfer fails")
        let transfer = client.start(HTTPTestSupport.request(server.url(for: "/feed.xml")), sink: HTTPBufferSink(capacity: 100, whenFull: .fail)) { event in
            if case .failed(.networkUnavailable) = event { failed.fulfill() }
        }
        wait(for: [failed], timeout: 5)
        transfer.cancel()
        transfer.resume()
        XCTAssertTrue(server.requestLog.isEmpty, "nothing reached the server")
    }
}
