import Foundation
import NewsstandTestSupport
import XCTest
@testable import LocalHTTPServer

final class ThrottleAndLifecycleTests: XCTestCase {
    func testThrottleSlowsTheBody() throws {
        let server = try makeServer(self)
        let payload = TestFiles.pseudoRandomData(count: 200_000)
        server.setResource("/slow", data: payload)
        server.bytesPerSecond = 200_000
        XCTAssertEqual(server.bytesPerSecond, 200_000)
        let start = Date()
        let throttled = try RawHTTP.request(port: server.port, "GET", "/slow")
        let elapsed = Date().timeIntervalSince(start)
        XCTAssertEqual(throttled.body, payload)
        XCTAssertGreaterThanOrEqual(elapsed, 0.9, "200 KB at 200 KB/s")
        XCTAssertLessThan(elapsed, 5)

        server.bytesPerSecond = nil
        let fastStart = Date()
        XCTAssertEqual(try RawHTTP.request(port: server.port, "GET", "/slow").body, payload)
        XCTAssertLessThan(Date().timeIntervalSince(fastStart), 0.5)
    }

    func testThrottleIsSmoothNotBursty() throws {
        let server = try makeServer(self)
        server.setResource("/slow", data: TestFiles.pseudoRandomData(count: 100_000))
        server.bytesPerSecond = 100_000
        let fd = try RawHTTP.connect(port: server.port)
        defer { close(fd) }
        RawHTTP.send(fd, "GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
        let start = Date()
        var received = 0
        var atHalfSecond: Int?
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress!, $0.count, 0) }
            if n <= 0 { break }
            received += n
            if atHalfSecond == nil && Date().timeIntervalSince(start) >= 0.5 { atHalfSecond = received }
        }
        // About half the body (plus headers) should have arrived by half time: no burst at the start.
        let half = try XCTUnwrap(atHalfSecond)
        XCTAssertGreaterThan(half, 25_000)
        XCTAssertLessThan(half, 80_000)
    }

    func testStopDuringThrottledDownloadIsPromptAndPortCanBeReused() throws {
        let server = LocalHTTPServer()
        try server.start()
        let port = server.port
        server.setResource("/huge", data: TestFiles.pseudoRandomData(count: 10_000_000))
        server.bytesPerSecond = 50_000

        let fd = try RawHTTP.connect(port: port)
        defer { close(fd) }
        RawHTTP.send(fd, "GET /huge HTTP/1.1\r\nHost: x\r\n\r\n")
        var buffer = [UInt8](repeating: 0, count: 1024)
        XCTAssertGreaterThan(buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress!, $0.count, 0) }, 0)

        // An idle connection that never sends its request must not hold stop() up either.
        let idle = try RawHTTP.connect(port: port)
        defer { close(idle) }
        usleep(200_000)

        let start = Date()
        server.stop()
        XCTAssertLessThan(Date().timeIntervalSince(start), 1.0)
        XCTAssertFalse(server.isRunning)
        let rest = RawHTTP.readAll(fd)  // ends (EOF or reset) instead of hanging
        XCTAssertLessThan(rest.count, 1_000_000)
        XCTAssertThrowsError(try RawHTTP.request(port: port, "GET", "/huge"), "nothing listens after stop")
        server.stop()  // idempotent

        let successor = LocalHTTPServer()
        try successor.start(port: port)
        defer { successor.stop() }
        XCTAssertEqual(successor.port, port)
        successor.setResource("/x", data: Data("new".utf8))
        XCTAssertEqual(try RawHTTP.request(port: port, "GET", "/x").body, Data("new".utf8))

        // The stopped server can also be restarted on a fresh port, keeping its resources.
        try server.start()
        defer { server.stop() }
        server.bytesPerSecond = nil
        XCTAssertNotEqual(server.port, port)
        XCTAssertEqual(try RawHTTP.request(port: server.port, "HEAD", "/huge").contentLength, 10_000_000)
    }

    /// A client that stops reading leaves the server blocked in send(); stop() must still return promptly.
    func testStopWhileWriterIsBlockedOnAStalledClient() throws {
        let server = LocalHTTPServer()
        try server.start()
        server.setResource("/huge", data: Data(count: 30_000_000))
        let fd = try RawHTTP.connect(port: server.port)
        defer { close(fd) }
        RawHTTP.send(fd, "GET /huge HTTP/1.1\r\nHost: x\r\n\r\n")
        usleep(300_000)  // socket buffers fill up; the writer blocks
        let start = Date()
        server.stop()
        XCTAssertLessThan(Date().timeIntervalSince(start), 1.0)
        XCTAssertLessThan(server.requestLog.first?.bodyBytesSent ?? 0, 30_000_000)
    }

    func testStartTwiceThrowsAndBusyPortFails() throws {
        let server = try makeServer(self)
        XCTAssertThrowsError(try server.start()) { XCTAssertEqual($0 as? LocalHTTPServerError, .alreadyRunning) }
        let other = LocalHTTPServer()
        XCTAssertThrowsError(try other.start(port: server.port))
    }

    func testStreamsLargeFileQuicklyWhenUnthrottled() throws {
        let root = try TestFiles.scratchFolder(for: self)
        let size = 64 * 1024 * 1024
        let url = root.appendingPathComponent("large.bin")
        XCTAssertTrue(FileManager.default.createFile(atPath: url.path, contents: nil))
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: UInt64(size))  // sparse file, cheap to make
        try handle.close()
        let server = try makeServer(self, root: root)

        let fd = try RawHTTP.connect(port: server.port, timeoutSeconds: 30)
        defer { close(fd) }
        RawHTTP.send(fd, "GET /large.bin HTTP/1.1\r\nHost: x\r\n\r\n")
        let start = Date()
        var total = 0
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let n = recv(fd, buffer, 1 << 20, 0)
            if n <= 0 { break }
            total += n
        }
        let elapsed = Date().timeIntervalSince(start)
        XCTAssertGreaterThan(total, size)  // body plus headers
        XCTAssertEqual(server.requestLog.last?.bodyBytesSent, size)
        XCTAssertLessThan(elapsed, 10, "64 MiB over loopback took \(elapsed) s")
    }
}
