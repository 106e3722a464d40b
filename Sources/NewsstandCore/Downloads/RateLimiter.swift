import Foundation

/// A token bucket shared by every transfer of a queue: each transfer reserves the bytes it is about to
/// write and sleeps for as long as the bucket is in debt, so all of them together stay near the limit.
final class RateLimiter: @unchecked Sendable {
    private let lock = NSLock()
    private var rate: Int?
    private var tokens: Double = 0
    private var last = DispatchTime.now().uptimeNanoseconds

    init(bytesPerSecond: Int?) {
        setRate(bytesPerSecond)
    }

    /// The limit in bytes per second, nil when there is none.
    var bytesPerSecond: Int? { lock.withLock { rate } }

    /// Changes the limit (nil: none); applies to the next reservation.
    func setRate(_ bytesPerSecond: Int?) {
        lock.withLock {
            rate = bytesPerSecond.map { max(1, $0) }
            tokens = 0
            last = DispatchTime.now().uptimeNanoseconds
        }
    }

    /// Reserves `count` bytes and returns how long to wait before using them (0 when unlimited or in credit).
    func reserve(_ count: Int) -> TimeInterval {
        lock.withLock {
            guard let rate else { return 0 }
            let now = DispatchTime.now().uptimeNanoseconds
            let burst = Double(rate) / 10
            tokens = min(burst, tokens + Double(now &- last) / 1e9 * Double(rate))
            last = now
            tokens -= Double(count)
            return tokens >= 0 ? 0 : -tokens / Double(rate)
        }
    }
}
