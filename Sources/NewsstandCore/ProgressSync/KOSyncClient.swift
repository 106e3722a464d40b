import Foundation
import NewsstandContent

/// Talks to a kosync server (KOReader's progress sync) over the program's HTTP client: registering, checking a login,
/// sending a position and reading one back. Every request sends `Accept: application/vnd.koreader.v1+json` and the
/// login as `x-auth-user` / `x-auth-key` (the MD5 of the password, never the password); answers are read as JSON
/// whatever their `Content-Type`, within 64 KB and 10 seconds. Blocking: call it off the interface's thread.
public struct KOSyncClient: Sendable {
    /// A position as the server holds it.
    public struct RemotePosition: Sendable, Equatable {
        public var progress: String
        public var percentage: Double
        public var device: String
        public var deviceID: String?
        /// The server's clock when it was written, in Unix seconds; nil from a server too old to send it.
        public var timestamp: Int?

        public init(progress: String, percentage: Double, device: String, deviceID: String?, timestamp: Int?) {
            self.progress = progress
            self.percentage = percentage
            self.device = device
            self.deviceID = deviceID
            self.timestamp = timestamp
        }
    }

    /// Why a request did not do what it asked, in plain words.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// 401: the login is missing or wrong. Never retried without a new one.
        case unauthorized(server: String)
        /// 402 code 2002.
        case nameTaken(String)
        /// 402 code 2005 (or another server's refusal to register).
        case registrationClosed(server: String)
        /// The server refused what was sent (403 and the like): sending it again will not help.
        case refused(server: String, detail: String)
        /// The server could not be reached, failed, or answered something unreadable: worth trying again later.
        case unavailable(server: String, detail: String)

        public var description: String {
            switch self {
            case .unauthorized(let server): "the progress sync server \(server) does not take the login (give it again with newsstand login)"
            case .nameTaken(let name): "the name \(name) is taken on that server: choose another, or log in without --register"
            case .registrationClosed(let server): "\(server) does not take new accounts (registration is off): make one there another way"
            case .refused(let server, let detail): "the progress sync server \(server) refused it: \(detail)"
            case .unavailable(let server, let detail): "the progress sync server \(server) is not answering: \(detail)"
            }
        }

        /// Whether sending again later may work (the position is kept for it).
        public var isWorthRetrying: Bool {
            if case .unavailable = self { return true }
            return false
        }
    }

    public static let acceptType = "application/vnd.koreader.v1+json"
    static let limits = HTTPLimits(maxBodyBytes: 64 << 10, maxReceivedBytes: 64 << 10, deadline: 10, connectTimeout: 5,
                                   lowSpeed: .init(bytesPerSecond: 1, seconds: 5), maxRedirects: 3,
                                   subject: "the progress sync answer", sizeLimitName: "64 KB limit")

    public let server: URL
    public let user: String
    /// The `x-auth-key`: the MD5 of the password.
    public let key: String
    let http: HTTPClient

    public init(server: URL, user: String, key: String, http: HTTPClient = .shared) {
        self.server = server
        self.user = user
        self.key = key
        self.http = http
    }

    /// The key sent for a password: its MD5 in lowercase hex (what KOReader sends; the server compares it as sent).
    public static func key(forPassword password: String) throws -> String { try MD5Hex.of(password) }

    private var serverName: String {
        server.host.map { host in server.port.map { "\(host):\($0)" } ?? host } ?? server.absoluteString
    }

    // MARK: Calls

    /// `POST /users/create`: makes the account.
    public func register() throws {
        let (status, body) = try call(.post, "users/create", json: ["username": user, "password": key], authenticated: false)
        switch status {
        case 201: return
        case 402 where body["code"] as? Int == 2002: throw Failure.nameTaken(user)
        case 402: throw Failure.registrationClosed(server: serverName)
        case 403 where body["code"] as? Int != 2003: throw Failure.registrationClosed(server: serverName)
        default: throw failure(status, body)
        }
    }

    /// `GET /users/auth`: whether the login is taken.
    public func authorize() throws {
        let (status, body) = try call(.get, "users/auth")
        guard status == 200 else { throw failure(status, body) }
    }

    /// `PUT /syncs/progress`; returns the server's timestamp for it (nil when it gives none).
    @discardableResult
    public func push(_ position: ProgressSyncPosition, device: String, deviceID: String) throws -> Int? {
        let fields: [String: Any] = ["document": position.document, "progress": position.progress,
                                     "percentage": Self.rounded(position.percentage), "device": device, "device_id": deviceID]
        let (status, body) = try call(.put, "syncs/progress", json: fields)
        guard status == 200 else { throw failure(status, body) }
        return Self.integer(body["timestamp"])
    }

    /// `GET /syncs/progress/DOCUMENT`: the position the server holds, nil when it holds none (`{}`).
    public func pull(document: String) throws -> RemotePosition? {
        guard !document.isEmpty, document.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_") }) else {
            throw Failure.refused(server: serverName, detail: "the document id \(document) cannot be asked for")
        }
        let (status, body) = try call(.get, "syncs/progress/\(document)")
        guard status == 200 else { throw failure(status, body) }
        guard let percentage = Self.number(body["percentage"]) else { return nil }
        let progress: String
        switch body["progress"] {
        case let text as String: progress = text
        case let number as NSNumber: progress = number.stringValue
        default: return nil
        }
        return RemotePosition(progress: String(TextSanitizer.singleLine(progress).prefix(4096)), percentage: min(1, max(0, percentage)),
                              device: String(TextSanitizer.singleLine(body["device"] as? String ?? "another device").prefix(100)),
                              deviceID: (body["device_id"] as? String).map { String($0.prefix(200)) },
                              timestamp: Self.integer(body["timestamp"]))
    }

    /// KOReader rounds percentages to four places (`Math.roundPercent`).
    static func rounded(_ percentage: Double) -> Double {
        (min(1, max(0, percentage)) * 10_000).rounded() / 10_000
    }

    // MARK: HTTP

    private func call(_ method: HTTPRequest.Method, _ path: String, json: [String: Any]? = nil,
                      authenticated: Bool = true) throws -> (Int, [String: Any]) {
        var headers = ["Accept": Self.acceptType]
        if authenticated {
            headers["x-auth-user"] = user
            headers["x-auth-key"] = key
        }
        var body: Data?
        if let json {
            body = try JSONSerialization.data(withJSONObject: json, options: [.sortedKeys])
            headers["Content-Type"] = "application/json"
        }
        let url = server.appendingPathComponent(path)
        let request = HTTPRequest(url: url, method: method, headers: headers, limits: Self.limits, body: body,
                                  acceptsAnyStatus: true, usesStoredLogins: false)
        let response: HTTPResponse
        do {
            response = try http.fetch(request)
        } catch let error as HTTPError {
            throw Failure.unavailable(server: serverName, detail: "\(error)")
        }
        let status = response.status
        let parsed = try? JSONSerialization.jsonObject(with: response.body)
        if status == 200 || status == 201 {
            guard let object = parsed as? [String: Any] else {
                throw Failure.unavailable(server: serverName, detail: "its answer is not kosync's JSON")
            }
            return (status, object)
        }
        return (status, parsed as? [String: Any] ?? [:])
    }

    private func failure(_ status: Int, _ body: [String: Any]) -> Failure {
        let message = (body["message"] as? String).map { String(TextSanitizer.singleLine($0).prefix(200)) }
        switch status {
        case 401: return .unauthorized(server: serverName)
        case 400, 402, 403, 412: return .refused(server: serverName, detail: message ?? "HTTP \(status)")
        case 404: return .refused(server: serverName, detail: "it has no kosync API at \(server.absoluteString) (HTTP 404)")
        default: return .unavailable(server: serverName, detail: "HTTP \(status)")
        }
    }

    private static func number(_ value: Any?) -> Double? {
        switch value {
        case let number as NSNumber: number.doubleValue
        case let text as String: Double(text)
        default: nil
        }
    }

    private static func integer(_ value: Any?) -> Int? {
        number(value).flatMap { $0.isFinite && abs($0) < 1e15 ? Int($0) : nil }
    }
}
