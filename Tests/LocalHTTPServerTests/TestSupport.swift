import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif
@testable import LocalHTTPServer

/// A response as read off the wire by ``RawHTTP``.
struct RawResponse {
    var status: Int
    /// Lowercased names.
    var headers: [String: String]
    var body: Data

    var contentLength: Int? { headers["content-length"].flatMap { Int($0) } }
}

/// A minimal blocking HTTP client over a raw socket, so tests see exactly what the server sends
/// (no client-side path normalisation, caching, redirects or retries).
enum RawHTTP {
    struct Failure: Error, CustomStringConvertible { let description: String }

    static func connect(port: UInt16, timeoutSeconds: Int = 10) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(errno)") }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr = in_addr(s_addr: UInt32(0x7F00_0001).bigEndian)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            let code = errno
            close(fd)
            throw Failure(description: "connect: \(code)")
        }
        return fd
    }

    static func send(_ fd: Int32, _ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress!, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return }
            offset += n
        }
    }

    /// Reads until end of stream (or error/timeout).
    static func readAll(_ fd: Int32) -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress!, $0.count, 0) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            data.append(contentsOf: buffer[0..<n])
        }
        return data
    }

    static func parse(_ raw: Data) throws -> RawResponse {
        guard let end = raw.range(of: Data("\r\n\r\n".utf8)) else {
            throw Failure(description: "no header terminator in \(raw.count) bytes")
        }
        let head = String(decoding: raw[raw.startIndex..<end.lowerBound], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, statusLine[0] == "HTTP/1.1", let status = Int(statusLine[1]) else {
            throw Failure(description: "bad status line in \(head)")
        }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return RawResponse(status: status, headers: headers, body: Data(raw[end.upperBound...]))
    }

    /// Sends `method target` with `headers` and `Connection: close`, reads the whole answer.
    static func request(port: UInt16, _ method: String = "GET", _ target: String,
                        headers: [String: String] = [:]) throws -> RawResponse {
        let fd = try connect(port: port)
        defer { close(fd) }
        var text = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { text += "\(name): \(value)\r\n" }
        text += "\r\n"
        send(fd, text)
        return try parse(readAll(fd))
    }
}

/// A started server, stopped at the end of the test.
func makeServer(_ testCase: XCTestCase, root: URL? = nil) throws -> LocalHTTPServer {
    let server = LocalHTTPServer(root: root)
    try server.start()
    testCase.addTeardownBlock { server.stop() }
    return server
}
