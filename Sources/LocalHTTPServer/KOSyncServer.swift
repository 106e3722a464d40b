import Foundation
import Synchronization

/// A kosync server (KOReader's progress sync) on 127.0.0.1 for tests, demos and benchmarks, written from the
/// protocol's description (pid1/kosync-conformance SPEC.md §3–§6) to answer as the reference server does:
///
/// - every request needs `Accept: application/vnd.koreader.v1+json` (else 412, code 100 when absent, 101 when it does
///   not match, 102 for another version); answers are `application/json`;
/// - `POST /users/create` {username, password (already an MD5)}: 201 {username}; 402 code 2002 for a name taken,
///   402 code 2005 when registration is off, 403 code 2003 for an empty name or key or a name with a colon;
/// - `GET /users/auth`: 200 {"authorized":"OK"}, or 401 code 2001 (as every authenticated route, for a missing
///   user, an unknown one or a wrong key);
/// - `PUT /syncs/progress` {document, progress, percentage, device, device_id?}: last write wins, stamped with the
///   server's clock in seconds: 200 {document, timestamp}; 403 code 2004 for a missing document or one with a colon,
///   2003 for a missing progress or device or a percentage that is not a number;
/// - `GET /syncs/progress/:document`: the stored fields, `{}` for a document never written; the id must match
///   `[A-Za-z0-9_]+` or no route matches (404, an HTML page), so — like the reference — it stores on PUT ids it
///   cannot give back;
/// - `GET /healthcheck`: {"state":"OK"}; any other route 404 (HTML); a body that is not JSON 400 code 103, an
///   array 400 code 104.
///
/// Positions are kept per user. Faults for tests: ``delay`` before every answer, ``failure`` (a status answered to
/// every request, with a JSON error), ``malformedBodies`` (a 200 with a body that is not JSON).
public final class KOSyncServer: Sendable {
    /// One stored position, as the reference keeps it.
    public struct Record: Sendable, Equatable {
        public var percentage: Double
        public var progress: String
        public var device: String
        public var deviceID: String?
        public var timestamp: Int
    }

    public let http: LocalHTTPServer
    private let state = Mutex(State())

    /// The accounts, the positions and the faults.
    private struct State {
        var users: [String: String] = [:]
        var records: [String: [String: Record]] = [:]
        var registration = true
        var pause: TimeInterval = 0
        var failing: Int?
        var malformed = false
        var clock: @Sendable () -> Int = { Int(Date().timeIntervalSince1970) }
    }

    /// A stopped server; `start()` it.
    public init() {
        http = LocalHTTPServer()
        http.requestHandler = { [unowned self] request in self.answer(request) }
    }

    /// Starts listening on 127.0.0.1 (`port` 0: any free port).
    public func start(port: UInt16 = 0) throws { try http.start(port: port) }
    public func stop() { http.stop() }
    /// The base URL a client is given (`http://127.0.0.1:PORT`).
    public var baseURL: URL { http.baseURL }

    // MARK: Settings and faults

    /// Whether `POST /users/create` makes accounts (else 402 code 2005).
    public var registrationEnabled: Bool {
        get { state.withLock { $0.registration } }
        set { state.withLock { $0.registration = newValue } }
    }
    /// Seconds every answer waits before it is sent.
    public var delay: TimeInterval {
        get { state.withLock { $0.pause } }
        set { state.withLock { $0.pause = newValue } }
    }
    /// A status (500, 502…) answered to every request instead of its answer; nil: none.
    public var failure: Int? {
        get { state.withLock { $0.failing } }
        set { state.withLock { $0.failing = newValue } }
    }
    /// Whether every answer is a 200 whose body is not JSON.
    public var malformedBodies: Bool {
        get { state.withLock { $0.malformed } }
        set { state.withLock { $0.malformed = newValue } }
    }
    /// The server's clock, in Unix seconds (tests move it).
    public var now: @Sendable () -> Int {
        get { state.withLock { $0.clock } }
        set { state.withLock { $0.clock = newValue } }
    }

    // MARK: State, for tests

    /// Makes an account directly (`key`: what the client sends as `x-auth-key`).
    public func addUser(_ name: String, key: String) {
        state.withLock { $0.users[name] = key }
    }

    /// The position stored for `user` and `document`.
    public func record(user: String, document: String) -> Record? {
        state.withLock { $0.records[user]?[document] }
    }

    /// Stores a position directly, as another device would have (stamped now unless `timestamp` is given).
    public func store(_ user: String, document: String, progress: String, percentage: Double, device: String,
                      deviceID: String?, timestamp: Int? = nil) {
        state.withLock { state in
            state.records[user, default: [:]][document] = Record(percentage: percentage, progress: progress, device: device,
                                                                 deviceID: deviceID, timestamp: timestamp ?? state.clock())
        }
    }

    // MARK: Answering

    private func answer(_ request: ServedRequest) -> ServedResponse {
        let (pause, failing, malformed) = state.withLock { ($0.pause, $0.failing, $0.malformed) }
        if pause > 0 { Thread.sleep(forTimeInterval: pause) }
        if let failing { return error(failing, code: 2000, "Unknown server error.") }
        if malformed { return ServedResponse(status: 200, body: Data("<html>not json".utf8), contentType: "text/html") }

        guard let accept = request.headers["accept"] else { return error(412, code: 100, "Accept header not set.") }
        guard let version = Self.acceptedVersion(accept) else { return error(412, code: 101, "Invalid Accept header format.") }
        guard version == 1 else { return error(412, code: 102, "Unsupported version specified in the Accept header.") }

        switch (request.method, request.path) {
        case ("GET", "/healthcheck"): return json(200, ["state": "OK"])
        case ("POST", "/users/create"): return withBody(request, createUser)
        case ("GET", "/users/auth"):
            guard authorized(request) != nil else { return unauthorized() }
            return json(200, ["authorized": "OK"])
        case ("PUT", "/syncs/progress"): return withBody(request, updateProgress)
        case ("GET", let path) where path.hasPrefix("/syncs/progress/"):
            let document = String(path.dropFirst("/syncs/progress/".count))
            guard !document.isEmpty, document.unicodeScalars.allSatisfy(Self.isRouteCharacter) else { return notFound() }
            return progress(of: document, request)
        default: return notFound()
        }
    }

    /// The major version in an Accept value the reference router takes (`application/vnd.koreader.vN…+json`).
    static func acceptedVersion(_ accept: String) -> Int? {
        let prefix = "application/vnd.koreader.v"
        guard accept.hasPrefix(prefix), accept.hasSuffix("json") else { return nil }
        let digits = accept.dropFirst(prefix.count).prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, accept.dropFirst(prefix.count + digits.count).hasSuffix("+json") else { return nil }
        return Int(digits)
    }

    private static func isRouteCharacter(_ scalar: Unicode.Scalar) -> Bool {
        ("A"..."Z").contains(scalar) || ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "_"
    }

    private func withBody(_ request: ServedRequest, _ action: ([String: Any], ServedRequest) -> ServedResponse) -> ServedResponse {
        let object: Any
        if request.body.isEmpty {
            object = [String: Any]()
        } else {
            guard let parsed = try? JSONSerialization.jsonObject(with: request.body, options: [.fragmentsAllowed]) else {
                return error(400, code: 103, "Could not parse JSON in body.")
            }
            object = parsed
        }
        if object is [Any] { return error(400, code: 104, "Body should be a JSON hash.") }
        guard let fields = object as? [String: Any] else { return error(400, code: 104, "Body should be a JSON hash.") }
        return action(fields, request)
    }

    private func createUser(_ fields: [String: Any], _ request: ServedRequest) -> ServedResponse {
        var account: (name: String, key: String)?
        if let name = fields["username"] as? String, !name.isEmpty, !name.contains(":"), let key = fields["password"] as? String, !key.isEmpty {
            account = (name, key)
        }
        let made = account
        return state.withLock { state in
            guard state.registration else { return error(402, code: 2005, "User registration is disabled.") }
            guard let (name, key) = made else { return error(403, code: 2003, "Invalid request") }
            guard state.users[name] == nil else { return error(402, code: 2002, "Username is already registered.") }
            state.users[name] = key
            return json(201, ["username": name])
        }
    }

    private func authorized(_ request: ServedRequest) -> String? {
        guard let user = request.headers["x-auth-user"], !user.isEmpty, !user.contains(":"),
              let key = request.headers["x-auth-key"], !key.isEmpty else { return nil }
        return state.withLock { $0.users[user] == key ? user : nil }
    }

    private func updateProgress(_ fields: [String: Any], _ request: ServedRequest) -> ServedResponse {
        guard let user = authorized(request) else { return unauthorized() }
        guard let document = fields["document"] as? String, !document.isEmpty, !document.contains(":") else {
            return error(403, code: 2004, "Field 'document' not provided.")
        }
        let percentage: Double? = switch fields["percentage"] {
        case let number as NSNumber: number.doubleValue
        case let text as String: Double(text)
        default: nil
        }
        guard let percentage, let progress = Self.text(fields["progress"]), let device = Self.text(fields["device"]) else {
            return error(403, code: 2003, "Invalid request")
        }
        let timestamp = now()
        let record = Record(percentage: percentage, progress: progress, device: device, deviceID: Self.text(fields["device_id"]),
                            timestamp: timestamp)
        state.withLock { $0.records[user, default: [:]][document] = record }
        return json(200, ["document": document, "timestamp": timestamp])
    }

    /// A field as Redis would keep it: a string, or a number written as one.
    private static func text(_ value: Any?) -> String? {
        switch value {
        case let text as String: text
        case let number as NSNumber: number.stringValue
        default: nil
        }
    }

    private func progress(of document: String, _ request: ServedRequest) -> ServedResponse {
        guard let user = authorized(request) else { return unauthorized() }
        guard let record = state.withLock({ $0.records[user]?[document] }) else { return json(200, [String: Any]()) }
        var body: [String: Any] = ["document": document, "percentage": record.percentage, "progress": record.progress,
                                   "device": record.device, "timestamp": record.timestamp]
        if let deviceID = record.deviceID { body["device_id"] = deviceID }
        return json(200, body)
    }

    // MARK: Answers

    private func json(_ status: Int, _ object: [String: Any]) -> ServedResponse {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        return ServedResponse(status: status, body: data, contentType: "application/json", headers: [("X-Framework", "gin/0.2.0")])
    }

    private func error(_ status: Int, code: Int, _ message: String) -> ServedResponse {
        json(status, ["code": code, "message": message])
    }

    private func unauthorized() -> ServedResponse { error(401, code: 2001, "Unauthorized") }

    private func notFound() -> ServedResponse {
        ServedResponse(status: 404, body: Data("<html><head><title>404 Not Found</title></head><body><center><h1>404 Not Found</h1></center></body></html>\n".utf8),
                       contentType: "text/html")
    }
}
