import Foundation
import NewsstandContent
import NewsstandCore

/// The shelf and the issue page: moving, tapping, switching publications and views, refresh results, covers in view.
extension AppUpdate {
    static func publicationsRefreshed(_ outcomes: [PublicationRefresher.Outcome], _ state: inout AppState) -> [Effect] {
        let problems = outcomes.compactMap(\.problem)
        let arrived = outcomes.reduce(0) { $0 + $1.newIssueNames.count }
        if let problem = problems.first {
            state.message = StatusMessage(problems.count == 1 ? problem : "\(problem) (and \(problems.count - 1) more)", isError: true)
        } else if arrived > 0 {
            state.message = StatusMessage("\(arrived) new issue\(arrived == 1 ? "" : "s") arrived.")
        } else if state.isRefreshRequested {
            state.message = StatusMessage("Up to date.")
        }
        state.isRefreshRequested = false
        return [.loadLibrary]
    }

    static func handleShelf(_ command: Command, key: Key, _ state: inout AppState) -> [Effect] {
        let count = state.currentIssues.count
        let layout = ShelfLayout(state: state)
        switch command {
        case .moveDown: return select(state.selectedIssueIndex + layout.columns, &state)
        case .moveUp: return select(state.selectedIssueIndex - layout.columns, &state)
        case .moveRight where layout.columns > 1: return select(state.selectedIssueIndex + 1, &state)
        case .moveLeft where layout.columns > 1: return select(state.selectedIssueIndex - 1, &state)
        case .pageDown: return select(state.selectedIssueIndex + layout.visibleItemCount, &state)
        case .pageUp: return select(state.selectedIssueIndex - layout.visibleItemCount, &state)
        case .top: return select(0, &state)
        case .bottom: return select(count - 1, &state)
        case .tap:
            if case .mouseClick(let x, let y) = key {
                if let line = layout.continueLine, line.contains(x: x, y: y) { return handleShelf(.continueReading, key: key, &state) }
                guard let publication = state.currentPublication,
                      let index = layout.index(atX: x, y: y, scroll: state.shelfScroll[publication.id] ?? 0, count: count) else { return [] }
                state.selectedIssue[publication.id] = index
            }
            return tap(&state)
        case .toggleShelfView:
            state.shelfViewMode = state.shelfViewMode == .list ? .grid : .list
            clampShelf(&state)
            if ShelfLayout(state: state).mode != state.shelfViewMode {
                state.message = StatusMessage("The window is too small for the grid; showing the list.")
            }
            return [.saveSetting(key: AppState.shelfViewSetting, value: state.shelfViewMode.rawValue)] + coverEffects(&state)
        case .showStorage:
            return openStorage(&state)
        case .showSubscriptions:
            state.subscriptionSelection = state.selectedPublication
            state.screens = [.shelf, .subscriptions]
            return []
        case .showDetails:
            guard state.selectedIssueValue != nil else { return [] }
            state.screens = [.shelf, .detail]
            return coverEffects(&state)
        case .cancelDownload:
            guard let issue = state.selectedIssueValue, issue.state == .downloading || issue.state == .paused else {
                state.message = StatusMessage("Nothing is downloading here.")
                return []
            }
            return [.cancelDownload(issueID: issue.id)]
        case .continueReading:
            guard let issueID = state.library.currentlyReadingIssueID, let issue = state.issue(id: issueID), issue.state == .available else {
                state.message = StatusMessage("No issue is being read yet: open one with Enter.")
                return []
            }
            if let index = state.library.publications.firstIndex(where: { $0.id == issue.publicationID }) {
                state.selectedPublication = index
                state.selectedIssue[issue.publicationID] = state.currentIssues.firstIndex { $0.id == issueID } ?? 0
                clampShelf(&state)
            }
            return open(issue, &state)
        case .refresh:
            state.message = StatusMessage("Refreshing catalogs…")
            state.isRefreshRequested = true
            return [.refreshPublications]
        case .nextPublication, .previousPublication:
            let count = state.library.publications.count
            guard count > 1 else { return [] }
            state.selectedPublication = (state.selectedPublication + (command == .nextPublication ? 1 : count - 1)) % count
            clampShelf(&state)
            return coverEffects(&state)
        case .help:
            return openHelp(&state)
        default:
            return []
        }
    }

    static func handleDetail(_ command: Command, _ state: inout AppState) -> [Effect] {
        switch command {
        case .moveDown, .pageDown: _ = select(state.selectedIssueIndex + 1, &state)
        case .moveUp, .pageUp: _ = select(state.selectedIssueIndex - 1, &state)
        case .top: _ = select(0, &state)
        case .bottom: _ = select(state.currentIssues.count - 1, &state)
        case .tap:
            return tap(&state) + coverEffects(&state)
        case .help:
            return openHelp(&state)
        case .back:
            state.screens = [.shelf]
        default:
            break
        }
        return coverEffects(&state)
    }

    static func tap(_ state: inout AppState) -> [Effect] {
        guard let issue = state.selectedIssueValue else { return [] }
        switch issue.state {
        case .notDownloaded where !issue.isDownloadable:
            state.message = StatusMessage("The feed lists “\(issue.title)” without anything to download.")
            return []
        case .notDownloaded, .failed:
            updateIssue(issue.id, &state) { $0.state = .downloading; $0.progress = 0 }
            state.message = StatusMessage("Downloading “\(issue.title)”…")
            return [.startDownload(issueID: issue.id)]
        case .paused:
            updateIssue(issue.id, &state) { $0.state = .downloading }
            state.message = StatusMessage("Resuming “\(issue.title)”…")
            return [.startDownload(issueID: issue.id)]
        case .downloading:
            state.message = StatusMessage("“\(issue.title)” is downloading (x cancels).")
            return []
        case .available:
            return open(issue, &state)
        }
    }

    static func open(_ issue: Issue, _ state: inout AppState) -> [Effect] {
        state.reader = ReaderState(issueID: issue.id)
        state.screens = [.shelf, .contents]
        state.library.currentlyReadingIssueID = issue.id
        state.message = nil
        return [.openIssue(issueID: issue.id)]
    }

    static func select(_ index: Int, _ state: inout AppState) -> [Effect] {
        guard let publication = state.currentPublication else { return [] }
        state.selectedIssue[publication.id] = min(max(0, index), max(0, state.currentIssues.count - 1))
        clampShelf(&state)
        return coverEffects(&state)
    }

    /// Keeps the selection and scroll of the current publication in range and in view.
    static func clampShelf(_ state: inout AppState) {
        if state.selectedPublication >= state.library.publications.count { state.selectedPublication = max(0, state.library.publications.count - 1) }
        guard let publication = state.currentPublication else { return }
        let count = state.currentIssues.count
        let selected = min(max(0, state.selectedIssue[publication.id] ?? 0), max(0, count - 1))
        state.selectedIssue[publication.id] = selected
        let layout = ShelfLayout(state: state)
        state.shelfScroll[publication.id] = layout.scroll(keeping: selected, from: state.shelfScroll[publication.id] ?? 0, count: count)
    }

    /// Asks once for the covers of the rows now in view.
    static func coverEffects(_ state: inout AppState) -> [Effect] {
        let requests = visibleCoverRequests(state).filter { !state.requestedCovers.contains($0) }
        guard !requests.isEmpty else { return [] }
        state.requestedCovers.formUnion(requests)
        return [.requestCovers(requests)]
    }

    /// The cover requests for what is in view: the shelf's visible items, or the issue page's large cover.
    public static func visibleCoverRequests(_ state: AppState) -> [CoverArtRequest] {
        if state.screen == .detail {
            guard let issue = state.selectedIssueValue, issue.coverURL != nil else { return [] }
            let size = DetailScreen.coverSize(width: state.width, height: state.height)
            return [state.coverRequest(issueID: issue.id, columns: size.columns, rows: size.rows)]
        }
        let layout = ShelfLayout(state: state)
        guard layout.coverColumns > 0, let publication = state.currentPublication else { return [] }
        let issues = state.currentIssues
        let first = state.shelfScroll[publication.id] ?? 0
        let last = min(issues.count, first + layout.visibleItemCount)
        guard first < last else { return [] }
        return issues[first..<last].filter { $0.coverURL != nil }.map {
            state.coverRequest(issueID: $0.id, columns: layout.coverColumns, rows: layout.coverRows)
        }
    }
}
