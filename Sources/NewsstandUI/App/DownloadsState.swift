import Foundation
import NewsstandCore

/// What the downloads screen shows: every download this run knows of (and paused or failed ones from the
/// library), the transfers allowed at once and the rate limit. Updated from `DownloadEvent` messages.
public struct DownloadsState: Equatable, Sendable {
    public var entries: [Int64: DownloadEntry] = [:]
    /// Transfers at once, as the queue was last told.
    public var maxConcurrent = DownloadPolicy().maxConcurrent
    /// Bytes per second for all transfers together; nil for no limit.
    public var rateLimit: Int?
    /// The selected row's issue (the selection follows the issue when rows move).
    public var selectedIssueID: Int64?
    /// The first row shown.
    public var scroll = 0
    /// Order of first appearance, to keep rows of one kind stable.
    var nextSequence = 0

    public static let concurrencyRange = 1...16
    /// What `L` cycles through: off, 256 KB/s, 1 MB/s, 4 MB/s.
    public static let rateLimitSteps: [Int?] = [nil, 256 << 10, 1 << 20, 4 << 20]

    public init() {}

    /// The rows in screen order: running, retrying, waiting for another process, queued by position, paused, failed.
    public var rows: [DownloadEntry] {
        entries.values.sorted { a, b in
            if a.phase.rank != b.phase.rank { return a.phase.rank < b.phase.rank }
            if case .queued(let x) = a.phase, case .queued(let y) = b.phase, x != y { return x < y }
            return a.sequence < b.sequence
        }
    }

    public var selectedIndex: Int {
        let rows = rows
        return selectedIssueID.flatMap { id in rows.firstIndex { $0.issueID == id } } ?? 0
    }

    public var selectedEntry: DownloadEntry? {
        let rows = rows
        return rows.indices.contains(selectedIndex) ? rows[selectedIndex] : nil
    }

    /// Some row counts down to a retry (the front end then sends `.clockTicked` every second).
    public var hasCountdown: Bool {
        entries.values.contains { if case .retrying = $0.phase { true } else { false } }
    }

    /// The entry of an issue, created (at the end of its kind) when it is new.
    mutating func entry(_ issueID: Int64, _ change: (inout DownloadEntry) -> Void) {
        var entry = entries[issueID] ?? DownloadEntry(issueID: issueID, sequence: nextSequence)
        if entries[issueID] == nil { nextSequence += 1 }
        change(&entry)
        entries[issueID] = entry
    }

    /// The next step of the rate-limit cycle after `current` (a configured value between steps goes to the next one up).
    public static func nextRateLimit(after current: Int?) -> Int? {
        guard let current else { return rateLimitSteps[1] }
        return rateLimitSteps.dropFirst().first { ($0 ?? 0) > current } ?? nil
    }
}

/// One download on the downloads screen.
public struct DownloadEntry: Equatable, Sendable {
    public enum Phase: Equatable, Sendable {
        /// In line for a transfer slot, 1-based.
        case queued(position: Int)
        case transferring
        case installing
        /// Waiting `secondsLeft` before attempt `attempt` after a transient failure.
        case retrying(attempt: Int, secondsLeft: Int)
        /// Another process has the issue; the queue looks again every few seconds.
        case waiting
        case paused
        case failed

        var rank: Int {
            switch self {
            case .transferring, .installing: 0
            case .retrying: 1
            case .waiting: 2
            case .queued: 3
            case .paused: 4
            case .failed: 5
            }
        }
    }

    public var issueID: Int64
    public var phase: Phase = .queued(position: 1)
    public var fraction: Double = 0
    public var received: Int64?
    public var total: Int64?
    /// Smoothed bytes per second (exponential moving average of the queue's reports); 0 when unknown.
    public var bytesPerSecond: Double = 0
    /// The most recent problem: a retry's reason, the failure, or why it waits.
    public var lastError: String?
    var sequence: Int

    public init(issueID: Int64, phase: Phase = .queued(position: 1), fraction: Double = 0, received: Int64? = nil, total: Int64? = nil,
                bytesPerSecond: Double = 0, lastError: String? = nil, sequence: Int = 0) {
        self.issueID = issueID
        self.phase = phase
        self.fraction = fraction
        self.received = received
        self.total = total
        self.bytesPerSecond = bytesPerSecond
        self.lastError = lastError
        self.sequence = sequence
    }

    /// Seconds left at the current speed, when it can be told.
    public var secondsRemaining: Int? {
        guard phase == .transferring, bytesPerSecond > 1, let received, let total, total >= received else { return nil }
        return Int((Double(total - received) / bytesPerSecond).rounded(.up))
    }

    /// Weight of a new speed report in the moving average.
    static let smoothing = 0.3
}
