import Foundation
import NewsstandCore
import Synchronization

/// The least a download through Newsstand's own `HTTPClient` (libcurl's multi interface on one thread) can
/// cost: transfers whose sink drops every byte, beside `URLSessionFloor` and `curl -o /dev/null`.
enum HTTPClientFloor {
    /// One client for every run, as the program has one: connections and libcurl's state are warm after the first.
    private static let client = HTTPClient(configuration: HTTPClient.Configuration(environment: [:]))

    /// A sink that takes everything and keeps nothing.
    private final class DroppingSink: HTTPBodySink, Sendable {
        func receive(_ bytes: UnsafeRawBufferPointer, from transfer: HTTPTransfer) -> HTTPSinkVerdict { .accepted }
    }

    /// Why a floor run failed.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The first failure among the transfers of a run.
    private final class FirstFailure: Sendable {
        private let error = Mutex<HTTPError?>(nil)

        func record(_ error: HTTPError) {
            self.error.withLock { $0 = $0 ?? error }
        }

        var value: HTTPError? { error.withLock { $0 } }
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
