import Foundation
import NewsstandContent
import NewsstandCore

/// Download events: each issue's state, progress and transfer sizes, the downloads screen's model, and
/// what the status line says; and the downloads screen's keys.
extension AppUpdate {
    /// The one switch over download events: the downloads model's figures and what the status line says.
    /// The issue's row in the windows that hold it changes only when the download ends (installed, failed,
    /// cancelled), to what the library now records; until then the shelf reads the downloads model. Issues
    /// no window holds are named once looked up.
    static func handleDownload(_ event: DownloadEvent, _ state: inout AppState) -> [Effect] {
        let issueID = event.issueID
        let isNew = state.downloads.entries[issueID] == nil
        let known = state.loadedIssue(id: issueID)
        func entry(_ change: (inout DownloadEntry) -> Void) {
            state.downloads.entry(issueID) { entry in
                if isNew {
                    entry.fraction = known?.progress ?? 0
                    entry.title = known?.title
                }
                change(&entry)
            }
        }
        func recordEnd(_ issueState: IssueState, progress: Double) {
            state.library.updateIssue(issueID) { $0.state = issueState; $0.progress = progress }
        }
        let title = known?.title ?? state.downloads.entries[issueID]?.title
        func say(_ text: (String) -> String, isError: Bool = false) {
            if let title { state.message = StatusMessage(text(title), isError: isError) }
        }
        switch event {
        case .queued(_, let position):
            entry { $0.phase = .queued(position: position); $0.bytesPerSecond = 0 }
        case .started(_, let resumedAt):
            entry {
                $0.phase = .transferring
                $0.fraction = resumedAt ?? 0
                $0.bytesPerSecond = 0
                if resumedAt == nil { $0.received = nil }
            }
            if let resumedAt { say { "Resumed “\($0)” at \(Int(resumedAt * 100))%" } } else if state.screenReader { say { "Downloading “\($0)”." } }
        case .progressed(_, let fraction, let received, let total, let bytesPerSecond):
            entry {
                $0.phase = .transferring
                $0.fraction = fraction
                $0.received = received
                $0.total = total
                $0.bytesPerSecond = $0.bytesPerSecond <= 0 ? bytesPerSecond
                    : $0.bytesPerSecond + DownloadEntry.smoothing * (bytesPerSecond - $0.bytesPerSecond)
            }
        case .paused:
            entry { $0.phase = .paused; $0.bytesPerSecond = 0 }
            if state.screenReader { say { "“\($0)” is paused." } }
        case .retrying(_, let attempt, let delay, let reason):
            let seconds = max(1, Int(delay.rounded(.up)))
            entry {
                $0.phase = .retrying(attempt: attempt, secondsLeft: seconds)
                $0.lastError = reason
                $0.bytesPerSecond = 0
            }
            let attempts = state.downloads.maxAttempts
            say { "Retrying “\($0)” in \(seconds) s (attempt \(attempt) of \(attempts)): \(reason)" }
        case .installing:
            entry { $0.phase = .installing; $0.bytesPerSecond = 0 }
        case .installed:
            removeDownload(issueID, &state)
            recordEnd(.available, progress: 1)
            say { "“\($0)” is ready to read." }
            // Its cover may come from its own files now (a comic book's first page): ask again.
            state.covers.askAgain { $0.issueID == issueID }
            return [.loadLibrary] + coverEffects(&state)
        case .failed(_, let reason):
            entry { $0.phase = .failed; $0.lastError = reason; $0.bytesPerSecond = 0; $0.fraction = 0 }
            recordEnd(.failed(reason: reason), progress: 0)
            say({ "“\($0)” failed: \(reason)" }, isError: true)
        case .cancelled:
            removeDownload(issueID, &state)
            recordEnd(.notDownloaded, progress: 0)
            if state.screenReader { say { "The download of “\($0)” was cancelled." } }
        case .waiting(_, let reason):
            entry { $0.phase = .waiting; $0.lastError = reason; $0.bytesPerSecond = 0 }
            say { "“\($0)” is \(reason); it continues when that one stops." }
        }
        keepDownloadsInView(&state)
        let needsTitle = isNew && title == nil && state.downloads.entries[issueID] != nil
        return needsTitle ? [.lookUpIssues([issueID])] : []
    }

    /// Paused and failed downloads of the library appear on the downloads screen (they survive restarts);
    /// rows of issues that another process finished or reset go.
    static func seedDownloads(from unfinished: [Issue], _ state: inout AppState) {
        let ids = Set(unfinished.map(\.id))
        for issue in unfinished where state.downloads.entries[issue.id] == nil {
            switch issue.state {
            case .paused:
                state.downloads.entry(issue.id) { $0.phase = .paused; $0.fraction = issue.progress; $0.title = issue.title }
            case .failed(let reason):
                state.downloads.entry(issue.id) { $0.phase = .failed; $0.lastError = reason; $0.title = issue.title }
            default:
                break
            }
        }
        for (id, entry) in state.downloads.entries where !ids.contains(id) && (entry.phase == .paused || entry.phase == .failed) {
            removeDownload(id, &state)
        }
        keepDownloadsInView(&state)
    }

    /// Takes a row away; the downloads screen's selection stays at the same place in the list.
    static func removeDownload(_ issueID: Int64, _ state: inout AppState) {
        guard state.downloads.entries[issueID] != nil else { return }
        let before = state.downloads.rows
        state.downloads.entries[issueID] = nil
        let rows = state.downloads.rows
        state.updateScreen { screen in
            guard case .downloads(var cursor) = screen else { return false }
            if cursor.selectedIssueID == issueID {
                let index = before.firstIndex { $0.issueID == issueID } ?? 0
                cursor.selectedIssueID = rows.isEmpty ? nil : rows[min(index, rows.count - 1)].issueID
            }
            screen = .downloads(cursor)
            return true
        }
    }

    /// Keeps the downloads screen's cursor on its download and in view.
    static func keepDownloadsInView(_ state: inout AppState) {
        let downloads = state.downloads
        let page = DownloadsScreen.layout(in: state.body).page
        state.updateScreen { screen in
            guard case .downloads(var cursor) = screen else { return false }
            keepDownloadsCursor(&cursor, downloads)
            cursor.cursor.keepVisible(count: downloads.entries.count, page: page)
            screen = .downloads(cursor)
            return true
        }
    }

    /// Puts the cursor's index on its selected download (the first row when it has none).
    static func keepDownloadsCursor(_ cursor: inout DownloadsCursor, _ downloads: DownloadsState) {
        let rows = downloads.rows
        if let index = downloads.index(ofIssue: cursor.selectedIssueID, in: rows) {
            cursor.cursor.selection = index
        } else {
            cursor.selectedIssueID = rows.first?.issueID
            cursor.cursor.selection = 0
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
        if state.screen != .downloads { state.screens.append(.downloads(DownloadsCursor())) }
        keepDownloadsInView(&state)
        return []
    }

    static func handleDownloadsScreen(_ command: Command, _ cursor: DownloadsCursor, _ state: inout AppState) -> [Effect] {
        let rows = state.downloads.rows
        var cursor = cursor
        keepDownloadsCursor(&cursor, state.downloads)
        if cursor.cursor.apply(command, count: rows.count, page: DownloadsScreen.layout(in: state.body).page) {
            cursor.selectedIssueID = rows.indices.contains(cursor.cursor.selection) ? rows[cursor.cursor.selection].issueID : nil
            state.screens[state.screens.count - 1] = .downloads(cursor)
            return []
        }
        let selected = rows.indices.contains(cursor.cursor.selection) ? rows[cursor.cursor.selection] : nil
        let title = selected.map { downloadTitle($0, state) } ?? ""
        switch command {
        case .back: return goBack(&state)
        case .pauseResumeDownload:
            guard let selected else { return nothingSelected(&state) }
            switch selected.phase {
            case .paused:
                state.message = StatusMessage("Resuming “\(title)”…")
                state.downloads.requested(selected.issueID)
                return [.download(issueID: selected.issueID)]
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
            state.downloads.requested(selected.issueID)
            return [.download(issueID: selected.issueID)]
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

    static func downloadTitle(_ entry: DownloadEntry, _ state: AppState) -> String {
        state.loadedIssue(id: entry.issueID)?.title ?? entry.title ?? "Issue \(entry.issueID)"
    }
}
