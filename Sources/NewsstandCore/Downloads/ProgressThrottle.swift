import Foundation

/// Decides when a progress report is worth sending: on a visible change (half a percent)
/// or after an interval, so a fast transfer cannot flood the UI loop.
struct ProgressThrottle {
    let minimumStep: Double
    let minimumInterval: TimeInterval
    private var lastFraction = -1.0
    private var lastTime = Date.distantPast

    init(minimumStep: Double = 0.005, minimumInterval: TimeInterval = 0.1) {
        self.minimumStep = minimumStep
        self.minimumInterval = minimumInterval
    }

    mutating func shouldReport(_ fraction: Double, now: Date = Date()) -> Bool {
        if fraction >= 1 || fraction - lastFraction >= minimumStep || now.timeIntervalSince(lastTime) >= minimumInterval {
            lastFraction = fraction
            lastTime = now
            return true
        }
        return false
    }
}
