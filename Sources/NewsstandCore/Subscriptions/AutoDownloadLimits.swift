import Foundation

/// Limits on downloads that start by themselves (a publication's auto-download policy), never on ones asked for:
/// quiet hours when none start, and a cap on how many start per day.
public struct AutoDownloadLimits: Sendable, Equatable {
    /// A daily span of local time, which may run past midnight ("23:00-07:00").
    public struct QuietHours: Sendable, Equatable {
        /// Minutes after midnight.
        public var start: Int
        public var end: Int

        public init(start: Int, end: Int) {
            self.start = start
            self.end = end
        }

        /// "HH:MM-HH:MM".
        public init?(_ text: String) {
            let parts = text.split(separator: "-").map { $0.trimmingCharacters(in: .whitespaces) }
            func minutes(_ part: String) -> Int? {
                let fields = part.split(separator: ":")
                guard fields.count == 2, let hour = Int(fields[0]), let minute = Int(fields[1]),
                      (0...23).contains(hour), (0...59).contains(minute) else { return nil }
                return hour * 60 + minute
            }
            guard parts.count == 2, let start = minutes(parts[0]), let end = minutes(parts[1]), start != end else { return nil }
            self.init(start: start, end: end)
        }

        public func contains(minuteOfDay minute: Int) -> Bool {
            start < end ? (start..<end).contains(minute) : minute >= start || minute < end
        }
    }

    public var quietHours: QuietHours?
    /// Automatic downloads that may start per calendar day; nil for no cap.
    public var dailyCap: Int?

    public init(quietHours: QuietHours? = nil, dailyCap: Int? = nil) {
        self.quietHours = quietHours
        self.dailyCap = dailyCap
    }

    /// Splits automatic download candidates into those that may start now and those held back, with why.
    public func apply(to candidates: [Issue], minuteOfDay: Int, startedToday: Int) -> (allowed: [Issue], held: [Issue], reason: String?) {
        guard !candidates.isEmpty else { return ([], [], nil) }
        if let quietHours, quietHours.contains(minuteOfDay: minuteOfDay) {
            return ([], candidates, "quiet hours")
        }
        if let dailyCap {
            let room = max(0, dailyCap - startedToday)
            if room < candidates.count {
                return (Array(candidates.prefix(room)), Array(candidates.dropFirst(room)), "daily cap of \(dailyCap) reached")
            }
        }
        return (candidates, [], nil)
    }
}
