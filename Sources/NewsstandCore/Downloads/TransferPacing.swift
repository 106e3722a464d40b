import Foundation

/// How a transfer keeps to the queue's rate limit. An http sink draws each chunk from the shared token
/// bucket; while the bucket is in debt the sink pauses the transfer (answers `.full`) and one resume is
/// scheduled for when it has caught up, so nothing sleeps on the network thread. A value its transfer
/// keeps in its `state` Mutex.
struct TransferPacing {
    /// No more bytes are taken before this moment.
    private var until: DispatchTime?
    private var isResumeScheduled = false

    /// Whether the sink must pause now, and the moment to schedule a resume for (only the first time a
    /// pause needs one).
    mutating func check(now: DispatchTime = .now()) -> (pause: Bool, resumeAt: DispatchTime?) {
        guard let until else { return (false, nil) }
        guard now < until else {
            self.until = nil
            return (false, nil)
        }
        if isResumeScheduled { return (true, nil) }
        isResumeScheduled = true
        return (true, until)
    }

    /// Bytes were taken; `wait` (the limiter's answer) seconds must pass before the next ones.
    mutating func charge(wait: TimeInterval, now: DispatchTime = .now()) {
        if wait > 0 { until = now + wait }
    }

    /// The scheduled resume has run.
    mutating func resumed() {
        isResumeScheduled = false
    }

    /// Waits as long as the shared rate limit asks, in short slices so a cancel is not held up (file copies
    /// only, on their own queue: http is held to the limit at the socket and by the sink's pauses).
    static func paceFileCopy(_ bytes: Int, limiter: RateLimiter, isCancelled: () -> Bool) {
        var remaining = limiter.reserve(bytes)
        while remaining > 0 && !isCancelled() {
            let slice = min(remaining, 0.05)
            Thread.sleep(forTimeInterval: slice)
            remaining -= slice
        }
    }
}
