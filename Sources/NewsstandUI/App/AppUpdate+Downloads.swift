import Foundation
import NewsstandContent
import NewsstandCore

/// Download events: each issue's state, progress and transfer sizes, the downloads screen's model, and
/// what the status line says; and the downloads screen's keys.
extension AppUpdate {
    static func handleDownload(_ event: DownloadEvent, _ state: inout AppState) -> [Effect] {
        updateDownloadsModel(event, &state)
        switch event {
        case .queued(let issueID, _):
            updateIssue(issueID, &state) { $0.state = .downloading }
        case .started(let issueID, let resumedAt):
            updateIssue(issueID, &state) {
                $0.state = .downloading
                if let resumedAt { $0.progress = resumedAt }
            }
            if let resumedAt, let issue = state.issue(id: issueID) {
                state.message = StatusMessage("Resumed “\(issue.title)” at \(Int(resumedAt * 100))%")
            }
        case .progressed(let issueID, let fraction, let received, let total, _):
            updateIssue(issueID, &state) {
                $0.state = .downloading
                $0.progress = fraction
            }
            state.transferSizes[issueID] = TransferSize(received: received, total: total)
        case .paused(let issueID):
            updateIssue(issueID, &state) { $0.state = .paused }
        case .retrying(let issueID, let attempt, let delay, let reason):
            if let issue = state.issue(id: issueID) {
                let seconds = max(1, Int(delay.rounded(.up)))
                state.message = StatusMessage("Retrying “\(issue.title)” in \(seconds) s (attempt \(attempt) of \(state.maxDownloadAttempts)): \(reason)")
            }
        case .installing:
            break
        case .installed(let issueID):
            updateIssue(issueID, &state) {
                $0.state = .available
                $0.progress = 1
            }
            state.transferSizes[issueID] = nil
            if let issue = state.issue(id: issueID) { state.message = StatusMessage("“\(issue.title)” is ready to read.") }
        case .failed(let issueID, let reason):
            updateIssue(issueID, &state) {
                $0.state = .failed(reason: reason)
                $0.progress = 0
            }
            state.transferSizes[issueID] = nil
            if let issue = state.issue(id: issueID) {
                state.message = StatusMessage("“\(issue.title)” failed: \(reason)", isError: true)
            }
        case .cancelled(let issueID):
            updateIssue(issueID, &state) {
                $0.state = .notDownloaded
                $0.progress = 0
            }
            state.transferSizes[issueID] = nil
        case .waiting(let issueID, let reason):
            updateIssue(issueID, &state) { $0.state = .downloading }
            if let issue = state.issue(id: issueID) {
                state.message = StatusMessage("“\(issue.title)” is \(reason); it continues when that one stops.")
            }
        }
        return []
    }

    /// Keeps the downloads screen's rows in step with the queue.
    static func updateDownloadsModel(_ event: DownloadEvent, _ state: inout AppState) {
        func entry(_ issueID: Int64, _ change: (inout DownloadEntry) -> Void) {
            let progress = state.issue(id: issueID)?.progress ?? 0
            let isNew = state.downloads.entries[issueID] == nil
            state.downloads.entry(issueID) { entry in
                if isNew { entry.fraction = progress }
                change(&entry)
            }
            if state.downloads.selectedIssueID == nil { state.downloads.selectedIssueID = issueID }
        }
        switch event {
        case .queued(let issueID, let position):
            entry(issueID) { $0.phase = .queued(position: position); $0.bytesPerSecond = 0 }
        case .started(let issueID, let resumedAt):
            entry(issueID) {
                $0.phase = .transferring
                $0.fraction = resumedAt ?? 0
                $0.bytesPerSecond = 0
                if resumedAt == nil { $0.received = nil }
            }
        case .progressed(let issueID, let fraction, let received, let total, let bytesPerSecond):
            entry(issueID) {
                $0.phase = .transferring
                $0.fraction = fraction
                $0.received = received
                $0.total = total
                $0.bytesPerSecond = $0.bytesPerSecond <= 0 ? bytesPerSecond
                    : $0.bytesPerSecond + DownloadEntry.smoothing * (bytesPerSecond - $0.bytesPerSecond)
            }
        case .paused(let issueID):
            entry(issueID) { $0.phase = .paused; $0.bytesPerSecond = 0 }
        case .retrying(let issueID, let attempt, let delay, let reason):
            entry(issueID) {
                $0.phase = .retrying(attempt: attempt, secondsLeft: max(1, Int(delay.rounded(.up))))
                $0.lastError = reason
                $0.bytesPerSecond = 0
            }
        case .installing(let issueID):
            entry(issueID) { $0.phase = .installing; $0.bytesPerSecond = 0 }
        case .failed(let issueID, let reason):
            entry(issueID) { $0.phase = .failed; $0.lastError = reason; $0.bytesPerSecond = 0; $0.fraction = 0 }
        case .waiting(let issueID, let reason):
            entry(issueID) { $0.phase = .waiting; $0.lastError = reason; $0.bytesPerSecond = 0 }
        case .installed(let issueID), .cancelled(let issueID):
            removeDownload(issueID, &state)
        }
        clampDownloadsScroll(&state)
    }

    /// Paused and failed issues of the library appear on the downloads screen (they survive restarts);
    /// rows of issues that another process finished or reset go.
    static func syncDownloads(with snapshot: LibrarySnapshot, _ state: inout AppState) {
        var seen: Set<Int64> = []
        for issue in snapshot.issues.values.joined().sorted(by: { $0.id < $1.id }) {
            seen.insert(issue.id)
            let current = state.downloads.entries[issue.id]
            switch issue.state {
            case .paused where current == nil:
                state.downloads.entry(issue.id) { $0.phase = .paused; $0.fraction = issue.progress }
            case .failed(let reason) where current == nil:
                state.downloads.entry(issue.id) { $0.phase = .failed; $0.lastError = reason }
            case .available, .notDownloaded:
                if let current, current.phase == .paused || current.phase == .failed { removeDownload(issue.id, &state) }
            default:
                break
            }
        }
        for id in state.downloads.entries.keys where !seen.contains(id) { removeDownload(id, &state) }
        if state.downloads.selectedIssueID == nil { state.downloads.selectedIssueID = state.downloads.rows.first?.issueID }
        clampDownloadsScroll(&state)
    }

    /// Takes a row away; the selection stays at the same place in the list.
    static func removeDownload(_ issueID: Int64, _ state: inout AppState) {
        guard state.downloads.entries[issueID] != nil else { return }
        let wasSelected = state.downloads.selectedIssueID == issueID
        let index = state.downloads.selectedIndex
        state.downloads.entries[issueID] = nil
        if wasSelected {
            let rows = state.downloads.rows
            state.downloads.selectedIssueID = rows.isEmpty ? nil : rows[min(index, rows.count - 1)].issueID
        }
    }

    static func clockTicked(_ state: inout AppState) -> [Effect] {
        for (id, entry) in state.downloads.entries {
            if case .retrying(let attempt, let secondsLeft) = entry.phase, secondsLeft > 0 {
                state.downloads.entries[id]?.phase = .retrying(attempt: attempt, secondsLeft: secondsLeft - 1)
            }
        }
        return []
    }

    static func openDownloads(_ state: inout AppState) -> [Effect] {
        if state.screen != .downloads { state.screens.append(.downloads) }
        state.downloads.selectedIssueID = state.downloads.rows.first?.issueID
        state.downloads.scroll = 0
        clampDownloadsScroll(&state)
        return []
    }

    static func handleDownloadsScreen(_ command: Command, _ state: inout AppState) -> [Effect] {
        let rows = state.downloads.rows
        let index = state.downloads.selectedIndex
        let page = DownloadsScreen.visibleEntryCount(height: state.height)
        func select(_ target: Int) {
            guard !rows.isEmpty else { return }
            state.downloads.selectedIssueID = rows[min(max(0, target), rows.count - 1)].issueID
            clampDownloadsScroll(&state)
        }
        let selected = rows.indices.contains(index) ? rows[index] : nil
        let title = selected.map { downloadTitle($0.issueID, state) } ?? ""
        switch command {
        case .moveDown: select(index + 1)
        case .moveUp: select(index - 1)
        case .pageDown: select(index + page)
        case .pageUp: select(index - page)
        case .top: select(0)
        case .bottom: select(rows.count - 1)
        case .help: return openHelp(&state)
        case .back: state.screens.removeLast()
        case .pauseResumeDownload:
            guard let selected else { return nothingSelected(&state) }
            switch selected.phase {
            case .paused:
                state.message = StatusMessage("Resuming “\(title)”…")
                updateIssue(selected.issueID, &state) { $0.state = .downloading }
                return [.resumeDownload(issueID: selected.issueID)]
            case .failed:
                state.message = StatusMessage("“\(title)” failed; r retries it.")
            case .installing:
                state.message = StatusMessage("“\(title)” is being installed and cannot be paused now.")
            case .queued, .transferring, .retrying, .waiting:
                state.message = StatusMessage("Paused “\(title)”; p resumes it.")
                return [.pauseDownload(issueID: selected.issueID)]
            }
        case .cancelDownload:
            guard let selected else { return nothingSelected(&state) }
            state.message = StatusMessage("Cancelled “\(title)”; what it had fetched was removed.")
            return [.cancelDownload(issueID: selected.issueID)]
        case .retryDownload:
            guard let selected else { return nothingSelected(&state) }
            guard selected.phase == .failed else {
                state.message = StatusMessage("Only a failed download can be retried.")
                return []
            }
            state.message = StatusMessage("Retrying “\(title)”…")
            updateIssue(selected.issueID, &state) { $0.state = .downloading; $0.progress = 0 }
            state.downloads.entries[selected.issueID]?.lastError = nil
            return [.retryDownload(issueID: selected.issueID)]
        case .moveDownloadUp, .moveDownloadDown:
            guard let selected else { return nothingSelected(&state) }
            guard case .queued = selected.phase else {
                state.message = StatusMessage("Only queued downloads can be moved in the line.")
                return []
            }
            return [.moveDownload(issueID: selected.issueID, by: command == .moveDownloadUp ? -1 : 1)]
        case .fewerTransfers, .moreTransfers:
            let range = DownloadsState.concurrencyRange
            let wanted = state.downloads.maxConcurrent + (command == .moreTransfers ? 1 : -1)
            guard range.contains(wanted) else {
                state.message = StatusMessage(command == .moreTransfers ? "At most \(range.upperBound) transfers at once." : "At least \(range.lowerBound) transfer at once.")
                return []
            }
            state.downloads.maxConcurrent = wanted
            state.message = StatusMessage("\(wanted) transfer\(wanted == 1 ? "" : "s") at once.")
            return [.setMaxConcurrentDownloads(wanted)]
        case .cycleRateLimit:
            let next = DownloadsState.nextRateLimit(after: state.downloads.rateLimit)
            state.downloads.rateLimit = next
            state.message = StatusMessage(next.map { "Downloads limited to \(RateText.speed(Double($0))) in all." } ?? "No rate limit.")
            return [.setRateLimit(next)]
        default:
            break
        }
        return []
    }

    private static func nothingSelected(_ state: inout AppState) -> [Effect] {
        state.message = StatusMessage("No download is selected.")
        return []
    }

    static func downloadTitle(_ issueID: Int64, _ state: AppState) -> String {
        state.issue(id: issueID)?.title ?? "Issue \(issueID)"
    }

    /// Keeps the selected row of the downloads screen in view.
    static func clampDownloadsScroll(_ state: inout AppState) {
        let count = state.downloads.entries.count
        let visible = DownloadsScreen.visibleEntryCount(height: state.height)
        let selected = state.downloads.selectedIndex
        var scroll = min(state.downloads.scroll, max(0, count - visible))
        if selected < scroll { scroll = selected }
        if selected >= scroll + visible { scroll = selected - visible + 1 }
        state.downloads.scroll = max(0, scroll)
    }
}
