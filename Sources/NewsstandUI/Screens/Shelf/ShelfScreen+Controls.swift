import Foundation
import NewsstandCore

/// The shelf's small controls: marking an issue read or unread, deleting its download, and the view's order and filter.
extension AppUpdate {
    /// `N`: read ↔ unread. Read clears NEW; unread brings NEW back to an issue that arrived new and ends READING.
    static func toggleRead(_ state: inout SharedState) -> [Effect] {
        guard let issue = state.selectedIssueValue else { return [] }
        let read = issue.openedAt == nil
        // A placeholder date until the library is read again (the store keeps the real one).
        state.library.updateIssue(issue.id) { $0.openedAt = read ? Date(timeIntervalSince1970: 0) : nil }
        if !read, state.library.readingIssue?.id == issue.id {
            state.library.readingIssue = nil
            state.library.readingPosition = nil
        }
        state.message = StatusMessage(read ? "Marked “\(issue.title)” read." : "Marked “\(issue.title)” unread\(issue.arrivedNew ? " (NEW again)" : "").")
        return [.markRead(issueID: issue.id, read: read)]
    }

    /// `X` on a subscribed publication's shelf: asks before deleting the selected issue's downloaded file.
    static func askToDeleteDownload(_ issue: Issue, _ state: inout SharedState) -> [Effect] {
        switch state.downloads.state(of: issue) {
        case .available:
            state.prompt = Prompt(.confirmDeleteDownload(issueID: issue.id, title: issue.title))
        case .downloading, .paused:
            state.message = StatusMessage("“\(issue.title)” is downloading: cancel it first (\(state.keys.label(of: .cancelDownload, on: .shelf))).")
        case .notDownloaded, .failed:
            state.message = StatusMessage("“\(issue.title)” is not downloaded: there is no file to delete.")
        }
        return []
    }

    static func confirmDeleteDownload(_ issueID: Int64, key: Key, _ state: inout AppState) -> [Effect] {
        confirmed(key, &state, then: .deleteDownload(issueID: issueID), otherwise: "Nothing was deleted.")
    }

    /// Shows the shelves in another order or filter, remembered for the next run: their windows are read again in
    /// it, each selection following its issue when the view still shows it.
    static func changeView(_ view: ShelfView, _ state: inout SharedState, showing: ScreenKind) -> [Effect] {
        state.library.view = view
        state.library.windows = [:]
        state.library.requestedWindows = [:]
        state.library.viewCounts = [:]
        for publicationID in state.shelf.cursors.keys { state.shelf.cursors[publicationID] = ListCursor() }
        pruneCovers(&state)
        state.message = StatusMessage(describe(view))
        return [.saveSetting(key: AppState.shelfOrderSetting, value: view.sort.rawValue),
                .saveSetting(key: AppState.shelfFilterSetting, value: view.filter.rawValue)] + shelfEffects(&state, showing: showing)
    }

    /// "Oldest first · downloaded issues".
    static func describe(_ view: ShelfView) -> String {
        let order = switch view.sort {
        case .newest: "Newest first"
        case .oldest: "Oldest first"
        case .title: "By title"
        }
        let shown = switch view.filter {
        case .all: "every issue"
        case .downloaded: "downloaded issues"
        case .new: "NEW issues"
        case .unread: "unread issues"
        }
        return "\(order) · \(shown)"
    }
}
