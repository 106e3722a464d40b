import Foundation
import NewsstandContent
import NewsstandCore

/// Download events: each issue's state, progress and transfer sizes, and what the status line says.
extension AppUpdate {
    static func handleDownload(_ event: DownloadEvent, _ state: inout AppState) -> [Effect] {
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
}
