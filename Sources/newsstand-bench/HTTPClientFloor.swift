import Foundation
import NewsstandCore

/// The least a download through Newsstand's own `HTTPClient` (libcurl's multi interface on one thread) can
/// cost: transfers whose sink drops every byte, beside `URLSessionFloor` and `curl -o /dev/null`.
enum HTTPClientFloor {
    /// One client for every run, as the program has one: connections and libcurl's state are warm after the first.
    private static let client = HTTPClient(configuration: HTTPClient.Configuration(environment: [:]))

    /// A sink that takes everything and keeps nothing.
    private final class DroppingSink: HTTPBodySink, @unchecked Sendable {
        func receive(_ bytes: UnsafeRawBufferPointer, from transfer: HTTPTransfer) -> HTTPSinkVerdict { .accepted }
    }

    /// Why a floor run failed.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The first failure among the transfers of a run.
    private final class FirstFailure: @unchecked Sendable {
        private let lock = NSLock()
        private var error: HTTPError?

        func record(_ error: HTTPError) {
            lock.lock()
            self.error = self.error ?? error
            lock.unlock()
        }

        var value: HTTPError? {
            lock.lock()
            defer { lock.unlock() }
            return error
        }
    }

    /// Seconds to fetch `urls` at once, the bytes dropped as they arrive.
    static func fetch(_ urls: [URL]) throws -> Double {
        let group = DispatchGroup()
        let failure = FirstFailure()
        let start = MonotonicClock.now()
        for url in urls {
            group.enter()
            client.start(HTTPRequest(url: url, decodesContent: false), sink: DroppingSink()) { event in
                switch event {
                case .finished:
                    group.leave()
                case .failed(let error):
                    failure.record(error)
                    group.leave()
                default:
                    break
                }
            }
        }
        group.wait()
        let seconds = MonotonicClock.seconds(from: start, to: MonotonicClock.now())
        if let error = failure.value { throw Failure(description: "HTTPClient: \(error)") }
        return seconds
    }
}
