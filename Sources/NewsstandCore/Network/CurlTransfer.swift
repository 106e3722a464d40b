import CCurl
import Foundation

/// One transfer on the network thread: its libcurl easy handle, the callbacks libcurl calls, and what they
/// learn (the response, the bytes counted against the limits, why it stopped).
///
/// Only the network thread touches an instance; it is kept alive by ``NetworkLoop`` while the easy handle
/// exists, and the handle points back at it (`CURLOPT_PRIVATE` and the callbacks' user data).
final class CurlTransfer {
    /// What a transfer starts from, gathered on the caller's thread.
    struct Setup: Sendable {
        let handle: HTTPTransfer
        let sink: HTTPBodySink
        let events: @Sendable (HTTPEvent) -> Void
        /// The login offered from the start (the credential source's answer for the host, any realm).
        let credentials: Credentials?
        let credentialSource: CredentialSource?
        let configuration: HTTPClient.Configuration
        let curl: Libcurl
    }

    /// What ``complete(_:)`` leaves to the loop.
    enum Completion {
        case ended
        /// A 401 named a realm the credential source may have a login for: run this lookup off the network
        /// thread, then ``prepareRetry(with:)``.
        case needsCredentials(@Sendable () -> Credentials?)
    }

    /// Why the callbacks stopped the transfer.
    private enum Stop {
        case failure(HTTPError)
        /// A 401: ask the credential source for the realm's login before failing.
        case unauthorized(HTTPResponseHead)
    }

    let easy: UnsafeMutableRawPointer
    private let curl: Libcurl
    let handle: HTTPTransfer
    let request: HTTPRequest
    var id: Int { handle.id }
    var isInMulti = false
    private(set) var receiveSpeedLimit: Int64 = 0
    private let setup: Setup
    private let host: String
    private let errorBuffer: UnsafeMutablePointer<CChar>
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private var offered: Credentials?
    private var hasAskedForRealm = false
    private var isEnded = false

    // What the current attempt learnt.
    private var received = HTTPHeaderLines()
    private var isResponseChecked = false
    private var decodedBytes: Int64 = 0
    private var stop: Stop?
    private var lastReceived: Int64 = 0
    private var lastReceivedChange: UInt64 = 0
    private var lastReport: UInt64 = 0
    private var reportedReceived: Int64 = -1
    private var lastUnauthorized: HTTPResponseHead?

    init(_ setup: Setup) {
        self.setup = setup
        handle = setup.handle
        request = setup.handle.request
        host = request.hostForMessages
        offered = setup.credentials
        curl = setup.curl
        easy = curl.easyInit()!
        errorBuffer = .allocate(capacity: Int(newsstand_curl_error_size()))
        errorBuffer.initialize(repeating: 0, count: Int(newsstand_curl_error_size()))
    }

    deinit {
        curl.easyCleanup(easy)
        curl.free(headerList)
        errorBuffer.deallocate()
    }

    /// The transfer whose easy handle this is.
    static func owning(_ easy: UnsafeMutableRawPointer, curl: Libcurl) -> CurlTransfer? {
        var pointer: UnsafeMutableRawPointer?
        guard curl.info(easy, CURLINFO_PRIVATE, &pointer) == CURLE_OK, let pointer else { return nil }
        return Unmanaged<CurlTransfer>.fromOpaque(pointer).takeUnretainedValue()
    }

    // MARK: Options

    /// Sets every option; a failure when libcurl refuses one.
    func configure(rateLimitShare: Int64) -> HTTPError? {
        let limits = request.limits
        let configuration = setup.configuration
        var refused: [String] = []
        func check(_ code: CURLcode, _ name: String) {
            if code != CURLE_OK { refused.append("\(name) (\(curl.describe(code)))") }
        }
        func set(_ option: CURLoption, _ value: Int, _ name: String) {
            check(curl.setOption(easy, option, value), name)
        }
        func set(_ option: CURLoption, _ value: String, _ name: String) {
            check(curl.setOption(easy, option, value), name)
        }
        func set(_ option: CURLoption, offset value: Int64, _ name: String) {
            check(curl.setOption(easy, option, offset: value), name)
        }
        let me = Unmanaged.passUnretained(self).toOpaque()
        check(curl.setOption(easy, CURLOPT_PRIVATE, pointer: me), "PRIVATE")
        check(curl.setOption(easy, CURLOPT_ERRORBUFFER, pointer: UnsafeMutableRawPointer(errorBuffer)), "ERRORBUFFER")
        set(CURLOPT_URL, request.url.absoluteString, "URL")
        // Signals are the program's: libcurl must not install handlers or use alarm() for time-outs.
        set(CURLOPT_NOSIGNAL, 1, "NOSIGNAL")
        set(CURLOPT_PROTOCOLS_STR, "http,https", "PROTOCOLS_STR")
        // Never from https to http: a redirect that would drop encryption fails instead.
        set(CURLOPT_REDIR_PROTOCOLS_STR, Self.redirectProtocols(for: request.url), "REDIR_PROTOCOLS_STR")
        set(CURLOPT_FOLLOWLOCATION, 1, "FOLLOWLOCATION")
        set(CURLOPT_MAXREDIRS, max(0, limits.maxRedirects), "MAXREDIRS")
        set(CURLOPT_USERAGENT, configuration.userAgent, "USERAGENT")
        if request.decodesContent {
            set(CURLOPT_ACCEPT_ENCODING, "", "ACCEPT_ENCODING")  // every encoding this libcurl decodes
        }
        set(CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_2TLS), "HTTP_VERSION")
        set(CURLOPT_PIPEWAIT, 1, "PIPEWAIT")
        set(CURLOPT_TCP_KEEPALIVE, 1, "TCP_KEEPALIVE")
        // Proxies: libcurl reads http_proxy, https_proxy, all_proxy and no_proxy itself; nothing here may set
        // CURLOPT_PROXY or CURLOPT_NOPROXY, or it would stop doing so.
        set(CURLOPT_PROXYAUTH, Int(bitPattern: newsstand_curlauth_any()), "PROXYAUTH")
        set(CURLOPT_SUPPRESS_CONNECT_HEADERS, 1, "SUPPRESS_CONNECT_HEADERS")
        if request.usesStoredLogins {
            set(CURLOPT_HTTPAUTH, Int(bitPattern: newsstand_curlauth_any()), "HTTPAUTH")
            set(CURLOPT_NETRC, Int(CURL_NETRC_OPTIONAL.rawValue), "NETRC")
            if let netrc = configuration.netrcFile { set(CURLOPT_NETRC_FILE, netrc, "NETRC_FILE") }
        }
        if let authorities = configuration.certificateAuthorityFile { set(CURLOPT_CAINFO, authorities, "CAINFO") }
        applyCredentials(check: check)
        switch request.method {
        case .head: set(CURLOPT_NOBODY, 1, "NOBODY")
        case .get: break
        case .post, .put:
            let body = request.body ?? Data()
            set(CURLOPT_POSTFIELDSIZE_LARGE, offset: Int64(body.count), "POSTFIELDSIZE_LARGE")
            if body.isEmpty {
                set(CURLOPT_COPYPOSTFIELDS, "", "COPYPOSTFIELDS")
            } else {
                check(body.withUnsafeBytes { curl.setOption(easy, CURLOPT_COPYPOSTFIELDS, pointer: UnsafeMutableRawPointer(mutating: $0.baseAddress!)) },
                      "COPYPOSTFIELDS")
            }
            if request.method == .put { set(CURLOPT_CUSTOMREQUEST, "PUT", "CUSTOMREQUEST") }
        }
        var list: UnsafeMutablePointer<curl_slist>?
        for (name, value) in request.headers.sorted(by: { $0.key < $1.key }) {
            list = curl.append(list, "\(name): \(value)")
        }
        headerList = list
        if let list { check(curl.setOption(easy, CURLOPT_HTTPHEADER, list), "HTTPHEADER") }

        set(CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(limits.connectTimeout), "CONNECTTIMEOUT_MS")
        if let deadline = limits.deadline { set(CURLOPT_TIMEOUT_MS, Self.milliseconds(deadline), "TIMEOUT_MS") }
        if let lowSpeed = limits.lowSpeed {
            set(CURLOPT_LOW_SPEED_LIMIT, lowSpeed.bytesPerSecond, "LOW_SPEED_LIMIT")
            set(CURLOPT_LOW_SPEED_TIME, lowSpeed.seconds, "LOW_SPEED_TIME")
        }
        // Refuses at once a response announcing more than the limit; the callbacks catch the rest.
        if let maxReceived = limits.maxReceivedBytes { set(CURLOPT_MAXFILESIZE_LARGE, offset: maxReceived, "MAXFILESIZE_LARGE") }
        setReceiveSpeedLimit(rateLimitShare)

        check(curl.setOption(easy, CURLOPT_WRITEDATA, pointer: me), "WRITEDATA")
        check(curl.setOption(easy, CURLOPT_WRITEFUNCTION) { pointer, size, count, user in
            Unmanaged<CurlTransfer>.fromOpaque(user!).takeUnretainedValue().receiveBody(pointer, size * count)
        }, "WRITEFUNCTION")
        check(curl.setOption(easy, CURLOPT_HEADERDATA, pointer: me), "HEADERDATA")
        check(curl.setOption(easy, CURLOPT_HEADERFUNCTION) { pointer, size, count, user in
            Unmanaged<CurlTransfer>.fromOpaque(user!).takeUnretainedValue().receiveHeader(pointer, size * count)
        }, "HEADERFUNCTION")
        check(curl.setOption(easy, CURLOPT_XFERINFODATA, pointer: me), "XFERINFODATA")
        check(curl.setOption(easy, CURLOPT_XFERINFOFUNCTION) { user, total, now, _, _ in
            Unmanaged<CurlTransfer>.fromOpaque(user!).takeUnretainedValue().receiveProgress(total: total, now: now)
        }, "XFERINFOFUNCTION")
        set(CURLOPT_NOPROGRESS, 0, "NOPROGRESS")

        resetAttempt()
        isInMulti = refused.isEmpty
        guard refused.isEmpty else {
            return .other(host: host, detail: "libcurl refused the option\(refused.count > 1 ? "s" : "") \(refused.joined(separator: ", "))")
        }
        return nil
    }

    /// The protocols a redirect may lead to: from https only https.
    static func redirectProtocols(for url: URL) -> String {
        url.scheme?.lowercased() == "https" ? "https" : "http,https"
    }

    func setReceiveSpeedLimit(_ bytesPerSecond: Int64) {
        receiveSpeedLimit = bytesPerSecond
        _ = curl.setOption(easy, CURLOPT_MAX_RECV_SPEED_LARGE, offset: bytesPerSecond)
    }

    private func applyCredentials(check: (CURLcode, String) -> Void) {
        // Set or cleared every time (a retry may change them); never part of the URL.
        check(curl.setOption(easy, CURLOPT_USERNAME, offered?.user), "USERNAME")
        check(curl.setOption(easy, CURLOPT_PASSWORD, offered?.password), "PASSWORD")
    }

    private static func milliseconds(_ seconds: TimeInterval) -> Int {
        Int(min(max(seconds, 0.001), 1e9) * 1000)
    }

    private func resetAttempt() {
        received.reset()
        isResponseChecked = false
        decodedBytes = 0
        stop = nil
        lastReceived = 0
        lastReceivedChange = DispatchTime.now().uptimeNanoseconds
        lastReport = 0
        reportedReceived = -1
        errorBuffer[0] = 0
    }

    // MARK: Callbacks (libcurl calls these on the network thread)

    private func receiveHeader(_ pointer: UnsafeMutablePointer<CChar>?, _ count: Int) -> Int {
        guard !handle.isCancelled else {
            stop = .failure(.cancelled)
            return 0
        }
        guard let pointer, count > 0 else { return count }
        received.read(UnsafeRawBufferPointer(start: pointer, count: count))
        return count
    }

    private func receiveBody(_ pointer: UnsafeMutablePointer<CChar>?, _ count: Int) -> Int {
        guard stop == nil else { return 0 }
        if !isResponseChecked {
            isResponseChecked = true
            if let stop = checkResponse() {
                self.stop = stop
                return 0
            }
        }
        let limits = request.limits
        if let maxBody = limits.maxBodyBytes, decodedBytes + Int64(count) > maxBody {
            // "Unpacks to" only when there was something to unpack.
            let encoding = received.headers["content-encoding"]?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
            stop = .failure(tooLarge(maxBody, isDecoded: !encoding.isEmpty && encoding != "identity"))
            return 0
        }
        if let maxReceived = limits.maxReceivedBytes, receivedBytes > maxReceived {
            stop = .failure(tooLarge(maxReceived, isDecoded: false))
            return 0
        }
        let bytes = UnsafeRawBufferPointer(start: pointer, count: count)
        let verdict = handle.unlessCancelled { setup.sink.receive(bytes, from: handle) }
        switch verdict {
        case nil:
            stop = .failure(.cancelled)
            return 0
        case .accepted?:
            decodedBytes += Int64(count)
            return count
        case .full?:
            return newsstand_curl_writefunc_pause()
        case .failed(let reason)?:
            stop = .failure(.sink(reason))
            return 0
        }
    }

    private func receiveProgress(total: curl_off_t, now received: curl_off_t) -> Int32 {
        guard stop == nil else { return 1 }
        guard !handle.isCancelled else {
            stop = .failure(.cancelled)
            return 1
        }
        let now = DispatchTime.now().uptimeNanoseconds
        let received = Int64(received)
        if received != lastReceived {
            lastReceived = received
            lastReceivedChange = now
        }
        if let maxReceived = request.limits.maxReceivedBytes, received > maxReceived {
            stop = .failure(tooLarge(maxReceived, isDecoded: false))
            return 1
        }
        if isResponseChecked, received != reportedReceived, now &- lastReport >= 100_000_000 {
            reportedReceived = received
            lastReport = now
            emit(.progress(received: received, expected: total > 0 ? Int64(total) : nil))
        }
        return 0
    }

    // MARK: The response

    /// Reports a success (2xx, 304) as `.response`; anything else is why the transfer stops. A 401 without a
    /// challenge (`WWW-Authenticate`) names no way to log in, so no login can answer it: it is a plain status.
    private func checkResponse() -> Stop? {
        let head = currentHead()
        switch head.status {
        case 200..<300, 304:
            emit(.response(head))
            return nil
        case _ where request.acceptsAnyStatus && head.status != 407:
            emit(.response(head))
            return nil
        case 401 where head.header("WWW-Authenticate") != nil:
            return .unauthorized(head)
        case 407:
            return .failure(.proxyLoginRequired)
        default:
            return .failure(.status(head))
        }
    }

    private func currentHead() -> HTTPResponseHead {
        var code = 0
        if curl.info(easy, CURLINFO_RESPONSE_CODE, &code) == CURLE_OK, code != 0 { received.status = code }
        var effective: UnsafePointer<CChar>?
        var url = request.url
        if curl.info(easy, CURLINFO_EFFECTIVE_URL, &effective) == CURLE_OK, let effective,
           let parsed = URL(string: String(cString: effective)) {
            url = parsed
        }
        return HTTPResponseHead(status: received.status, reason: received.reason, headers: received.headers, url: url)
    }

    private var receivedBytes: Int64 {
        var value: curl_off_t = 0
        _ = curl.info(easy, CURLINFO_SIZE_DOWNLOAD_T, offset: &value)
        return Int64(value)
    }

    private func tooLarge(_ limit: Int64, isDecoded: Bool) -> HTTPError {
        let limits = request.limits
        return .tooLarge(subject: limits.subject, limit: limit, limitName: limits.sizeLimitName,
                         remedy: limits.sizeLimitRemedy, isDecoded: isDecoded)
    }

    // MARK: Completion

    /// libcurl is done with this attempt (the handle is already out of the multi handle).
    func complete(_ code: CURLcode) -> Completion {
        if stop == nil, code == CURLE_OK, !isResponseChecked {
            isResponseChecked = true
            stop = checkResponse()
        }
        switch stop {
        case .unauthorized(let head)?:
            lastUnauthorized = head
            let realm = Self.realm(in: head.header("WWW-Authenticate"))
            // libcurl sends a login only to the host asked first (never after a redirect elsewhere): only then
            // is there any point in looking one up for the realm.
            if let source = setup.credentialSource, !hasAskedForRealm, let host = request.url.host, isFirstServer(head.url) {
                hasAskedForRealm = true
                let port = Self.explicitPort(of: request.url)
                return .needsCredentials { source.credentials(forHost: host, port: port, realm: realm) }
            }
            end(with: loginFailure(head))
        case .failure(let error)?:
            end(with: error)
        case nil where code != CURLE_OK:
            end(with: failure(for: code))
        case nil:
            if reportedReceived != receivedBytes, isResponseChecked {
                var total: curl_off_t = -1
                _ = curl.info(easy, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, offset: &total)
                emit(.progress(received: receivedBytes, expected: total > 0 ? Int64(total) : nil))
            }
            do {
                let finished: Void? = try handle.unlessCancelled { try setup.sink.finish() }
                end(with: finished == nil ? .cancelled : nil)
            } catch {
                end(with: .sink((error as? HTTPError)?.description ?? "\(error)"))
            }
        }
        return .ended
    }

    /// Prepares another attempt with the login found for the 401's realm; false when there is nothing new to
    /// offer (then ``endWithLoginFailure()``).
    func prepareRetry(with credentials: Credentials?) -> Bool {
        guard let credentials, credentials != offered, !handle.isCancelled else { return false }
        offered = credentials
        applyCredentials { _, _ in }
        resetAttempt()
        return true
    }

    func endWithLoginFailure() {
        if handle.isCancelled {
            end(with: .cancelled)
        } else if let head = lastUnauthorized {
            end(with: loginFailure(head))
        } else {
            end(with: .loginRequired(host: host, realm: nil))
        }
    }

    /// The 401 in words, naming the host that asked (after a redirect, not necessarily the first).
    private func loginFailure(_ head: HTTPResponseHead) -> HTTPError {
        let realm = Self.realm(in: head.header("WWW-Authenticate"))
        let asking = head.url.host ?? host
        if let offered, isFirstServer(head.url) { return .loginRejected(host: asking, realm: realm, user: offered.user) }
        return .loginRequired(host: asking, realm: realm)
    }

    /// Whether `url` is on the scheme, host and port the request was made to: the only server libcurl sends a
    /// login to.
    private func isFirstServer(_ url: URL) -> Bool {
        url.scheme?.lowercased() == request.url.scheme?.lowercased() && url.host?.lowercased() == request.url.host?.lowercased()
            && Self.explicitPort(of: url) == Self.explicitPort(of: request.url)
    }

    /// Reports the end once: `.finished` when `error` is nil. After a cancel, always `.failed(.cancelled)`.
    func end(with error: HTTPError?) {
        guard !isEnded else { return }
        isEnded = true
        isInMulti = false
        // Decided under one hold of the transfer's callback lock: checking for a cancel and then emitting would let a
        // cancel in between drop the event, while its command finds the transfer gone, so no end would ever come.
        if handle.unlessCancelled({ setup.events(error.map { .failed($0) } ?? .finished) }) == nil {
            setup.events(.failed(.cancelled))
        }
    }

    private func emit(_ event: HTTPEvent) {
        handle.unlessCancelled { setup.events(event) }
    }

    // MARK: Errors

    /// libcurl's failure in plain words.
    private func failure(for code: CURLcode) -> HTTPError {
        let detail = self.detail(for: code)
        var connectCode = 0
        _ = curl.info(easy, CURLINFO_HTTP_CONNECTCODE, &connectCode)
        if connectCode == 407 { return .proxyLoginRequired }
        let limits = request.limits
        switch code {
        case CURLE_OPERATION_TIMEDOUT:
            return timeoutFailure()
        case CURLE_TOO_MANY_REDIRECTS:
            return .tooManyRedirects(host: host, limit: limits.maxRedirects)
        case CURLE_UNSUPPORTED_PROTOCOL:
            let scheme = request.url.scheme?.lowercased()
            if scheme != "http" && scheme != "https" {
                return .unsupportedURL(Self.withoutCredentials(request.url))
            }
            if (300..<400).contains(received.status), let location = received.headers["location"],
               let target = URL(string: location, relativeTo: request.url)?.scheme?.lowercased() {
                if scheme == "https" && target == "http" { return .insecureRedirect(host: host) }
                // A parsed scheme holds only letters, digits, `+`, `-` and `.`.
                if target != "http" && target != "https" { return .refusedRedirect(host: host, scheme: String(target.prefix(20))) }
            }
            return .other(host: host, detail: detail)
        case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR,
             CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS:
            return .certificate(host: host, detail: detail)
        case CURLE_SSL_CONNECT_ERROR:
            return .secureConnection(host: host, detail: detail)
        case CURLE_COULDNT_RESOLVE_HOST:
            return .cannotConnect(host: host, detail: "no such host (the name does not resolve)")
        case CURLE_COULDNT_RESOLVE_PROXY:
            return .cannotConnect(host: host, detail: "the proxy's name does not resolve (check http_proxy, https_proxy or all_proxy)")
        case CURLE_COULDNT_CONNECT:
            var osError = 0
            _ = curl.info(easy, CURLINFO_OS_ERRNO, &osError)
            let reason = osError != 0 ? String(cString: strerror(Int32(osError))).lowercased() : detail
            return .cannotConnect(host: host, detail: reason)
        case CURLE_FILESIZE_EXCEEDED:
            return tooLarge(limits.maxReceivedBytes ?? 0, isDecoded: false)
        case CURLE_PARTIAL_FILE:
            var total: curl_off_t = -1
            _ = curl.info(easy, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, offset: &total)
            return .truncated(host: host, received: receivedBytes, expected: total >= 0 ? Int64(total) : nil)
        case CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_GOT_NOTHING, CURLE_HTTP2, CURLE_HTTP2_STREAM:
            return .connectionLost(host: host, detail: detail)
        case CURLE_BAD_CONTENT_ENCODING:
            return .undecodable(host: host, detail: detail)
        case CURLE_URL_MALFORMAT:
            return .unsupportedURL(Self.withoutCredentials(request.url))
        default:
            return .other(host: host, detail: detail)
        }
    }

    /// Which of the time limits ran out.
    private func timeoutFailure() -> HTTPError {
        let limits = request.limits
        let text = String(cString: errorBuffer)
        if let lowSpeed = limits.lowSpeed, text.hasPrefix("Operation too slow") {
            let quiet = DispatchTime.now().uptimeNanoseconds &- lastReceivedChange
            if quiet >= UInt64(lowSpeed.seconds) * 900_000_000 { return .stalled(host: host, seconds: lowSpeed.seconds) }
            return .tooSlow(host: host, bytesPerSecond: lowSpeed.bytesPerSecond, seconds: lowSpeed.seconds)
        }
        var connected: curl_off_t = 0
        _ = curl.info(easy, CURLINFO_CONNECT_TIME_T, &connected)
        if connected == 0 {
            return .connectTimeout(host: host, seconds: min(limits.connectTimeout, limits.deadline ?? .infinity))
        }
        return .deadlineExceeded(host: host, seconds: limits.deadline ?? limits.connectTimeout)
    }

    /// libcurl's words for a failure, without anything that could be a password.
    private func detail(for code: CURLcode) -> String {
        var text = String(cString: errorBuffer)
        if text.isEmpty { text = curl.describe(code) }
        return Self.scrub(text, password: offered?.password)
    }

    /// `text` without URL credentials (`//user:password@`) or the given password.
    static func scrub(_ text: String, password: String?) -> String {
        var text = text.replacingOccurrences(of: "//[^/@\\s]*@", with: "//", options: .regularExpression)
        if let password, !password.isEmpty { text = text.replacingOccurrences(of: password, with: "••••••") }
        return text
    }

    static func withoutCredentials(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return "the URL" }
        components.user = nil
        components.password = nil
        return components.string ?? "the URL"
    }

    /// The `realm` parameter of a `WWW-Authenticate` challenge (Basic or Digest), quoted or not.
    static func realm(in challenge: String?) -> String? {
        guard let challenge, let range = challenge.range(of: "realm=", options: .caseInsensitive) else { return nil }
        let rest = challenge[range.upperBound...]
        if rest.hasPrefix("\"") {
            var value = ""
            var escaped = false
            for character in rest.dropFirst() {
                if escaped {
                    value.append(character)
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    return value
                } else {
                    value.append(character)
                }
            }
            return value
        }
        let token = rest.prefix { $0 != "," && $0 != " " }
        return token.isEmpty ? nil : String(token)
    }

    /// The URL's port when it is not its scheme's default, as credential sources key logins.
    static func explicitPort(of url: URL) -> Int? {
        guard let port = url.port else { return nil }
        switch (url.scheme?.lowercased(), port) {
        case ("http", 80), ("https", 443): return nil
        default: return port
        }
    }
}
