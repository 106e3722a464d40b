import Foundation
import Synchronization

/// The program's one HTTP client: libcurl's multi interface on one network thread, serving every transfer
/// (feeds, covers, downloads) over shared connections.
///
/// Every transfer is bounded (``HTTPLimits``), streams its body to a sink as it arrives and reports events;
/// ``fetch(_:)`` is the blocking convenience for small resources. The conventions of the field are built in:
/// `User-Agent: Newsstand/VERSION`; gzip, deflate, brotli and zstd decoded; HTTP/2 where a server offers it and
/// kept-alive connections (at most ``Configuration/maxConnectionsPerHost`` per host); only http and https, and
/// never a redirect from https to http; TLS verified against the system's certificates; proxies from
/// `http_proxy`, `https_proxy`, `all_proxy` and `no_proxy` (libcurl's rules); logins from the configuration's
/// ``CredentialSource``, then the `.netrc` file, negotiated by libcurl (Basic, Digest, ...). A password is never
/// put in a URL, logged, or named in an error.
///
/// All members may be used from any thread except the network thread itself (a sink or an event handler),
/// where ``fetch(_:)`` would wait for itself.
public final class HTTPClient: Sendable {
    /// How a client is set up.
    public struct Configuration: Sendable {
        /// Where logins are looked up before `.netrc`; nil = `.netrc` only.
        public var credentials: (any CredentialSource)?
        /// The `.netrc` file libcurl reads when no login comes from `credentials` (a missing file is fine).
        public var netrcFile: String?
        /// Connections open at once to one host.
        public var maxConnectionsPerHost: Int
        public var userAgent: String
        /// A PEM file of certificate authorities to trust instead of the system's (a private CA). Verification
        /// itself cannot be turned off.
        public var certificateAuthorityFile: String?

        /// `environment` gives the `.netrc` file: `$NETRC`, else `$HOME/.netrc`.
        public init(credentials: (any CredentialSource)? = nil,
                    environment: [String: String] = Configuration.netrcVariables(),
                    maxConnectionsPerHost: Int = 6, certificateAuthorityFile: String? = nil) {
            self.credentials = credentials
            netrcFile = Self.netrcFile(in: environment)
            self.maxConnectionsPerHost = maxConnectionsPerHost
            userAgent = "Newsstand/\(NewsstandVersion.string)"
            self.certificateAuthorityFile = certificateAuthorityFile
        }

        /// The variables `netrcFile(in:)` reads, from the process: without building its whole environment, which
        /// `ProcessInfo.environment` does anew on every call (the program makes its clients while it starts).
        public static func netrcVariables() -> [String: String] {
            var variables: [String: String] = [:]
            for name in ["NETRC", "HOME"] {
                if let value = getenv(name) { variables[name] = String(cString: value) }
            }
            return variables
        }

        /// `$NETRC`, else `$HOME/.netrc`, as curl looks for it.
        public static func netrcFile(in environment: [String: String]) -> String? {
            if let file = environment["NETRC"], !file.isEmpty { return file }
            if let home = environment["HOME"], !home.isEmpty { return (home as NSString).appendingPathComponent(".netrc") }
            return nil
        }
    }

    /// The client the program shares, logins from `.netrc` only until one with a credential store is made.
    public static let shared = HTTPClient()

    /// Bytes a blocking fetch holds at most when its limits give no body size.
    public static let defaultFetchCapacity = 64 << 20

    public let configuration: Configuration
    /// The network thread, started with the first request (so making a client costs nothing at launch).
    private let lazyLoop: LazyNetworkLoop
    private var loop: Result<NetworkLoop, HTTPError> { lazyLoop.loop }
    private let counter = TransferCounter()

    public convenience init(configuration: Configuration = Configuration()) {
        self.init(configuration: configuration, library: { Libcurl.shared })
    }

    /// A client over the given libcurl (tests: one that cannot be opened).
    init(configuration: Configuration, library: @escaping @Sendable () -> Result<Libcurl, HTTPError>) {
        self.configuration = configuration
        lazyLoop = LazyNetworkLoop(maxConnectionsPerHost: configuration.maxConnectionsPerHost, library: library)
    }

    public convenience init(credentials: (any CredentialSource)?, environment: [String: String] = Configuration.netrcVariables()) {
        self.init(configuration: Configuration(credentials: credentials, environment: environment))
    }

    deinit {
        lazyLoop.started?.submit(.shutdown)
    }

    /// Starts a transfer: the body goes to `sink` as it arrives and `events` hears how it goes (on the network
    /// thread: return quickly). The transfer ends with exactly one `.finished` or `.failed`. The transfer keeps
    /// the client alive until it ends.
    @discardableResult
    public func start(_ request: HTTPRequest, sink: any HTTPBodySink,
                      events: @escaping @Sendable (HTTPEvent) -> Void) -> HTTPTransfer {
        let loop: NetworkLoop
        switch self.loop {
        case .success(let running): loop = running
        case .failure(let error):
            let handle = HTTPTransfer(request: request, id: counter.next(), loop: nil, client: self)
            events(.failed(error))
            return handle
        }
        let handle = HTTPTransfer(request: request, id: counter.next(), loop: loop, client: self)
        let source = request.usesStoredLogins ? configuration.credentials : nil
        let credentials = source.flatMap { source in
            request.url.host.flatMap { source.credentials(forHost: $0, port: CurlTransfer.explicitPort(of: request.url), realm: nil) }
        }
        let setup = CurlTransfer.Setup(handle: handle, sink: sink, events: events, credentials: credentials,
                                       credentialSource: source, configuration: configuration, curl: loop.curl)
        if !loop.submit(.start(setup)) { events(.failed(.cancelled)) }
        return handle
    }

    /// Fetches a small resource whole, waiting for it: the final response (a success or 304) and its body,
    /// held in memory up to the request's `maxBodyBytes` (``defaultFetchCapacity`` when it has none).
    /// Throws ``HTTPError``. Never call it on the network thread (from a sink or an event handler).
    public func fetch(_ request: HTTPRequest) throws -> HTTPResponse {
        precondition((try? loop.get().isNetworkThread) != true, "HTTPClient.fetch would wait for itself on the network thread")
        let capacity = request.limits.maxBodyBytes.map { Int(clamping: $0) } ?? Self.defaultFetchCapacity
        let sink = HTTPBufferSink(capacity: capacity, whenFull: .fail)
        let outcome = FetchOutcome()
        start(request, sink: sink) { event in outcome.record(event) }
        let (head, error) = outcome.wait()
        if let error { throw error }
        guard let head else { throw HTTPError.other(host: request.hostForMessages, detail: "no response") }
        return HTTPResponse(head: head, body: sink.data)
    }

    /// Limits the receiving speed of every rate-limited request (``HTTPRequest/isRateLimited``) together, at the
    /// socket: the running ones share it equally, re-shared as they start and end, from now on. nil = no limit.
    public func setRateLimit(bytesPerSecond: Int?) {
        lazyLoop.setRateLimit(bytesPerSecond)
    }

    /// The receive-speed limits libcurl has for the running rate-limited transfers, smallest first (tests).
    func receiveSpeedLimits() -> [Int64] {
        let reply = FetchOutcome.Box<[Int64]>()
        guard (try? loop.get())?.submit(.inspectReceiveSpeeds { reply.set($0) }) == true else { return [] }
        return reply.wait()
    }
}

/// The client's network loop, made (libcurl opened, its thread started) when first needed; a rate limit
/// set before then is handed to it first. Without libcurl there is none, and every transfer fails saying so.
private final class LazyNetworkLoop: Sendable {
    private struct State {
        var made: NetworkLoop?
        /// A limit set before the loop was made (`.some(nil)`: none).
        var rateLimit: Int??
    }

    private let maxConnectionsPerHost: Int
    private let state = Mutex(State())
    private let library: @Sendable () -> Result<Libcurl, HTTPError>

    init(maxConnectionsPerHost: Int, library: @escaping @Sendable () -> Result<Libcurl, HTTPError>) {
        self.maxConnectionsPerHost = maxConnectionsPerHost
        self.library = library
    }

    var started: NetworkLoop? { state.withLock { $0.made } }

    var loop: Result<NetworkLoop, HTTPError> {
        state.withLock { state in
            if let made = state.made { return .success(made) }
            return library().map { curl in
                let loop = NetworkLoop(curl: curl, maxConnectionsPerHost: maxConnectionsPerHost)
                if let rateLimit = state.rateLimit { loop.submit(.setRateLimit(rateLimit)) }
                state.made = loop
                return loop
            }
        }
    }

    func setRateLimit(_ bytesPerSecond: Int?) {
        state.withLock { state in
            if let made = state.made { made.submit(.setRateLimit(bytesPerSecond)) } else { state.rateLimit = .some(bytesPerSecond) }
        }
    }
}

/// Numbers transfers.
private final class TransferCounter: Sendable {
    private let last = Atomic(0)

    func next() -> Int {
        last.add(1, ordering: .relaxed).newValue
    }
}

/// What a blocking fetch waits for.
private final class FetchOutcome: Sendable {
    /// One value handed from the network thread to the threads that wait for it.
    final class Box<Value: Sendable>: Sendable {
        private let value = Mutex<Value?>(nil)
        /// Signalled when the value is set; each waiter passes the signal on to the next.
        private let isSet = DispatchSemaphore(value: 0)

        func set(_ newValue: Value) {
            let first = value.withLock { value in
                defer { value = newValue }
                return value == nil
            }
            if first { isSet.signal() }
        }

        func wait() -> Value {
            isSet.wait()
            isSet.signal()
            return value.withLock { $0! }
        }
    }

    private let head = Mutex<HTTPResponseHead?>(nil)
    private let done = Box<HTTPError?>()

    func record(_ event: HTTPEvent) {
        switch event {
        case .response(let head): self.head.withLock { $0 = head }
        case .progress: break
        case .finished: done.set(nil)
        case .failed(let error): done.set(error)
        }
    }

    func wait() -> (HTTPResponseHead?, HTTPError?) {
        let error = done.wait()
        return (head.withLock { $0 }, error)
    }
}
