import Foundation
import XCTest
@testable import NewsstandCore
import Synchronization

/// HTTP/2 against a real HTTP/2 server (`nghttpd`, Debian's nghttp2-server, which speaks nothing else): many
/// transfers to one host share one connection as streams.
final class HTTPClientHTTP2Tests: XCTestCase {
    func testTransfersToAnHTTP2ServerShareOneConnection() throws {
        let feeds = (1...8).map { number in ("feeds/\(number).xml", Data("<feed>\(number) \(String(repeating: "x", count: 20_000 * number))</feed>".utf8)) }
        let server = try TLSTestServer.start("/usr/sbin/nghttpd", for: self, files: Dictionary(uniqueKeysWithValues: feeds)) { port in
            ["--verbose", "--htdocs=.", "--address=127.0.0.1", String(port), "key.pem", "cert.pem"]
        }
        let client = HTTPTestSupport.client(certificateAuthority: server.certificate)
        let results = ResultBox()
        let group = DispatchGroup()
        for (path, _) in feeds {
            group.enter()
            let sink = HTTPBufferSink(capacity: 1 << 20)
            let log = EventLog<HTTPEvent>()
            client.start(HTTPTestSupport.request(server.url("/\(path)")), sink: sink) { event in
                log.append(event)
                if event.isTerminal {
                    results.set(path, CompletedTransfer(events: log.all), sink.data)
                    group.leave()
                }
            }
        }
        XCTAssertEqual(group.wait(timeout: .now() + 20), .success, "every transfer ended")
        for (path, body) in feeds {
            let (transfer, data) = try XCTUnwrap(results.get(path))
            XCTAssertTrue(transfer.isFinished, "\(path): \(transfer.events)")
            XCTAssertEqual(transfer.head?.status, 200)
            XCTAssertEqual(transfer.head?.reason, "", "HTTP/2 has no reason phrase")
            XCTAssertEqual(data, body, path)
        }
        server.stop()
        // nghttpd -v logs each frame as "[id=SESSION] [time] recv HEADERS frame <…, stream_id=N>"; the readiness
        // probe's connection is a session without requests.
        let requests = server.output.split(separator: "\n").filter { $0.contains("recv HEADERS frame") }
        XCTAssertEqual(requests.count, feeds.count, "one stream per transfer:\n\(requests.joined(separator: "\n"))")
        let sessions = Set(requests.map { $0.prefix { $0 != "]" } })
        XCTAssertEqual(sessions.count, 1, "one connection for all eight: \(sessions)")
    }

    private final class ResultBox: Sendable {
        private let results = Mutex<[String: (CompletedTransfer, Data)]>([:])
        func set(_ path: String, _ transfer: CompletedTransfer, _ data: Data) { results.withLock { $0[path] = (transfer, data) } }
        func get(_ path: String) -> (CompletedTransfer, Data)? { results.withLock { $0[path] } }
    }
}
