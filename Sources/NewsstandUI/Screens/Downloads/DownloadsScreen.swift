import NewsstandCore

/// The downloads screen (`D` anywhere): every download from the downloads model (`SharedState.downloads`), with the
/// queue's controls. Its own state is the cursor, whose selection follows its download when rows move.
public struct DownloadsScreen: ScreenModel {
    public var selectedIssueID: Int64?
    public var cursor = ListCursor()

    public init(selectedIssueID: Int64? = nil) {
        self.selectedIssueID = selectedIssueID
    }

    public var kind: ScreenKind { .downloads }
    public var screen: Screen { .downloads(self) }

    /// Opened with its cursor on the first row.
    static func open(_ shared: SharedState, body: Rect) -> DownloadsScreen {
        var screen = DownloadsScreen()
        screen.keepInView(shared.downloads, body: body)
        return screen
    }

    public mutating func handle(_ command: Command, key: Key, body: Rect, shared: inout SharedState) -> ScreenAnswer {
        let rows = shared.downloads.rows
        keepOnSelection(shared.downloads)
        if cursor.apply(command, count: rows.count, page: Self.layout(in: body).page) {
            selectedIssueID = rows.indices.contains(cursor.selection) ? rows[cursor.selection].issueID : nil
            return .stay()
        }
        let selected = rows.indices.contains(cursor.selection) ? rows[cursor.selection] : nil
        let title = selected.map { AppUpdate.downloadTitle($0, shared) } ?? ""
        func nothingSelected() -> ScreenAnswer {
            shared.message = StatusMessage("No download is selected.")
            return .stay()
        }
        switch command {
        case .back: return .pop()
        case .pauseResumeDownload:
            guard let selected else { return nothingSelected() }
            switch selected.phase {
            case .paused:
                shared.message = StatusMessage("Resuming “\(title)”…")
                shared.downloads.requested(selected.issueID)
                return .stay([.download(issueID: selected.issueID)])
            case .failed:
                shared.message = StatusMessage("“\(title)” failed; r retries it.")
            case .installing:
                shared.message = StatusMessage("“\(title)” is being installed and cannot be paused now.")
            case .queued, .transferring, .retrying, .waiting:
                shared.message = StatusMessage("Paused “\(title)”; p resumes it.")
                return .stay([.pauseDownload(issueID: selected.issueID)])
            }
        case .cancelDownload:
            guard let selected else { return nothingSelected() }
            shared.message = StatusMessage("Cancelled “\(title)”; what it had fetched was removed.")
            return .stay([.cancelDownload(issueID: selected.issueID)])
        case .retryDownload:
            guard let selected else { return nothingSelected() }
            guard selected.phase == .failed else {
                shared.message = StatusMessage("Only a failed download can be retried.")
                return .stay()
            }
            shared.message = StatusMessage("Retrying “\(title)”…")
            shared.downloads.requested(selected.issueID)
            return .stay([.download(issueID: selected.issueID)])
        case .moveDownloadUp, .moveDownloadDown:
            guard let selected else { return nothingSelected() }
            guard case .queued = selected.phase else {
                shared.message = StatusMessage("Only queued downloads can be moved in the line.")
                return .stay()
            }
            return .stay([.moveDownload(issueID: selected.issueID, by: command == .moveDownloadUp ? -1 : 1)])
        case .fewerTransfers, .moreTransfers:
            let range = DownloadsState.concurrencyRange
            let wanted = shared.downloads.maxConcurrent + (command == .moreTransfers ? 1 : -1)
            guard range.contains(wanted) else {
                shared.message = StatusMessage(command == .moreTransfers ? "At most \(range.upperBound) transfers at once." : "At least \(range.lowerBound) transfer at once.")
                return .stay()
            }
            shared.downloads.maxConcurrent = wanted
            shared.message = StatusMessage("\(wanted) transfer\(wanted == 1 ? "" : "s") at once.")
            return .stay([.setMaxConcurrentDownloads(wanted)])
        case .cycleRateLimit:
            let next = DownloadsState.nextRateLimit(after: shared.downloads.rateLimit)
            shared.downloads.rateLimit = next
            shared.message = StatusMessage(next.map { "Downloads limited to \(RateText.speed(Double($0))) in all." } ?? "No rate limit.")
            return .stay([.setRateLimit(next)])
        default:
            break
        }
        return .stay()
    }

    /// Rows come, go and move with download events: the cursor stays on its download (or at its place when it went).
    public mutating func receive(_ message: Message, body: Rect, shared: inout SharedState) -> ScreenAnswer {
        switch message {
        case .downloadReported, .unfinishedDownloadsLoaded: keepInView(shared.downloads, body: body)
        default: break
        }
        return .stay()
    }

    public mutating func fit(body: Rect, shared: inout SharedState) -> [Effect] {
        keepInView(shared.downloads, body: body)
        return []
    }

    /// Keeps the cursor on its download and in view.
    mutating func keepInView(_ downloads: DownloadsState, body: Rect) {
        keepOnSelection(downloads)
        cursor.keepVisible(count: downloads.entries.count, page: Self.layout(in: body).page)
    }

    /// Puts the cursor's index on its selected download; when that one went, the row now at its place is selected
    /// (the first row when none was).
    mutating func keepOnSelection(_ downloads: DownloadsState) {
        let rows = downloads.rows
        if let index = downloads.index(ofIssue: selectedIssueID, in: rows) {
            cursor.selection = index
        } else if selectedIssueID != nil, !rows.isEmpty {
            cursor.selection = min(max(0, cursor.selection), rows.count - 1)
            selectedIssueID = rows[cursor.selection].issueID
        } else {
            selectedIssueID = rows.first?.issueID
            cursor.selection = 0
        }
    }

    public func render(_ shared: SharedState, in body: Rect, theme: Theme, into buffer: inout CellBuffer) -> String {
        Self.render(shared.downloads, cursor: self, in: body, theme: theme, into: &buffer)
        return Self.listPosition(cursor, count: shared.downloads.entries.count)
    }

    public func readingCursor(_ shared: SharedState, in body: Rect) -> (x: Int, y: Int) { Self.row(Self.layout(in: body), cursor, in: body) }
}
