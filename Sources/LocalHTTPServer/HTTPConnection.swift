import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One accepted connection: reads a request head, answers it (applying the server's faults and throttle),
/// and records it. The caller closes the socket afterwards.
struct HTTPConnection {
    let fd: Int32
    let server: LocalHTTPServer

    private static let maxHeadBytes = 64 * 1024

    func run() {
        Sockets.configureConnection(fd, timeoutSeconds: LocalHTTPServer.connectionTimeoutSeconds)
        guard let head = readHead() else { return }
        guard let request = HTTPRequest.parse(head: head) else {
            _ = sendSimple(400, isHead: false)
            return
        }
        let (status, sent) = respond(to: request)
        server.record(RequestRecord(method: request.method, path: request.path ?? request.target,
                                    headers: request.headers, status: status, bodyBytesSent: sent))
        _ = shutdown(fd, Int32(SHUT_WR))
    }

    /// The bytes before the blank line ending the head; nil if the peer left, timed out or sent too much
    /// (the latter answered 431).
    private func readHead() -> [UInt8]? {
        var head: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 8192)
        let terminator = HTTPRequest.headTerminator
        while true {
            let n = buffer.withUnsafeMutableBytes { Sockets.receive(fd, $0.baseAddress!, $0.count) }
            guard n > 0 else { return nil }
            let searchFrom = max(0, head.count - (terminator.count - 1))
            head.append(contentsOf: buffer[0..<n])
            if head.count >= terminator.count {
                var i = searchFrom
                while i + terminator.count <= head.count {
                    if head[i] == 13, head[i + 1] == 10, head[i + 2] == 13, head[i + 3] == 10 {
                        return Array(head[..<i])
                    }
                    i += 1
                }
            }
            if head.count > Self.maxHeadBytes {
                _ = sendSimple(431, isHead: false)
                return nil
            }
        }
    }

    /// Answers `request`; returns the status sent and the body bytes written.
    private func respond(to request: HTTPRequest) -> (status: Int, bodyBytesSent: Int) {
        let (plan, failure) = server.admitRequest()
        let isHead = request.method == "HEAD"
        guard request.method == "GET" || isHead else {
            return sendSimple(405, isHead: false, extra: [("Allow", "GET, HEAD")])
        }
        guard let path = request.path else { return sendSimple(400, isHead: isHead) }
        if let failure {
            let extra = failure.retryAfter.map { [("Retry-After", String($0))] } ?? []
            return sendSimple(failure.status, isHead: isHead, extra: extra)
        }
        let entity: ServedEntity
        switch server.lookup(path) {
        case .forbidden: return sendSimple(403, isHead: isHead)
        case .notFound: return sendSimple(404, isHead: isHead)
        case .found(let found): entity = found
        }
        if plan.htmlErrorPageWith200 {
            let page = "<html><head><title>Service error</title></head><body><h1>Something went wrong</h1>"
                + "<p>An error occurred while processing your request.</p></body></html>\n"
            return sendSimple(200, isHead: isHead, body: Data(page.utf8), contentType: "text/html; charset=utf-8")
        }

        let validators = [("ETag", entity.etag), ("Last-Modified", HTTPDate.format(entity.lastModified))]
        if Self.isNotModified(request, entity) {
            _ = sendHead(304, validators)
            return (304, 0)
        }

        var status = 200, first = 0, count = entity.length
        var rangeHeaders: [(String, String)] = []
        if let range = request.headers["range"], !plan.ignoreRange, Self.ifRangeAllowsRange(request, entity) {
            switch ByteRange.parse(range, length: entity.length) {
            case let .satisfiable(lower, upper):
                status = 206
                first = lower
                count = upper - lower + 1
                rangeHeaders = [("Content-Range", "bytes \(lower)-\(upper)/\(plan.unknownTotalInRanges ? "*" : String(entity.length))")]
            case .unsatisfiable:
                return sendSimple(416, isHead: isHead, body: Data(),
                                  extra: [("Content-Range", "bytes */\(entity.length)"), ("Accept-Ranges", "bytes")] + validators)
            case .ignored:
                break
            }
        }

        let announced = plan.wrongContentLength ? count + 1024 : count
        let limit = isHead ? 0 : min(count, server.consumeDrop() ?? count)
        let headers = [("Content-Type", entity.contentType), ("Content-Length", String(announced)),
                       ("Accept-Ranges", plan.ignoreRange ? "none" : "bytes")] + validators + rangeHeaders
        guard sendHead(status, headers), !isHead else { return (status, 0) }
        return (status, streamBody(entity.body, offset: first, count: limit))
    }

    // MARK: Conditionals

    /// If-None-Match (weak comparison), else If-Modified-Since.
    private static func isNotModified(_ request: HTTPRequest, _ entity: ServedEntity) -> Bool {
        if let tags = request.headers["if-none-match"] {
            let wanted = weakTag(entity.etag)
            return tags.split(separator: ",").contains { candidate in
                let tag = candidate.trimmingSpaces()
                return tag == "*" || weakTag(tag) == wanted
            }
        }
        if let since = request.headers["if-modified-since"], let date = HTTPDate.parse(since) {
            return entity.lastModified <= date
        }
        return false
    }

    /// Whether a Range may be honoured: no If-Range, or it matches (strong ETag equality, or the exact Last-Modified date).
    private static func ifRangeAllowsRange(_ request: HTTPRequest, _ entity: ServedEntity) -> Bool {
        guard let condition = request.headers["if-range"]?.trimmingSpaces() else { return true }
        if condition.hasPrefix("\"") || condition.hasPrefix("W/") {
            return !condition.hasPrefix("W/") && !entity.etag.hasPrefix("W/") && condition == entity.etag
        }
        guard let date = HTTPDate.parse(condition) else { return false }
        return date == entity.lastModified
    }

    private static func weakTag(_ tag: String) -> String {
        tag.hasPrefix("W/") ? String(tag.dropFirst(2)) : tag
    }

    // MARK: Writing

    private static let reasons: [Int: String] = [
        200: "OK", 206: "Partial Content", 304: "Not Modified", 400: "Bad Request", 403: "Forbidden",
        404: "Not Found", 405: "Method Not Allowed", 408: "Request Timeout", 416: "Range Not Satisfiable",
        429: "Too Many Requests", 431: "Request Header Fields Too Large", 500: "Internal Server Error",
        502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Timeout",
    ]

    private func sendHead(_ status: Int, _ headers: [(String, String)]) -> Bool {
        var text = "HTTP/1.1 \(status) \(Self.reasons[status] ?? "Status \(status)")\r\n"
        text += "Date: \(HTTPDate.format(Date()))\r\nServer: LocalHTTPServer\r\nConnection: close\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        text += "\r\n"
        return Sockets.sendAll(fd, Data(text.utf8))
    }

    /// A complete small response; the body defaults to a one-line plain-text description of the status.
    private func sendSimple(_ status: Int, isHead: Bool, body: Data? = nil, contentType: String = "text/plain; charset=utf-8",
                            extra: [(String, String)] = []) -> (status: Int, bodyBytesSent: Int) {
        let body = body ?? Data("\(status) \(Self.reasons[status] ?? "Status")\n".utf8)
        let headers = [("Content-Type", contentType), ("Content-Length", String(body.count))] + extra
        guard sendHead(status, headers), !isHead, !body.isEmpty else { return (status, 0) }
        return (status, Sockets.sendAll(fd, body) ? body.count : 0)
    }

    /// Writes `count` body bytes starting at `offset`, in 256 KiB chunks, or in paced chunks of about
    /// 1/50 s worth when throttled. Stops early if the peer goes away or the server stops. Returns bytes sent.
    private func streamBody(_ body: ServedEntity.Body, offset: Int, count: Int) -> Int {
        guard count > 0 else { return 0 }
        let buffer: UnsafeMutableRawPointer? = {
            if case .file = body { return UnsafeMutableRawPointer.allocate(byteCount: LocalHTTPServer.chunkSize, alignment: 16) }
            return nil
        }()
        defer { buffer?.deallocate() }

        var sent = 0
        var paceRate: Int?
        var paceStart: UInt64 = 0
        var paceBase = 0
        while sent < count {
            let (rate, stopping) = server.writeConditions()
            if stopping { break }
            if rate != paceRate {  // (re)start pacing from here when the throttle changes
                paceRate = rate
                paceStart = DispatchTime.now().uptimeNanoseconds
                paceBase = sent
            }
            let chunk = rate.map { max(1, min(LocalHTTPServer.chunkSize, $0 / 50)) } ?? LocalHTTPServer.chunkSize
            let wanted = min(chunk, count - sent)
            let written: Int
            switch body {
            case .data(let data):
                written = data.withUnsafeBytes { bytes in
                    Sockets.sendAll(fd, bytes.baseAddress! + offset + sent, wanted) ? wanted : -1
                }
            case .file(let file):
                let got = pread(file.fd, buffer!, wanted, off_t(offset + sent))
                written = got > 0 && Sockets.sendAll(fd, buffer!, got) ? got : -1
            }
            guard written > 0 else { break }
            sent += written
            if let rate, sent < count {
                let due = paceStart + UInt64(Double(sent - paceBase) / Double(rate) * 1e9)
                guard server.pause(untilUptimeNanoseconds: due) else { break }
            }
        }
        return sent
    }
}
