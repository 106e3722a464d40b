import Foundation

/// Why a fetch failed, in plain words.
public struct FetchError: Error, Equatable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// Fetches small resources (feeds and catalogs, their pages, covers) from http, https or file URLs, with a
/// size cap, and only where the document that named them may point (`origin`: a document from the network
/// reaches only the network; see ``DocumentOrigin``). A refused URL is never read: the fetch fails saying why.
///
/// http and https go through ``HTTPClient`` (libcurl): the cap holds as the bytes arrive and as they unpack
/// (gzip, brotli), a server that sends less than 1 KB a second (``HTTPLimits/minimumRate``) for `timeout`
/// seconds fails the fetch — one that stops sending or drips — and so does one that takes longer than a minute
/// (or `timeout`, if longer) in all; logins come from the client's credentials and
/// `.netrc`. Their failures are ``HTTPError``s (a 401 is ``HTTPError/loginRequired(host:realm:)``); a file's
/// are ``FetchError``s. Either describes itself in plain words.
///
/// Blocking: call it from a background queue, never from the UI thread.
public enum ResourceFetcher {
    public static func fetch(_ url: URL, from origin: DocumentOrigin, maxBytes: Int = 64 << 20, timeout: TimeInterval = 30,
                             client: HTTPClient = .shared) throws -> Data {
        try origin.check(url)
        switch url.scheme?.lowercased() {
        case "file":
            let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
            if let size = attributes?[.size] as? Int, size > maxBytes {
                throw FetchError("\(url.lastPathComponent) is larger than \(maxBytes >> 20) MB")
            }
            guard let data = FileManager.default.contents(atPath: url.path) else {
                throw FetchError("cannot read \(url.path)")
            }
            return data
        case "http", "https":
            let request = HTTPRequest(url: url, limits: limits(maxBytes: maxBytes, timeout: timeout))
            return try client.fetch(request).body
        default:
            throw FetchError("unsupported URL scheme in \(url.absoluteString)")
        }
    }

    /// A feed's limits, with `maxBytes` received and decoded and `timeout` as the longest time under the minimum
    /// rate (and connect).
    static func limits(maxBytes: Int, timeout: TimeInterval, subject: String = "the feed",
                       sizeLimitName: String = "feed size limit") -> HTTPLimits {
        var limits = HTTPLimits.feed
        limits.maxBodyBytes = Int64(maxBytes)
        limits.maxReceivedBytes = Int64(maxBytes)
        limits.lowSpeed = HTTPLimits.LowSpeed(bytesPerSecond: HTTPLimits.minimumRate, seconds: Int(timeout.rounded(.up)))
        limits.connectTimeout = min(limits.connectTimeout, max(timeout, 1))
        limits.deadline = max(limits.deadline ?? 60, timeout)
        limits.subject = subject
        limits.sizeLimitName = sizeLimitName
        return limits
    }
}

/// HTTP cache validators for a conditional request: the response's `ETag` and `Last-Modified`, as sent.
public struct FetchValidators: Sendable, Equatable {
    public var etag: String?
    public var lastModified: String?

    public init(etag: String? = nil, lastModified: String? = nil) {
        self.etag = etag
        self.lastModified = lastModified
    }

    public var isEmpty: Bool { etag == nil && lastModified == nil }
}

/// What a conditional fetch found.
public enum ConditionalFetchResult: Sendable, Equatable {
    /// The server answered 304 (or the file is unchanged): what was fetched before still stands.
    case notModified
    /// New content, with the validators to send next time.
    case fetched(Data, FetchValidators)
}

extension ResourceFetcher {
    /// Fetches `url` unless it is unchanged since `validators` were taken: over HTTP it sends
    /// `If-None-Match` / `If-Modified-Since` and maps 304 to `.notModified`; for a file, the
    /// validators are its size and modification time.
    public static func fetchConditionally(_ url: URL, from origin: DocumentOrigin, validators: FetchValidators?, maxBytes: Int = 64 << 20,
                                          timeout: TimeInterval = 30, client: HTTPClient = .shared) throws -> ConditionalFetchResult {
        try origin.check(url)
        switch url.scheme?.lowercased() {
        case "file":
            let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
            let size = (attributes?[.size] as? NSNumber)?.int64Value ?? -1
            let modified = (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
            let current = FetchValidators(etag: "\"\(size)-\(modified)\"", lastModified: nil)
            if let validators, validators == current { return .notModified }
            return .fetched(try fetch(url, from: origin, maxBytes: maxBytes, timeout: timeout), current)
        case "http", "https":
            var headers: [String: String] = [:]
            if let etag = validators?.etag { headers["If-None-Match"] = etag }
            if let lastModified = validators?.lastModified { headers["If-Modified-Since"] = lastModified }
            let request = HTTPRequest(url: url, headers: headers, limits: limits(maxBytes: maxBytes, timeout: timeout))
            let response = try client.fetch(request)
            if response.status == 304 { return .notModified }
            return .fetched(response.body, FetchValidators(etag: response.head.header("ETag"),
                                                           lastModified: response.head.header("Last-Modified")))
        default:
            throw FetchError("unsupported URL scheme in \(url.absoluteString)")
        }
    }
}
