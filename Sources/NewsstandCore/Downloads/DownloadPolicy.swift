import Foundation

/// How the download queue behaves: concurrency, retries with backoff, and an optional rate limit.
public struct DownloadPolicy: Sendable, Equatable {
    /// Transfers that run at once (at least 1).
    public var maxConcurrent: Int = 3
    /// Attempts per download, the first included, before a transient failure becomes final.
    public var maxAttempts: Int = 5
    /// Exponential backoff with full jitter: before attempt n+1 the queue waits a random time in
    /// 0…min(`backoffCap`, `backoffBase` × 2ⁿ⁻¹) seconds, or at least what a Retry-After asked for.
    public var backoffBase: TimeInterval = 1
    public var backoffCap: TimeInterval = 60
    /// Bytes per second across all transfers together; nil for no limit.
    public var bytesPerSecondLimit: Int? = nil
    /// Seconds between looks at an issue another process is downloading (its lock file is held).
    public var lockRetryInterval: TimeInterval = 2

    public init(maxConcurrent: Int = 3, maxAttempts: Int = 5, backoffBase: TimeInterval = 1, backoffCap: TimeInterval = 60,
                bytesPerSecondLimit: Int? = nil, lockRetryInterval: TimeInterval = 2) {
        self.lockRetryInterval = lockRetryInterval
        self.maxConcurrent = maxConcurrent
        self.maxAttempts = maxAttempts
        self.backoffBase = backoffBase
        self.backoffCap = backoffCap
        self.bytesPerSecondLimit = bytesPerSecondLimit
    }

    /// The wait before attempt `failures + 1`, after `failures` failed attempts (full jitter).
    func backoff(afterFailures failures: Int, retryAfter: TimeInterval?, random: Double = Double.random(in: 0...1)) -> TimeInterval {
        let exponent = Double(max(0, failures - 1))
        let ceiling = min(max(0, backoffCap), max(0, backoffBase) * pow(2, min(exponent, 60)))
        let jittered = ceiling * min(max(random, 0), 1)
        guard let retryAfter else { return jittered }
        return max(jittered, min(retryAfter, 3600))
    }
}
