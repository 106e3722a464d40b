import Foundation
import NewsstandCore

/// The one owner of download figures: every download this run knows of (and unfinished ones from the
/// library) with its phase, sizes, speed and attempts, the transfers allowed at once and the rate limit.
/// Updated from `DownloadEvent` messages by one switch (`AppUpdate.handleDownload`); the shelf's progress
/// bars and states (`state(of:)`, `fraction(of:)`) and the downloads screen all read it. Issue rows are
/// not a mirror of it: they hold what the library records, and change only when a download ends.
public struct DownloadsState: Equatable, Sendable {
    public var entries: [Int64: DownloadEntry] = [:]
    /// Transfers at once, as the queue was last told.
    public var maxConcurrent = DownloadPolicy().maxConcurrent
    /// Bytes per second for all transfers together; nil for no limit.
    public var rateLimit: Int?
    /// Attempts per download (the queue's `DownloadPolicy.maxAttempts`), for "attempt 2 of 5".
    public var maxAttempts = DownloadPolicy().maxAttempts
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

    /// The row index of an issue's download.
    public func index(ofIssue issueID: Int64?, in rows: [DownloadEntry]) -> Int? {
        issueID.flatMap { id in rows.firstIndex { $0.issueID == id } }
    }

    /// How far an issue's download has come (0 when this run knows nothing of it).
    public func fraction(of issueID: Int64) -> Double { entries[issueID]?.fraction ?? 0 }

    /// An issue's download as the shelf shows it and acts on it: the live phase while this model has the
    /// download, else what the library recorded on the issue's row (available, not downloaded, or a download
    /// left by an earlier run or another process).
    public func state(of issue: Issue) -> IssueState {
        guard let entry = entries[issue.id] else { return issue.state }
        switch entry.phase {
        case .queued, .transferring, .installing, .retrying, .waiting: return .downloading
        case .paused: return .paused
        case .failed: return .failed(reason: entry.lastError ?? "the download failed")
        }
    }

    /// How far an issue's download has come, for its bar: the live figure, else what the library recorded.
    public func fraction(of issue: Issue) -> Double { entries[issue.id]?.fraction ?? issue.progress }

    /// The user asked for an issue's download (Enter, resume, retry): it stands at the end of the line until
    /// the queue reports. A new row starts from what the library recorded (`recorded`, a paused partial's fraction).
    mutating func requested(_ issueID: Int64, title: String? = nil, recorded fraction: Double = 0) {
        let isNew = entries[issueID] == nil
        let position = entries.values.filter { if case .queued = $0.phase { $0.issueID != issueID } else { false } }.count + 1
        entry(issueID) { entry in
            if isNew {
                entry.fraction = fraction
                entry.title = title
            }
            entry.phase = .queued(position: position)
            entry.lastError = nil
            entry.bytesPerSecond = 0
        }
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
    /// The issue's title, once known (from a window of the shelf or looked up by id).
    public var title: String?
    public var phase: Phase = .queued(position: 1)
    public var fraction: Double = 0
    public var received: Int64?
    public var total: Int64?
    /// Smoothed bytes per second (exponential moving average of the queue's reports); 0 when unknown.
    public var bytesPerSecond: Double = 0
    /// The most recent problem: a retry's reason, the failure, or why it waits.
    public var lastError: String?
    var sequence: Int

    public init(issueID: Int64, title: String? = nil, phase: Phase = .queued(position: 1), fraction: Double = 0, received: Int64? = nil, total: Int64? = nil,
                bytesPerSecond: Double = 0, lastError: String? = nil, sequence: Int = 0) {
        self.issueID = issueID
        self.title = title
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
