import Foundation
import NewsstandCore

/// The shelf, at the bottom of the stack: a publication's issues in the library's window, to download, open, mark,
/// star, sort and filter, and the ways to every other screen. Its state (the shown publication, each shelf's
/// cursor and view) is shared with the issue page, so it lives in `SharedState.shelf`; this type holds none.
public struct ShelfScreen: ScreenModel {
    public init() {}

    public var kind: ScreenKind { .shelf }
    public var screen: Screen { .shelf }

    public mutating func handle(_ command: Command, key: Key, body: Rect, shared: inout SharedState) -> ScreenAnswer {
        let count = shared.currentIssueCount
        let layout = shared.shelfLayout
        var cursor = shared.shelfCursor
        if cursor.apply(command, count: count, page: layout.page) {
            shared.shelfCursor = cursor
            AppUpdate.rememberSelection(&shared)
            return .stay(Self.effects(&shared))
        }
        switch command {
        case .tap:
            if case .mouseClick(let x, let y) = key, let line = layout.continueLine, line.contains(x: x, y: y) {
                return handle(.continueReading, key: key, body: body, shared: &shared)
            }
            guard cursor.tap(key, count: count, page: layout.page, hit: { x, y, cursor in
                layout.index(atX: x, y: y, scroll: cursor.offset, count: count)
            }) else { return .stay() }
            if case .mouseClick = key {
                shared.shelfCursor = cursor
                AppUpdate.rememberSelection(&shared)
            }
            return Self.tap(&shared)
        case .toggleShelfView:
            shared.shelf.viewMode = shared.shelf.viewMode == .list ? .grid : .list
            AppUpdate.keepShelfInView(&shared)
            if shared.shelfLayout.mode != shared.shelf.viewMode {
                shared.message = StatusMessage("The window is too small for the grid; showing the list.")
            }
            return .stay([.saveSetting(key: AppState.shelfViewSetting, value: shared.shelf.viewMode.rawValue)] + Self.effects(&shared))
        case .showStorage:
            return StorageScreen.open()
        case .showSubscriptions:
            return .push(.subscriptions(SubscriptionsScreen.open(shared, body: body)))
        case .showDetails:
            guard shared.selectedIssueValue != nil else { return .stay() }
            return .push(.detail, AppUpdate.coverEffects(&shared, showing: .detail))
        case .deleteIssue:
            return .stay(AppUpdate.askToRemoveTitle(&shared))
        case .toggleRead:
            return .stay(AppUpdate.toggleRead(&shared))
        case .toggleStar:
            guard let issue = shared.selectedIssueValue else { return .stay() }
            return .stay([.toggleStar(issueID: issue.id)])
        case .cycleSort:
            return .stay(AppUpdate.changeView(ShelfView(sort: shared.library.view.sort.next, filter: shared.library.view.filter), &shared, showing: .shelf))
        case .cycleFilter:
            return .stay(AppUpdate.changeView(ShelfView(sort: shared.library.view.sort, filter: shared.library.view.filter.next), &shared, showing: .shelf))
        case .cancelDownload:
            guard let issue = shared.selectedIssueValue, [.downloading, .paused].contains(shared.downloads.state(of: issue)) else {
                shared.message = StatusMessage("Nothing is downloading here.")
                return .stay()
            }
            return .stay([.cancelDownload(issueID: issue.id)])
        case .continueReading:
            guard let issue = shared.library.readingIssue, issue.state == .available else {
                shared.message = StatusMessage("No issue is being read yet: open one with Enter.")
                return .stay()
            }
            let shown = AppUpdate.showOnShelf(issue, &shared, showing: .shelf)
            let opened = Self.open(issue, &shared)
            return ScreenAnswer(opened.move, shown + opened.effects)
        case .refresh:
            shared.message = StatusMessage("Refreshing catalogs…")
            shared.isRefreshRequested = true
            return .stay([.refreshPublications])
        case .nextPublication, .previousPublication:
            let count = shared.library.publications.count
            guard count > 1 else { return .stay() }
            let index = (shared.shelf.selectedPublication + (command == .nextPublication ? 1 : count - 1)) % count
            return .stay(AppUpdate.selectPublication(index, &shared, showing: .shelf))
        default:
            return .stay()
        }
    }

    /// What the shelf needs after a change: its windows, then the covers in view.
    static func effects(_ shared: inout SharedState) -> [Effect] { AppUpdate.shelfEffects(&shared, showing: .shelf) }

    /// Enter on an issue (here or on its page): downloads it, resumes it, or opens it when it is downloaded.
    static func tap(_ shared: inout SharedState) -> ScreenAnswer {
        guard let issue = shared.selectedIssueValue else { return .stay() }
        switch shared.downloads.state(of: issue) {
        case .notDownloaded where !issue.isDownloadable:
            shared.message = StatusMessage("The feed lists “\(issue.title)” without anything to download.")
        case .notDownloaded, .failed:
            shared.downloads.requested(issue.id, title: issue.title)
            shared.message = StatusMessage("Downloading “\(issue.title)”…")
            return .stay([.download(issueID: issue.id)])
        case .paused:
            shared.downloads.requested(issue.id, title: issue.title, recorded: issue.progress)
            shared.message = StatusMessage("Resuming “\(issue.title)”…")
            return .stay([.download(issueID: issue.id)])
        case .downloading:
            shared.message = StatusMessage("“\(issue.title)” is downloading (x cancels).")
        case .available:
            return open(issue, &shared)
        }
        return .stay()
    }

    /// Opens a downloaded issue over the shelf (whatever else was open goes).
    static func open(_ issue: Issue, _ shared: inout SharedState) -> ScreenAnswer {
        shared.library.readingIssue = issue
        shared.message = nil
        return .reset([.shelf, .reader(ReaderScreen(issueID: issue.id))], [.openIssue(issueID: issue.id)])
    }

    public mutating func fit(body: Rect, shared: inout SharedState) -> [Effect] {
        AppUpdate.keepShelfInView(&shared)
        return []
    }

    public func render(_ shared: SharedState, in body: Rect, theme: Theme, into buffer: inout CellBuffer) -> String {
        Self.render(shared, in: body, theme: theme, into: &buffer)
        return AppView.shelfPosition(shared)
    }

    public func readingCursor(_ shared: SharedState, in body: Rect) -> (x: Int, y: Int) {
        guard shared.currentIssueCount > 0 else { return (body.x, body.y) }
        let cursor = shared.shelfCursor
        let rect = shared.shelfLayout.itemRect(offset: max(0, cursor.selection - cursor.offset))
        return (rect.x, min(rect.y, body.maxY - 1))
    }
}
