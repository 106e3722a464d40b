import Foundation
import LocalHTTPServer
import NewsstandTestSupport
import Synchronization
import XCTest
@testable import NewsstandCore

/// Many threads asking at once for one cover share one fetch (the others wait for it), and a different cover is
/// not held up by it.
final class CoverFileCacheSharingTests: XCTestCase {
    func testConcurrentCallersForOneCoverWaitForOneFetch() throws {
        let server = try TestSupport.server(for: self)
        let cover = Data((0..<48_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        server.setResource("/cover.png", data: cover, contentType: "image/png")
        server.setResource("/other.png", data: Data(repeating: 7, count: 100), contentType: "image/png")
        // About a quarter of a second per fetch, so the callers overlap it.
        server.bytesPerSecond = 200_000
        let cache = CoverFileCache(directory: try TestFiles.scratchFolder(for: self).appendingPathComponent("covers"), revalidationInterval: 60)
        let origin = DocumentOrigin(documentURL: server.url(for: "/feed.xml"))
        let callers = 12
        let answers = Mutex<[Data?]>(Array(repeating: nil, count: callers))
        // A thread each (not a pool sized by the cores), all asking at once.
        let done = DispatchGroup()
        for index in 0..<callers {
            done.enter()
            Thread {
                let data = try? cache.data(issueID: 1, url: server.url(for: "/cover.png"), from: origin)
                answers.withLock { $0[index] = data }
                done.leave()
            }.start()
        }
        XCTAssertEqual(done.wait(timeout: .now() + 30), .success)
        XCTAssertEqual(answers.withLock { $0 }, Array(repeating: cover, count: callers))
        XCTAssertEqual(server.settledLog().map(\.path), ["/cover.png"], "one fetch for all the callers")

        // Another issue's cover is fetched on its own; the first one, checked this run, is not asked again.
        XCTAssertEqual(try cache.data(issueID: 2, url: server.url(for: "/other.png"), from: origin), Data(repeating: 7, count: 100))
        XCTAssertEqual(try cache.data(issueID: 1, url: server.url(for: "/cover.png"), from: origin), cover)
        XCTAssertEqual(server.settledLog().map(\.path), ["/cover.png", "/other.png"])
    }
}
