import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An HTTP/1.1 server on 127.0.0.1 for tests, demos and benchmarks: GET/HEAD of files or in-memory resources,
/// Range and If-Range, ETag/Last-Modified, throttling and fault injection.
///
/// Each connection is served on its own thread and closed after one response (`Connection: close`), unless
/// ``keepsConnectionsAlive`` is set.
/// Files are streamed from disk in 256 KiB chunks (smaller, paced chunks when ``bytesPerSecond`` is set),
/// never loaded whole. In-memory resources (``setResource(_:data:contentType:etag:lastModified:)``) take
/// precedence over files under `root`. All members may be used from any thread.
///
/// The server keeps itself alive while running; call ``stop()`` when done.
public final class LocalHTTPServer: Sendable {
    /// Body bytes per write when unthrottled.
    static let chunkSize = 256 * 1024
    /// Send/receive timeout for a connection, so an abandoned client cannot pin a thread forever.
    static let connectionTimeoutSeconds = 60

    /// The symlink-resolved root directory, if files are served.
    let rootPath: String?
    /// Distinguishes generated ETags of different server instances.
    private let instanceTag = String(UInt32.random(in: 0...UInt32.max), radix: 16)
    /// Entered by the listener thread and every connection thread; `stop()` waits on it.
    private let threads = DispatchGroup()
    private let state = Mutex(State())
    /// Wakes throttled writers when the server stops and `settledLog` when a request is recorded; held while
    /// `stopping` is set and while a request is recorded, so a waiter never misses either.
    private let wakeUps = NSCondition()
    /// The nonce of Digest challenges (one per server; never stale).
    let digestNonce = (0..<4).map { _ in String(UInt32.random(in: 0...UInt32.max), radix: 16) }.joined()

    /// What the server's threads share.
    private struct State {
        var resources: [String: StoredResource] = [:]
        var resourceGeneration = 0
        var throttle: Int?
        var plan = FaultPlan()
        var failuresAnswered = 0
        var dropsApplied = 0
        var log: [RequestRecord] = []
        /// Requests read and not yet recorded (being answered).
        var answering = 0
        var boundPort: UInt16 = 0
        var running = false
        var stopping = false
        var wakeWriteFD: Int32 = -1
        var openConnections: Set<Int32> = []
        var keepAlive = false
        var handler: (@Sendable (ServedRequest) -> ServedResponse?)?
        var accepted = 0
    }

    /// Creates a stopped server that serves in-memory resources and, if `root` is given, the files under it.
    /// Requests containing `..` or resolving (through symlinks) outside `root` are answered 403.
    public init(root: URL? = nil) {
        rootPath = root.map { $0.standardizedFileURL.resolvingSymlinksInPath().path }
    }

    deinit {
        // Only reachable when not running (running threads retain the server).
        state.withLock { if $0.wakeWriteFD >= 0 { close($0.wakeWriteFD) } }
    }

    // MARK: Lifecycle

    /// Binds 127.0.0.1:`port` (0 = any free port) and starts accepting connections.
    /// A stopped server may be started again. Throws ``LocalHTTPServerError``.
    public func start(port: UInt16 = 0) throws {
        try state.withLock { state in
            guard !state.running else { throw LocalHTTPServerError.alreadyRunning }
            let listener = try Sockets.makeLoopbackListener(port: port)
            var pipeFDs: [Int32] = [-1, -1]
            guard pipe(&pipeFDs) == 0 else {
                let error = LocalHTTPServerError.socketCall(call: "pipe", errno: errno)
                close(listener.fd)
                throw error
            }
            for fd in pipeFDs { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            state.boundPort = listener.port
            state.wakeWriteFD = pipeFDs[1]
            state.running = true
            state.stopping = false
            threads.enter()
            let wakeReadFD = pipeFDs[0]
            let thread = Thread { [self] in
                acceptLoop(listener: listener.fd, wakeRead: wakeReadFD)
                threads.leave()
            }
            thread.name = "LocalHTTPServer accept :\(listener.port)"
            thread.start()
        }
    }

    /// The bound port (0 before the first `start`; stays the last port after `stop`).
    public var port: UInt16 { state.withLock { $0.boundPort } }

    /// `http://127.0.0.1:PORT/`.
    public var baseURL: URL {
        URL(string: "http://127.0.0.1:\(port)/")!
    }

    /// The URL of `path` on this server (percent-encoding it), e.g. `url(for: "/issues/a b.epub")`.
    public func url(for path: String) -> URL {
        let trimmed = path.hasPrefix("/") ? String(path.dropFirst()) : path
        let encoded = trimmed.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? trimmed
        return URL(string: baseURL.absoluteString + encoded)!
    }

    /// Whether the server is accepting connections.
    public var isRunning: Bool { state.withLock { $0.running && !$0.stopping } }

    /// Closes the listener and all open connections (also interrupting throttled responses), then waits
    /// for the server's threads to finish. Idempotent; returns promptly.
    public func stop() {
        let wasRunning = wakeUps.withLock {
            let (running, newlyStopping) = state.withLock { state -> (Bool, Bool) in
                guard state.running else { return (false, false) }
                guard !state.stopping else { return (true, false) }
                state.stopping = true
                var byte: UInt8 = 1
                _ = write(state.wakeWriteFD, &byte, 1)
                for fd in state.openConnections { _ = shutdown(fd, Int32(SHUT_RDWR)) }
                return (true, true)
            }
            if newlyStopping { wakeUps.broadcast() }
            return running
        }
        guard wasRunning else { return }

        _ = threads.wait(timeout: .now() + .seconds(10))

        state.withLock { state in
            if state.running {
                state.running = false
                state.stopping = false
                close(state.wakeWriteFD)
                state.wakeWriteFD = -1
            }
        }
    }

    private func acceptLoop(listener: Int32, wakeRead: Int32) {
        defer {
            close(listener)
            close(wakeRead)
        }
        var fds = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
        while true {
            fds[0].revents = 0
            fds[1].revents = 0
            let ready = poll(&fds, 2, -1)
            if ready < 0 {
                if errno == EINTR { continue }
                return
            }
            if fds[1].revents != 0 { return }
            guard fds[0].revents != 0 else { continue }
            let fd = Sockets.accept(listener)
            if fd < 0 {
                switch errno {
                case EINTR, EAGAIN, EWOULDBLOCK, ECONNABORTED, EPROTO: continue
                case EMFILE, ENFILE, ENOBUFS, ENOMEM: usleep(10_000); continue
                default: return
                }
            }
            let admitted = state.withLock { state -> Bool in
                guard !state.stopping else { return false }
                state.openConnections.insert(fd)
                state.accepted += 1
                threads.enter()
                return true
            }
            guard admitted else {
                close(fd)
                return
            }
            let thread = Thread { [self] in
                HTTPConnection(fd: fd, server: self).run()
                _ = state.withLock { $0.openConnections.remove(fd) }
                close(fd)
                threads.leave()
            }
            thread.name = "LocalHTTPServer connection"
            thread.start()
        }
    }

    // MARK: Resources

    /// Serves `data` at `path` (a leading "/" is added if missing), replacing any previous resource there.
    /// A `path` with a query (`/series?page=1`) answers only requests with exactly that query (as sent).
    /// Without an explicit `etag`, one is generated; it changes whenever the data changes.
    /// `lastModified` defaults to now when the data changes (whole seconds). `headers` are further response
    /// headers sent as given (`Content-Location`, `Content-Language`…).
    public func setResource(_ path: String, data: Data, contentType: String = "application/octet-stream",
                            etag: String? = nil, lastModified: Date? = nil, headers: [(String, String)] = []) {
        let key = Self.resourceKey(path)
        state.withLock { state in
            let previous = state.resources[key]
            let unchanged = previous?.data == data
            let tag: String
            if let etag {
                tag = etag.hasPrefix("\"") || etag.hasPrefix("W/") ? etag : "\"\(etag)\""
            } else if unchanged, let previous {
                tag = previous.etag
            } else {
                state.resourceGeneration += 1
                tag = "\"\(instanceTag)-\(state.resourceGeneration)-\(String(data.count, radix: 16))\""
            }
            let modified = lastModified ?? (unchanged ? previous?.lastModified : nil) ?? Date()
            state.resources[key] = StoredResource(data: data, contentType: contentType, etag: tag,
                                                  lastModified: Date(timeIntervalSince1970: modified.timeIntervalSince1970.rounded(.down)),
                                                  extraHeaders: headers)
        }
    }

    /// Stops serving the in-memory resource at `path` (a file under root with that path becomes visible again).
    public func removeResource(_ path: String) {
        let key = Self.resourceKey(path)
        state.withLock { $0.resources[key] = nil }
    }

    private static func resourceKey(_ path: String) -> String {
        path.hasPrefix("/") ? path : "/" + path
    }

    // MARK: Handled requests

    /// Answers requests in code before anything else is looked up (any method; the body is read for it): a response,
    /// or nil to serve the request as a file or resource. Faults of ``faults`` that fail requests still apply first.
    /// Called on the connection's thread.
    public var requestHandler: (@Sendable (ServedRequest) -> ServedResponse?)? {
        get { state.withLock { $0.handler } }
        set { state.withLock { $0.handler = newValue } }
    }

    // MARK: Throttling, faults, log

    /// Throttles every response body to about this many bytes per second, written in small paced chunks
    /// (about 50 per second). `nil` = unthrottled. Changes apply to responses already in flight.
    public var bytesPerSecond: Int? {
        get { state.withLock { $0.throttle } }
        set { state.withLock { $0.throttle = newValue.map { max(1, $0) } } }
    }

    /// The faults to inject. Assigning resets the counters behind `failFirstRequests` and `dropCount`.
    public var faults: FaultPlan {
        get { state.withLock { $0.plan } }
        set {
            state.withLock { state in
                state.plan = newValue
                state.failuresAnswered = 0
                state.dropsApplied = 0
            }
        }
    }

    /// Whether connections stay open for further requests (HTTP/1.1 keep-alive) when the client does not ask to
    /// close and the response's length is exact; off by default (every response closes its connection).
    /// Faults that break the framing (drops, stalls, endless bodies, a wrong Content-Length) still close.
    public var keepsConnectionsAlive: Bool {
        get { state.withLock { $0.keepAlive } }
        set { state.withLock { $0.keepAlive = newValue } }
    }

    /// Connections accepted since the server was made (with ``keepsConnectionsAlive``, fewer than requests).
    public var connectionCount: Int { state.withLock { $0.accepted } }

    /// Every request answered so far, oldest first (a snapshot). Requests whose head could not be parsed
    /// (answered 400) and connections closed before sending a request are not recorded.
    public var requestLog: [RequestRecord] { state.withLock { $0.log } }

    /// ``requestLog`` once every request read so far has been answered and recorded, waiting at most `timeout`
    /// seconds. A request is recorded after its answer is written, so a client can have the whole answer before
    /// the server has logged it: a test that reads the log right after its client finished should use this.
    public func settledLog(timeout: TimeInterval = 5) -> [RequestRecord] {
        let deadline = Date(timeIntervalSinceNow: timeout)
        return wakeUps.withLock {
            while state.withLock({ $0.answering > 0 }) && wakeUps.wait(until: deadline) {}
            return requestLog
        }
    }

    /// Empties ``requestLog``.
    public func clearLog() {
        state.withLock { $0.log.removeAll() }
    }

    // MARK: Used by connections

    /// The fault plan for a new request, and the failure to answer if `failFirstRequests` still applies.
    func admitRequest() -> (plan: FaultPlan, failure: (status: Int, retryAfter: Int?)?) {
        state.withLock { state in
            var failure: (status: Int, retryAfter: Int?)?
            if let fail = state.plan.failFirstRequests, state.failuresAnswered < fail.count {
                state.failuresAnswered += 1
                failure = (fail.status, fail.retryAfter)
            }
            return (state.plan, failure)
        }
    }

    /// The byte count after which to drop this response's connection, consuming one of `dropCount`.
    func consumeDrop() -> Int? {
        state.withLock { state in
            guard let after = state.plan.dropConnectionAfterBytes, state.dropsApplied < state.plan.dropCount else { return nil }
            state.dropsApplied += 1
            return max(0, after)
        }
    }

    /// The resource at `path`: one set for exactly that query (`/series?page=1`) first, when the request has one.
    func lookup(_ path: String, query: String? = nil) -> ServedEntity.Lookup {
        let resource = state.withLock { state in query.flatMap { state.resources[path + "?" + $0] } ?? state.resources[path] }
        if let resource { return .found(resource.entity) }
        guard let rootPath else { return .notFound }
        return ServedEntity.file(atRequestPath: path, rootPath: rootPath)
    }

    /// The current throttle, and whether the server is stopping.
    func writeConditions() -> (bytesPerSecond: Int?, stopping: Bool) {
        state.withLock { ($0.throttle, $0.stopping) }
    }

    /// Sleeps until the monotonic time `deadline` (nanoseconds), waking early if the server stops.
    /// Returns false when stopping.
    func pause(untilUptimeNanoseconds deadline: UInt64) -> Bool {
        wakeUps.withLock {
            var stopping: Bool { state.withLock { $0.stopping } }
            while !stopping {
                let now = DispatchTime.now().uptimeNanoseconds
                guard now < deadline else { break }
                _ = wakeUps.wait(until: Date(timeIntervalSinceNow: Double(deadline - now) / 1e9))
            }
            return !stopping
        }
    }

    /// A request was read and is being answered (``settledLog(timeout:)`` waits for it).
    func beganAnswering() {
        state.withLock { $0.answering += 1 }
    }

    func record(_ entry: RequestRecord) {
        wakeUps.withLock {
            state.withLock { state in
                state.log.append(entry)
                state.answering = max(0, state.answering - 1)
            }
            wakeUps.broadcast()
        }
    }
}
