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
