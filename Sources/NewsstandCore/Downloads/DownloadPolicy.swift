import Foundation

/// How the download queue behaves: concurrency, retries with backoff, an optional rate limit, and the bounds
/// every transfer keeps to while data arrives (size, free disk space, silence).
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
    /// The most bytes an issue may download when its catalog gives no size (`max-download-size`). With a size,
    /// the bound is that size plus ``sizeMargin(for:)``.
    public var maxDownloadSize: Int64 = DownloadPolicy.defaultMaxDownloadSize
    /// Free bytes kept on the disk while writing (`disk-reserve`): a transfer stops before going below it.
    public var diskReserve: Int64 = DownloadPolicy.defaultDiskReserve
    /// Seconds without a byte before an attempt fails as transient and is retried (`stall-timeout`).
    public var stallTimeout: Int = DownloadPolicy.defaultStallTimeout

    public static let defaultMaxDownloadSize: Int64 = 4 << 30
    public static let defaultDiskReserve: Int64 = 1 << 30
    public static let defaultStallTimeout = 30

    public init(maxConcurrent: Int = 3, maxAttempts: Int = 5, backoffBase: TimeInterval = 1, backoffCap: TimeInterval = 60,
                bytesPerSecondLimit: Int? = nil, lockRetryInterval: TimeInterval = 2,
                maxDownloadSize: Int64 = DownloadPolicy.defaultMaxDownloadSize, diskReserve: Int64 = DownloadPolicy.defaultDiskReserve,
                stallTimeout: Int = DownloadPolicy.defaultStallTimeout) {
        self.lockRetryInterval = lockRetryInterval
        self.maxDownloadSize = maxDownloadSize
        self.diskReserve = diskReserve
        self.stallTimeout = stallTimeout
        self.maxConcurrent = maxConcurrent
        self.maxAttempts = maxAttempts
        self.backoffBase = backoffBase
        self.backoffCap = backoffCap
        self.bytesPerSecondLimit = bytesPerSecondLimit
    }

    /// The policy the user's settings give: transfers at once, rate limit, size bound, disk reserve and stall timeout.
    public init(configuration: Configuration) {
        self.init(maxConcurrent: configuration.maxDownloads, bytesPerSecondLimit: configuration.rateLimit,
                  maxDownloadSize: configuration.maxDownloadSize, diskReserve: configuration.diskReserve,
                  stallTimeout: configuration.stallTimeout)
    }

    /// What an issue of `size` bytes (the catalog's) may download beyond it before it is stopped: 1% or 1 MiB,
    /// whichever is more (a catalog's figure may be a little off; an endless body is not).
    public static func sizeMargin(for size: Int64) -> Int64 {
        max(1 << 20, size / 100)
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
