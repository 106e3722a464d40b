import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The least any URLSession-based download can cost: one data task whose delegate drops every chunk.
///
/// `DownloadQueue` fetches through URLSession (issue #2), so this row separates what URLSession itself
/// costs on this platform from what Newsstand adds on top (writing, verifying, reporting progress).
final class URLSessionFloor: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let finished = DispatchSemaphore(value: 0)
    private var failure: Error?

    /// Seconds to fetch `url` with the bytes dropped as they arrive.
    static func fetch(_ url: URL) throws -> Double {
        let floor = URLSessionFloor()
        let delegateQueue = OperationQueue()
        delegateQueue.maxConcurrentOperationCount = 1
        let session = URLSession(configuration: .ephemeral, delegate: floor, delegateQueue: delegateQueue)
        defer { session.finishTasksAndInvalidate() }
        let start = MonotonicClock.now()
        session.dataTask(with: url).resume()
        floor.finished.wait()
        if let failure = floor.failure { throw failure }
        return MonotonicClock.seconds(from: start, to: MonotonicClock.now())
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {}

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        failure = error
        finished.signal()
    }
}
