import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Why a fetch failed, in plain words.
public struct FetchError: Error, Equatable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// Fetches small resources (catalogs, covers) from http, https or file URLs, with a size cap.
///
/// Blocking: call it from a background queue, never from the UI thread.
public enum ResourceFetcher {
    public static func fetch(_ url: URL, maxBytes: Int = 64 << 20, timeout: TimeInterval = 30) throws -> Data {
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
            return try fetchHTTP(url, maxBytes: maxBytes, timeout: timeout)
        default:
            throw FetchError("unsupported URL scheme in \(url.absoluteString)")
        }
    }

    private static func fetchHTTP(_ url: URL, maxBytes: Int, timeout: TimeInterval) throws -> Data {
        var request = URLRequest(url: url, timeoutInterval: timeout)
        request.setValue("Newsstand/\(NewsstandVersion.string)", forHTTPHeaderField: "User-Agent")
        let result = BlockingResult<(Data?, URLResponse?, Error?)>()
        let task = URLSession.shared.dataTask(with: request) { data, response, error in result.set((data, response, error)) }
        task.resume()
        let (data, response, error) = result.wait()
        if let error { throw FetchError("cannot reach \(url.host ?? url.absoluteString): \(error.localizedDescription)") }
        if let http = response as? HTTPURLResponse, !(200..<300).contains(http.statusCode) {
            throw FetchError("\(url.host ?? "the server") answered \(http.statusCode) \(HTTPURLResponse.localizedString(forStatusCode: http.statusCode)) for \(url.path)")
        }
        guard let data else { throw FetchError("no data from \(url.absoluteString)") }
        if data.count > maxBytes { throw FetchError("\(url.lastPathComponent) is larger than \(maxBytes >> 20) MB") }
        return data
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
    public static func fetchConditionally(_ url: URL, validators: FetchValidators?, maxBytes: Int = 64 << 20,
                                          timeout: TimeInterval = 30) throws -> ConditionalFetchResult {
        switch url.scheme?.lowercased() {
        case "file":
            let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
            let size = (attributes?[.size] as? NSNumber)?.int64Value ?? -1
            let modified = (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
            let current = FetchValidators(etag: "\"\(size)-\(modified)\"", lastModified: nil)
            if let validators, validators == current { return .notModified }
            return .fetched(try fetch(url, maxBytes: maxBytes, timeout: timeout), current)
        case "http", "https":
            var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
            request.setValue("Newsstand/\(NewsstandVersion.string)", forHTTPHeaderField: "User-Agent")
            if let etag = validators?.etag { request.setValue(etag, forHTTPHeaderField: "If-None-Match") }
            if let lastModified = validators?.lastModified { request.setValue(lastModified, forHTTPHeaderField: "If-Modified-Since") }
            let (data, response) = try perform(request, maxBytes: maxBytes)
            if response?.statusCode == 304 { return .notModified }
            let headers = response?.allHeaderFields ?? [:]
            func header(_ name: String) -> String? {
                headers.first { ($0.key as? String)?.caseInsensitiveCompare(name) == .orderedSame }?.value as? String
            }
            return .fetched(data, FetchValidators(etag: header("ETag"), lastModified: header("Last-Modified")))
        default:
            throw FetchError("unsupported URL scheme in \(url.absoluteString)")
        }
    }

    /// A session that never answers from a local cache, so 304s reach the caller.
    private static let uncachedSession: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        return URLSession(configuration: configuration)
    }()

    private static func perform(_ request: URLRequest, maxBytes: Int) throws -> (Data, HTTPURLResponse?) {
        let url = request.url!
        let result = BlockingResult<(Data?, URLResponse?, Error?)>()
        let task = uncachedSession.dataTask(with: request) { data, response, error in result.set((data, response, error)) }
        task.resume()
        let (data, response, error) = result.wait()
        if let error { throw FetchError("cannot reach \(url.host ?? url.absoluteString): \(error.localizedDescription)") }
        let http = response as? HTTPURLResponse
        if let http, http.statusCode == 304 { return (Data(), http) }
        if let http, !(200..<300).contains(http.statusCode) {
            throw FetchError("\(url.host ?? "the server") answered \(http.statusCode) \(HTTPURLResponse.localizedString(forStatusCode: http.statusCode)) for \(url.path)")
        }
        guard let data else { throw FetchError("no data from \(url.absoluteString)") }
        if data.count > maxBytes { throw FetchError("\(url.lastPathComponent) is larger than \(maxBytes >> 20) MB") }
        return (data, http)
    }
}

/// A value handed from a callback to a waiting thread.
final class BlockingResult<Value>: @unchecked Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    private var value: Value?
    func set(_ newValue: Value) {
        value = newValue
        semaphore.signal()
    }
    func wait() -> Value {
        semaphore.wait()
        return value!
    }
}
