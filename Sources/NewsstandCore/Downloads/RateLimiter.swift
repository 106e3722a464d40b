import Foundation
import Synchronization

/// A token bucket shared by every transfer of a queue: each transfer reserves the bytes it is about to
/// write and sleeps for as long as the bucket is in debt, so all of them together stay near the limit.
final class RateLimiter: Sendable {
    private struct Bucket {
        var rate: Int?
        var tokens: Double = 0
        var last = DispatchTime.now().uptimeNanoseconds
    }

    private let bucket = Mutex(Bucket())

    init(bytesPerSecond: Int?) {
        setRate(bytesPerSecond)
    }

    /// The limit in bytes per second, nil when there is none.
    var bytesPerSecond: Int? { bucket.withLock { $0.rate } }

    /// Changes the limit (nil: none); applies to the next reservation.
    func setRate(_ bytesPerSecond: Int?) {
        bucket.withLock {
            $0.rate = bytesPerSecond.map { max(1, $0) }
            $0.tokens = 0
            $0.last = DispatchTime.now().uptimeNanoseconds
        }
    }

    /// Reserves `count` bytes and returns how long to wait before using them (0 when unlimited or in credit).
    func reserve(_ count: Int) -> TimeInterval {
        bucket.withLock { bucket in
            guard let rate = bucket.rate else { return 0 }
            let now = DispatchTime.now().uptimeNanoseconds
            let burst = Double(rate) / 10
            bucket.tokens = min(burst, bucket.tokens + Double(now &- bucket.last) / 1e9 * Double(rate))
            bucket.last = now
            bucket.tokens -= Double(count)
            return bucket.tokens >= 0 ? 0 : -bucket.tokens / Double(rate)
        }
    }
}
