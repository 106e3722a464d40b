import Foundation

/// A request as a ``LocalHTTPServer/requestHandler`` sees it: method, path, query, header fields (names lowercased)
/// and body.
public struct ServedRequest: Sendable {
    /// A larger body is refused (413) before the handler is asked.
    public static let maxBodyBytes = 1 << 20

    public let method: String
    /// The percent-decoded path, without query.
    public let path: String
    /// The query as sent, without `?`; nil when there is none.
    public let query: String?
    public let headers: [String: String]
    public let body: Data
}

/// A handler's answer: a status, a body of one type, and extra header fields.
public struct ServedResponse: Sendable {
    public var status: Int
    public var body: Data
    public var contentType: String
    public var headers: [(String, String)]

    public init(status: Int, body: Data, contentType: String = "application/json", headers: [(String, String)] = []) {
        self.status = status
        self.body = body
        self.contentType = contentType
        self.headers = headers
    }
}
