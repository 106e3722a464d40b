import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One accepted connection: reads a request head, answers it (applying the server's faults and throttle),
/// and records it; with keep-alive, again for the next request. The caller closes the socket afterwards.
final class HTTPConnection {
    let fd: Int32
    let server: LocalHTTPServer
    /// Whether the response being sent leaves the connection open for another request.
    private var keepAlive = false
    /// Bytes read past the end of a request head (the start of the next one).
    private var pending: [UInt8] = []

    private static let maxHeadBytes = 64 * 1024

    init(fd: Int32, server: LocalHTTPServer) {
        self.fd = fd
        self.server = server
    }

    func run() {
        Sockets.configureConnection(fd, timeoutSeconds: LocalHTTPServer.connectionTimeoutSeconds)
        while true {
            guard let head = readHead() else { return }
            guard let request = HTTPRequest.parse(head: head) else {
                keepAlive = false
                _ = sendSimple(400, isHead: false)
                return
            }
            server.beganAnswering()
            keepAlive = server.keepsConnectionsAlive && request.version == "HTTP/1.1"
                && request.headers["connection"]?.lowercased().contains("close") != true
            let (status, sent) = respond(to: request)
            server.record(RequestRecord(method: request.method, path: request.path ?? request.target, target: request.target,
                                        headers: request.headers, status: status, bodyBytesSent: sent))
            guard keepAlive else { break }
        }
        _ = shutdown(fd, Int32(SHUT_WR))
    }

    /// The bytes before the blank line ending the head; nil if the peer left, timed out or sent too much
    /// (the latter answered 431). Bytes after the blank line are kept for the next request.
    private func readHead() -> [UInt8]? {
        var head = pending
        pending = []
        var buffer = [UInt8](repeating: 0, count: 8192)
        var searchFrom = 0
        while true {
            if head.count >= 4 {
                var i = max(0, searchFrom)
                while i + 4 <= head.count {
                    if head[i] == 13, head[i + 1] == 10, head[i + 2] == 13, head[i + 3] == 10 {
                        pending = Array(head[(i + 4)...])
                        return Array(head[..<i])
                    }
                    i += 1
                }
                searchFrom = head.count - 3
            }
            if head.count > Self.maxHeadBytes {
                keepAlive = false
                _ = sendSimple(431, isHead: false)
                return nil
            }
            let n = buffer.withUnsafeMutableBytes { Sockets.receive(fd, $0.baseAddress!, $0.count) }
            guard n > 0 else { return nil }
            head.append(contentsOf: buffer[0..<n])
        }
    }

    /// The request's body (`Content-Length` bytes, at most ``ServedRequest/maxBodyBytes``; none without the field);
    /// nil when it is larger, chunked, or the peer stops sending it.
    private func readBody(of request: HTTPRequest) -> Data? {
        if request.headers["transfer-encoding"] != nil { return nil }
        guard let lengthText = request.headers["content-length"] else { return Data() }
        guard let length = Int(lengthText.trimmingSpaces()), length >= 0, length <= ServedRequest.maxBodyBytes else { return nil }
        var body = pending.prefix(length)
        pending.removeFirst(body.count)
        var buffer = [UInt8](repeating: 0, count: 8192)
        while body.count < length {
            let n = buffer.withUnsafeMutableBytes { Sockets.receive(fd, $0.baseAddress!, min($0.count, length - body.count)) }
            guard n > 0 else { return nil }
            body.append(contentsOf: buffer[0..<n])
        }
        return Data(body)
    }

    /// Answers `request`; returns the status sent and the body bytes written.
    private func respond(to request: HTTPRequest) -> (status: Int, bodyBytesSent: Int) {
        let (plan, failure) = server.admitRequest()
        let isHead = request.method == "HEAD"
        if let login = plan.requiredProxyLogin {
            let check = LoginCheck(login: RequiredLogin(scheme: .basic, realm: login.realm, user: login.user, password: login.password),
                                   nonce: server.digestNonce)
            if !check.accepts(request.headers["proxy-authorization"], method: request.method, target: request.target) {
                return sendSimple(407, isHead: isHead, extra: [("Proxy-Authenticate", check.challenge)])
            }
        }
        if let handler = server.requestHandler {
            if let failure {
                let extra = failure.retryAfter.map { [("Retry-After", String($0))] } ?? []
                return sendSimple(failure.status, isHead: isHead, extra: extra)
            }
            guard let body = readBody(of: request) else {
                keepAlive = false
                return sendSimple(413, isHead: isHead)
            }
            let handled = ServedRequest(method: request.method, path: request.path ?? request.target, query: request.query,
                                        headers: request.headers, body: body)
            if let response = handler(handled) {
                return sendSimple(response.status, isHead: isHead, body: response.body, contentType: response.contentType,
                                  extra: response.headers)
            }
        }
        guard request.method == "GET" || isHead else {
            return sendSimple(405, isHead: false, extra: [("Allow", "GET, HEAD")])
        }
        guard let path = request.path else { return sendSimple(400, isHead: isHead) }
        if let failure {
            let extra = failure.retryAfter.map { [("Retry-After", String($0))] } ?? []
            return sendSimple(failure.status, isHead: isHead, extra: extra)
        }
        if let login = plan.requiredLogin {
            let check = LoginCheck(login: login, nonce: server.digestNonce)
            if !check.accepts(request.headers["authorization"], method: request.method, target: request.target) {
                return sendSimple(401, isHead: isHead, extra: [("WWW-Authenticate", check.challenge)])
            }
        }
        if plan.redirectLoop {
            return sendSimple(302, isHead: isHead, extra: [("Location", request.target)])
        }
        if let location = plan.redirectTo {
            return sendSimple(302, isHead: isHead, extra: [("Location", location)])
        }
        if plan.endlessBody {
            keepAlive = false
            guard sendHead(200, [("Content-Type", "application/atom+xml")]), !isHead else { return (200, 0) }
            return (200, streamEndlessBody())
        }
        if let inflated = plan.gzipBombInflatedBytes {
            let bomb = GzipBomb(inflatedBytes: inflated)
            let headers = [("Content-Type", "application/atom+xml"), ("Content-Encoding", "gzip"),
                           ("Content-Length", String(bomb.compressedBytes))]
            guard sendHead(200, headers), !isHead else { return (200, 0) }
            return (200, streamGzipBomb(bomb))
        }
        let entity: ServedEntity
        switch server.lookup(path, query: request.query) {
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
        let drop = isHead ? nil : server.consumeDrop()
        var limit = isHead ? 0 : min(count, drop ?? count)
        if let stall = plan.stallAfterBytes, !isHead { limit = min(limit, max(0, stall)) }
        if plan.wrongContentLength || drop != nil || (plan.stallAfterBytes != nil && !isHead) { keepAlive = false }
        let headers = [("Content-Type", entity.contentType), ("Content-Length", String(announced)),
                       ("Accept-Ranges", plan.ignoreRange ? "none" : "bytes")] + validators + rangeHeaders + entity.extraHeaders
        guard sendHead(status, headers), !isHead else { return (status, 0) }
        let sent = streamBody(entity.body, offset: first, count: limit, dripping: plan.slowDrip)
        if sent < count { keepAlive = false }
        if plan.stallAfterBytes != nil { waitForPeerOrStop() }
        return (status, sent)
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
        200: "OK", 201: "Created", 206: "Partial Content", 302: "Found", 304: "Not Modified", 400: "Bad Request", 401: "Unauthorized", 403: "Forbidden",
        402: "Payment Required", 404: "Not Found", 405: "Method Not Allowed", 407: "Proxy Authentication Required", 408: "Request Timeout",
        412: "Precondition Failed", 413: "Content Too Large", 416: "Range Not Satisfiable",
        429: "Too Many Requests", 431: "Request Header Fields Too Large", 500: "Internal Server Error",
        502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Timeout",
    ]

    private func sendHead(_ status: Int, _ headers: [(String, String)]) -> Bool {
        var text = "HTTP/1.1 \(status) \(Self.reasons[status] ?? "Status \(status)")\r\n"
        text += "Date: \(HTTPDate.format(Date()))\r\nServer: LocalHTTPServer\r\nConnection: \(keepAlive ? "keep-alive" : "close")\r\n"
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
    /// 1/50 s worth when throttled (one byte a second when `dripping`). Stops early if the peer goes away or the
    /// server stops. Returns bytes sent.
    private func streamBody(_ body: ServedEntity.Body, offset: Int, count: Int, dripping: Bool = false) -> Int {
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
            let (throttle, stopping) = server.writeConditions()
            if stopping { break }
            let rate = dripping ? 1 : throttle
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

    /// Sends an Atom head, then entries, until the peer goes away or the server stops (throttled like any body).
    /// Returns bytes sent.
    private func streamEndlessBody() -> Int {
        let prologue = Data("<?xml version=\"1.0\"?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\">\n".utf8)
        let entries = Data(String(repeating: "<entry><title>and so on</title></entry>\n", count: 1600).utf8)
        var sent = streamBody(.data(prologue), offset: 0, count: prologue.count)
        guard sent == prologue.count else { return sent }
        while true {
            let wrote = streamBody(.data(entries), offset: 0, count: entries.count)
            sent += wrote
            if wrote < entries.count || server.writeConditions().stopping { return sent }
        }
    }

    /// Sends the bomb: its head, its zeros (in 256 KiB chunks, throttled like any body), its tail. Returns bytes sent.
    private func streamGzipBomb(_ bomb: GzipBomb) -> Int {
        var sent = streamBody(.data(Data(GzipBomb.head)), offset: 0, count: GzipBomb.head.count)
        guard sent == GzipBomb.head.count else { return sent }
        let zeros = Data(count: LocalHTTPServer.chunkSize)
        var remaining = bomb.zeroBytes
        while remaining > 0 {
            let count = Int(min(remaining, Int64(zeros.count)))
            let wrote = streamBody(.data(zeros), offset: 0, count: count)
            sent += wrote
            guard wrote == count else { return sent }
            remaining -= Int64(count)
        }
        let tail = Data(bomb.tail)
        return sent + streamBody(.data(tail), offset: 0, count: tail.count)
    }

    /// Holds the connection open, sending nothing, until the peer closes it, the server stops, or the
    /// connection timeout passes.
    private func waitForPeerOrStop() {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(LocalHTTPServer.connectionTimeoutSeconds) * 1_000_000_000
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        var scratch = [UInt8](repeating: 0, count: 4096)
        while !server.writeConditions().stopping, DispatchTime.now().uptimeNanoseconds < deadline {
            descriptor.revents = 0
            let ready = poll(&descriptor, 1, 100)
            guard ready > 0 else {
                if ready < 0 && errno != EINTR { return }
                continue
            }
            if descriptor.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 { return }
            // Readable: the peer closed (0) or sent something, which is read and ignored.
            let n = scratch.withUnsafeMutableBytes { recv(fd, $0.baseAddress!, $0.count, Int32(MSG_DONTWAIT)) }
            if n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR) { return }
        }
    }
}
