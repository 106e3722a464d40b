import Foundation

/// The status line and header fields of the final response (after redirects and authentication), and the URL
/// that gave it.
public struct HTTPResponseHead: Sendable, Equatable {
    /// The status code, e.g. 200.
    public var status: Int
    /// The reason phrase as sent ("OK"); empty over HTTP/2, which has none.
    public var reason: String
    /// Header fields, names lowercased; a repeated field's values joined with ", ".
    public var headers: [String: String]
    /// The URL the response came from (the last one, after redirects).
    public var url: URL

    public init(status: Int, reason: String = "", headers: [String: String] = [:], url: URL) {
        self.status = status
        self.reason = reason
        self.headers = headers
        self.url = url
    }

    /// A header field's value, by case-insensitive name.
    public func header(_ name: String) -> String? {
        headers[name.lowercased()]
    }

    /// `Content-Length`, when given and valid.
    public var contentLength: Int64? {
        header("Content-Length").flatMap { Int64($0.trimmingCharacters(in: .whitespaces)) }.flatMap { $0 >= 0 ? $0 : nil }
    }

    /// The reason phrase, or the standard one when the server sent none (HTTP/2).
    var reasonForMessages: String {
        reason.isEmpty ? Self.standardReasons[status] ?? "" : reason
    }

    /// Reason phrases for statuses sent without one (HTTP/2 has none).
    static let standardReasons: [Int: String] = [
        200: "OK", 201: "Created", 202: "Accepted", 203: "Non-Authoritative Information", 204: "No Content",
        206: "Partial Content", 300: "Multiple Choices", 301: "Moved Permanently", 302: "Found", 303: "See Other",
        304: "Not Modified", 307: "Temporary Redirect", 308: "Permanent Redirect", 400: "Bad Request",
        401: "Unauthorized", 402: "Payment Required", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed",
        406: "Not Acceptable", 407: "Proxy Authentication Required", 408: "Request Timeout", 409: "Conflict", 410: "Gone",
        411: "Length Required", 412: "Precondition Failed", 413: "Content Too Large", 414: "URI Too Long",
        415: "Unsupported Media Type", 416: "Range Not Satisfiable", 421: "Misdirected Request", 429: "Too Many Requests",
        431: "Request Header Fields Too Large", 451: "Unavailable For Legal Reasons", 500: "Internal Server Error",
        501: "Not Implemented", 502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Timeout",
        505: "HTTP Version Not Supported",
    ]
}
