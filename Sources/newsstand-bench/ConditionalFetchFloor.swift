import Foundation
import NewsstandCore
import Synchronization

/// The least an unchanged sync's fetching costs through Newsstand's own client: the same conditional GETs (each
/// feed's stored validators) from `SyncService.concurrentRefreshes` threads, nothing read from or written to the
/// library. Between it and the unchanged sync is what the sync adds per feed; between it and curl, the client.
enum ConditionalFetchFloor {
    /// Hands out the feeds one at a time to the threads.
    private final class Cursor: Sendable {
        private let state = Mutex((next: 0, notModified: 0, failure: String?.none))
        let count: Int

        init(count: Int) { self.count = count }

        var notModified: Int { state.withLock { $0.notModified } }
        var failure: String? { state.withLock { $0.failure } }

        func take() -> Int? {
            state.withLock { state in
                guard state.next < count, state.failure == nil else { return nil }
                defer { state.next += 1 }
                return state.next
            }
        }

        func record(_ result: Result<ConditionalFetchResult, any Error>) {
            let notModified: Bool, failure: String?
            switch result {
            case .success(.notModified): (notModified, failure) = (true, nil)
            case .success: (notModified, failure) = (false, nil)
            case .failure(let error): (notModified, failure) = (false, "\(error)")
            }
            state.withLock { state in
                if notModified { state.notModified += 1 }
                state.failure = state.failure ?? failure
            }
        }
    }

    /// Why a floor run failed.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Seconds to fetch every feed conditionally, and how many answered 304.
    static func fetch(_ feeds: [(url: URL, validators: FetchValidators?)]) throws -> (seconds: Double, notModified: Int) {
        let cursor = Cursor(count: feeds.count)
        let done = DispatchGroup()
        let start = MonotonicClock.now()
        for _ in 0..<min(SyncService.concurrentRefreshes, feeds.count) {
            done.enter()
            Thread {
                while let index = cursor.take() {
                    cursor.record(Result { try ResourceFetcher.fetchConditionally(feeds[index].url, from: DocumentOrigin(documentURL: feeds[index].url), validators: feeds[index].validators) })
                }
                done.leave()
            }.start()
        }
        done.wait()
        let seconds = MonotonicClock.seconds(from: start, to: MonotonicClock.now())
        if let failure = cursor.failure { throw Failure(description: "conditional fetch: \(failure)") }
        return (seconds, cursor.notModified)
    }
}
