/// One request as the server saw it, and what it answered; see ``LocalHTTPServer/requestLog``.
public struct RequestRecord: Sendable, Equatable {
    /// The request method, e.g. `GET`.
    public let method: String
    /// The percent-decoded request path, without query string.
    public let path: String
    /// The request target as sent: `/a%20b?x=1`, or `http://host/a` when the server was asked as a proxy.
    public let target: String
    /// The request headers, names lowercased; repeated headers are joined with ", ".
    public let headers: [String: String]
    /// The status code answered.
    public let status: Int
    /// How many body bytes were actually written to the socket.
    public let bodyBytesSent: Int
    /// The `Range` header, if the request had one.
    public var range: String? { headers["range"] }

    /// Creates a record.
    public init(method: String, path: String, target: String? = nil, headers: [String: String], status: Int, bodyBytesSent: Int) {
        self.method = method
        self.path = path
        self.target = target ?? path
        self.headers = headers
        self.status = status
        self.bodyBytesSent = bodyBytesSent
    }
}
