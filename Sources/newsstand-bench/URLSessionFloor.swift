import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The least any URLSession-based download can cost: data tasks whose delegate drops every chunk.
///
/// `DownloadQueue` fetched through URLSession until issue #11 moved it onto `HTTPClient` (libcurl driven
/// directly); this row keeps the floor it had, next to `HTTPClientFloor`'s and curl's.
// @unchecked: an NSObject subclass URLSession calls on its delegate queue; `failure` is written there before `finished`
// is signalled, and read only after waiting on it.
final class URLSessionFloor: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let finished = DispatchSemaphore(value: 0)
    private var failure: Error?

    /// Seconds to fetch `urls` at once, each on its own session as `DownloadQueue` did, with the bytes
    /// dropped as they arrive.
    static func fetch(_ urls: [URL]) throws -> Double {
        let floors = urls.map { _ in URLSessionFloor() }
        let sessions = floors.map { floor -> URLSession in
            let delegateQueue = OperationQueue()
            delegateQueue.maxConcurrentOperationCount = 1
            return URLSession(configuration: .ephemeral, delegate: floor, delegateQueue: delegateQueue)
        }
        defer { sessions.forEach { $0.finishTasksAndInvalidate() } }
        let start = MonotonicClock.now()
        for (session, url) in zip(sessions, urls) { session.dataTask(with: url).resume() }
        for floor in floors {
            floor.finished.wait()
            if let failure = floor.failure { throw failure }
        }
        return MonotonicClock.seconds(from: start, to: MonotonicClock.now())
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {}

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        failure = error
        finished.signal()
    }
}
