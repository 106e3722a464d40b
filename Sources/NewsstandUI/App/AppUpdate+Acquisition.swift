import Foundation
import NewsstandCore

/// Titles acquired into the Library shelf: removing one (`X`), and what the runner says of one acquired.
extension AppUpdate {
    /// `X` on the shelf: asks before removing the selected title, only in the Library shelf.
    static func askToRemoveTitle(_ state: inout SharedState) -> [Effect] {
        guard let issue = state.selectedIssueValue else { return [] }
        guard state.library.publications.first(where: { $0.id == issue.publicationID })?.feedURL == TitleAcquirer.libraryURL else {
            return askToDeleteDownload(issue, &state)
        }
        if [.downloading, .paused].contains(state.downloads.state(of: issue)) {
            state.message = StatusMessage("\(issue.title) is downloading: cancel it first (x), then remove it.")
            return []
        }
        state.prompt = Prompt(.confirmRemoveTitle(issueID: issue.id, title: issue.title))
        return []
    }

    static func confirmRemoveTitle(_ issueID: Int64, key: Key, _ state: inout AppState) -> [Effect] {
        confirmed(key, &state, then: .removeTitle(issueID: issueID), otherwise: "Nothing was removed.")
    }

    /// The answer to a y/n question on the bottom line: y (or Y) does `effect`, any other key says `otherwise`.
    static func confirmed(_ key: Key, _ state: inout AppState, then effect: Effect, otherwise: String) -> [Effect] {
        state.prompt = nil
        guard key == .character("y") || key == .character("Y") else {
            state.message = StatusMessage(otherwise)
            return []
        }
        return [effect]
    }

    static func titleAcquired(_ result: Result<String, ReaderFailure>, _ state: inout AppState) -> [Effect] {
        switch result {
        case .success(let title):
            state.message = StatusMessage("Downloading \(title) into the Library shelf (D shows the downloads).")
        case .failure(let failure):
            state.message = StatusMessage(failure.reason, isError: true)
        }
        return []
    }
}
