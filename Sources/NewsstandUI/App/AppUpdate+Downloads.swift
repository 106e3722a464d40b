import Foundation
import NewsstandContent
import NewsstandCore

/// Download events: each issue's state, progress and transfer sizes in the downloads model, and what the status
/// line says; and opening the downloads screen.
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
            return [.loadLibrary] + coverEffects(&state.shared, showing: state.screen)
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
    }

    /// Takes a row away (the downloads screen keeps its selection at the same place: `DownloadsScreen.receive`).
    static func removeDownload(_ issueID: Int64, _ state: inout AppState) {
        state.downloads.entries[issueID] = nil
    }

    static func clockTicked(_ state: inout AppState) -> [Effect] {
        for (id, entry) in state.downloads.entries {
            if case .retrying(let attempt, let secondsLeft) = entry.phase, secondsLeft > 0 {
                state.downloads.entries[id]?.phase = .retrying(attempt: attempt, secondsLeft: secondsLeft - 1)
            }
        }
        return []
    }

    /// `D` anywhere: the downloads screen over the one shown (once).
    static func openDownloads(_ state: inout AppState) -> [Effect] {
        guard state.screen != .downloads else { return [] }
        return apply(.push(.downloads(DownloadsScreen.open(state.shared, body: state.body))), &state)
    }

    static func downloadTitle(_ entry: DownloadEntry, _ state: SharedState) -> String {
        state.loadedIssue(id: entry.issueID)?.title ?? entry.title ?? "Issue \(entry.issueID)"
    }
}
