import Foundation

/// How fast the reader reads, in words per minute: fixed by the `reading-speed` setting, or learned from their own
/// pace as they move forward through articles (kept between runs). It gives the reader's time-left estimate.
public struct ReadingPace: Equatable, Sendable {
    public static let defaultWordsPerMinute = 230.0
    /// The library setting that remembers a learned speed.
    public static let setting = "reading_speed"

    public private(set) var wordsPerMinute: Double
    /// Fixed by the configuration: never learned.
    public let isFixed: Bool
    /// How many words the learned speed stands on, capped so that it keeps following the reader.
    private var weight: Double
    /// Where and when a stretch of reading started: words left in an article at a moment.
    private var mark: Mark?

    private struct Mark: Equatable, Sendable {
        let issueID: Int64
        let articleIndex: Int
        let wordsLeft: Int
        let time: TimeInterval
    }

    /// Learned from `remembered` (nil: the default), or fixed at `fixed` words per minute.
    public init(fixed: Int? = nil, remembered: Double? = nil) {
        isFixed = fixed != nil
        wordsPerMinute = fixed.map(Double.init) ?? remembered.flatMap { Self.plausible.contains($0) ? $0 : nil } ?? Self.defaultWordsPerMinute
        weight = remembered == nil ? 0 : Self.maximumWeight / 2
    }

    /// Paces taken as reading: slower is a pause, faster is skimming.
    static let plausible = 60.0...1_500.0
    /// The fewest words a stretch needs before it counts, and the longest it may take.
    static let minimumWords = 60
    static let longestStretch: TimeInterval = 600
    static let maximumWeight = 3_000.0

    /// The reader stands at `wordsLeft` words before the end of an article at `time` (seconds). A stretch read forward
    /// in one article, long enough and at a plausible pace, moves the speed towards that pace; returns whether it did.
    public mutating func observe(issueID: Int64, articleIndex: Int, wordsLeft: Int, at time: TimeInterval) -> Bool {
        let here = Mark(issueID: issueID, articleIndex: articleIndex, wordsLeft: wordsLeft, time: time)
        guard !isFixed else { return false }
        guard let mark, mark.issueID == issueID, mark.articleIndex == articleIndex, time >= mark.time,
              time - mark.time <= Self.longestStretch, wordsLeft <= mark.wordsLeft else {
            self.mark = here  // another article, back, or a long pause: start again from here
            return false
        }
        let words = mark.wordsLeft - wordsLeft
        guard words >= Self.minimumWords else { return false }  // keep reading from the same mark
        self.mark = here
        let seconds = time - mark.time
        guard seconds >= 1 else { return false }
        let pace = Double(words) / seconds * 60
        guard Self.plausible.contains(pace) else { return false }
        let added = min(Double(words), 1_000)
        wordsPerMinute = (wordsPerMinute * weight + pace * added) / (weight + added)
        weight = min(weight + added, Self.maximumWeight)
        return true
    }

    /// "4 min left", "< 1 min left", or nothing at the end.
    public func timeLeft(words: Int) -> String? {
        guard words > 0 else { return nil }
        let minutes = Double(words) / wordsPerMinute
        return minutes < 1 ? "< 1 min left" : "\(Int(minutes.rounded(.up))) min left"
    }
}
