import Foundation
import NewsstandContent
import NewsstandCore

/// The library's windows and the covers in view, for the shelf and the issue page (whose keys are theirs:
/// `ShelfScreen`, `DetailScreen`): what refreshes and library reads bring, and moving between shelves.
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
        return [.loadLibrary]  // (a headlines screen reads its list again: `HeadlinesScreen.receive`)
    }

    // MARK: The library's windows

    /// A new look at the library: publications and counts are replaced, and the shelves in view are read
    /// again around their selected issues (so a selection follows its issue when others arrive).
    static func libraryLoaded(_ overview: LibraryOverview, _ state: inout AppState) -> [Effect] {
        let previous = state.currentPublication?.id
        state.library.publications = overview.publications
        state.library.counts = overview.counts
        state.library.readingIssue = overview.readingIssue
        state.library.readingPosition = overview.readingPosition
        state.library.hasLoaded = true
        if let previous, let index = overview.publications.firstIndex(where: { $0.id == previous }) {
            state.shelf.selectedPublication = index
        }
        state.shelf.selectedPublication = min(state.shelf.selectedPublication, max(0, overview.publications.count - 1))
        let known = Set(overview.publications.map(\.id))
        state.library.windows = state.library.windows.filter { known.contains($0.key) }
        state.library.requestedWindows = [:]
        var effects: [Effect] = []
        for publicationID in shelvesInView(state.shared) {
            guard state.library.windows[publicationID] != nil else { continue }
            let request = rereadRequest(publicationID, state.shared)
            state.library.requestedWindows[publicationID] = request
            effects.append(.loadIssues(request))
        }
        keepShelfInView(&state.shared)
        return effects + shelfEffects(&state) + [.loadUnfinishedDownloads]
    }

    /// The window the shown shelf will ask for when `overview` arrives in `state`, worked out by the same update on a
    /// copy: at start the runner reads it at once after the overview and sends it as `Message.issuesReadAhead`,
    /// instead of waiting for the request to come back from the interface.
    public static func shownShelfRequest(after overview: LibraryOverview, in state: AppState) -> IssueWindowRequest? {
        var state = state
        let effects = update(&state, .libraryLoaded(overview))
        guard let shown = state.currentPublication?.id else { return nil }
        for case .loadIssues(let request) in effects where request.publicationID == shown { return request }
        return nil
    }

    /// Reads a shelf's window again around its selected issue.
    static func rereadRequest(_ publicationID: Int64, _ state: SharedState) -> IssueWindowRequest {
        let page = state.shelfLayout.page
        let count = page.itemCount + 2 * windowMargin(page)
        if let selected = state.shelf.selectedIssueIDs[publicationID] {
            let cursor = state.shelf.cursors[publicationID] ?? ListCursor()
            return IssueWindowRequest(publicationID: publicationID, anchor: .issue(selected, before: max(0, cursor.selection - cursor.offset) + windowMargin(page)),
                                      count: count, selecting: selected, view: state.library.view)
        }
        return IssueWindowRequest(publicationID: publicationID, anchor: .first, count: count, view: state.library.view)
    }

    static func issuesLoaded(_ window: IssueWindow, selecting: Int64?, _ state: inout AppState) -> [Effect] {
        let publicationID = window.publicationID
        guard window.view == state.library.view else { return [] }  // read for a view left since
        state.library.requestedWindows[publicationID] = nil
        guard state.library.publications.contains(where: { $0.id == publicationID }) else { return [] }
        state.library.windows[publicationID] = window
        if window.view.filter == .all {
            state.library.counts[publicationID, default: IssueCounts()].total = window.total
        } else {
            state.library.viewCounts[publicationID] = window.total
        }
        var cursor = state.shelf.cursors[publicationID] ?? ListCursor()
        if let selecting {
            if let index = window.index(ofIssue: selecting) {
                let shift = index - cursor.selection
                cursor.selection = index
                cursor.offset += shift
            } else if !window.issues.isEmpty {
                // The issue is gone: stay where the window is.
                state.shelf.selectedIssueIDs[publicationID] = nil
                cursor.selection = min(max(cursor.selection, window.start), window.range.upperBound - 1)
            }
        }
        let page = state.shelfLayout.page
        cursor.keepVisible(count: window.total, page: page)
        state.shelf.cursors[publicationID] = cursor
        if let issue = window.issue(at: cursor.selection) { state.shelf.selectedIssueIDs[publicationID] = issue.id }
        pruneCovers(&state.shared)
        return shelfEffects(&state)
    }

    /// The shelves whose windows are kept: the one shown and its neighbours (what Tab and Shift-Tab reach).
    static func shelvesInView(_ state: SharedState) -> [Int64] {
        let publications = state.library.publications
        guard !publications.isEmpty else { return [] }
        let current = state.shelf.selectedPublication
        var ids: [Int64] = [publications[current].id]
        for index in [current + 1, current - 1 + publications.count] where publications.count > 1 {
            let id = publications[index % publications.count].id
            if !ids.contains(id) { ids.append(id) }
        }
        return ids
    }

    /// Issues read beyond the page on each side, so that moving rarely waits for the library.
    static func windowMargin(_ page: ListPage) -> Int { max(16, page.itemCount) }

    /// Asks for the windows the shelves in view need: the shown shelf's visible issues (with a margin,
    /// read again as the cursor nears its edge) and its neighbours' first page; forgets other windows.
    static func windowEffects(_ state: inout SharedState) -> [Effect] {
        let inView = shelvesInView(state)
        let dropped = state.library.windows.keys.filter { !inView.contains($0) }
        for id in dropped { state.library.windows[id] = nil }
        if !dropped.isEmpty { pruneCovers(&state) }
        let page = state.shelfLayout.page
        let margin = windowMargin(page)
        var effects: [Effect] = []
        for (position, publicationID) in inView.enumerated() {
            let total = state.library.issueCount(publicationID)
            let window = state.library.windows[publicationID]
            let cursor = state.shelf.cursors[publicationID] ?? ListCursor()
            let visible = cursor.offset..<(cursor.offset + page.itemCount)
            if let window {
                // A neighbour keeps what it has; the shown shelf reads on before the cursor reaches the window's edge.
                guard position == 0 else { continue }
                let needed = (visible.lowerBound - margin / 2)..<(visible.upperBound + margin / 2)
                if window.covers(needed) { continue }
            } else if total == 0, state.library.hasLoaded, state.library.knowsIssueCount(publicationID) {
                continue
            }
            guard state.library.requestedWindows[publicationID] == nil else { continue }
            let wanted = max(0, visible.lowerBound - margin)..<(visible.upperBound + margin)
            let request: IssueWindowRequest
            if window == nil, let selected = state.shelf.selectedIssueIDs[publicationID] {
                request = IssueWindowRequest(publicationID: publicationID, anchor: .issue(selected, before: cursor.selection - wanted.lowerBound),
                                             count: wanted.count, selecting: selected, view: state.library.view)
            } else if !state.library.knowsIssueCount(publicationID) {
                request = IssueWindowRequest(publicationID: publicationID, anchor: .first, count: wanted.count, view: state.library.view)
            } else {
                request = .reading(wanted, publicationID: publicationID, total: total, window: window,
                                   selectedIssueID: state.shelf.selectedIssueIDs[publicationID], view: state.library.view)
            }
            state.library.requestedWindows[publicationID] = request
            effects.append(.loadIssues(request))
        }
        return effects
    }

    /// Forgets covers of issues no window holds (they are asked for again if they come back into view).
    static func pruneCovers(_ state: inout SharedState) {
        var kept = Set(state.library.windows.values.flatMap { $0.issues.map(\.id) })
        if let reading = state.library.readingIssue { kept.insert(reading.id) }
        state.covers.keep { kept.contains($0.issueID) }
    }

    /// What the shelf needs after any change: windows, then covers of what is in view (with `showing` on top).
    static func shelfEffects(_ state: inout SharedState, showing: ScreenKind) -> [Effect] {
        windowEffects(&state) + coverEffects(&state, showing: showing)
    }

    /// What the shelf needs after any change, with the stack's top screen shown.
    static func shelfEffects(_ state: inout AppState) -> [Effect] {
        shelfEffects(&state.shared, showing: state.screen)
    }

    /// Shows publication `index`'s shelf.
    static func selectPublication(_ index: Int, _ state: inout SharedState, showing: ScreenKind) -> [Effect] {
        state.shelf.selectedPublication = min(max(0, index), max(0, state.library.publications.count - 1))
        keepShelfInView(&state)
        return shelfEffects(&state, showing: showing)
    }

    /// Shows an issue's shelf with the issue selected (read by key if its shelf's window does not hold it).
    static func showOnShelf(_ issue: Issue, _ state: inout SharedState, showing: ScreenKind) -> [Effect] {
        guard let index = state.library.publications.firstIndex(where: { $0.id == issue.publicationID }) else { return [] }
        if !state.library.view.filter.includes(issue) {
            // The filter hides it: show every issue, in the same order.
            _ = changeView(ShelfView(sort: state.library.view.sort), &state, showing: showing)
        }
        state.shelf.selectedPublication = index
        state.shelf.selectedIssueIDs[issue.publicationID] = issue.id
        if let position = state.currentWindow?.index(ofIssue: issue.id) {
            var cursor = state.shelfCursor
            cursor.select(position, count: state.currentIssueCount, page: state.shelfLayout.page)
            state.shelfCursor = cursor
            return shelfEffects(&state, showing: showing)
        }
        let page = state.shelfLayout.page
        let request = IssueWindowRequest(publicationID: issue.publicationID, anchor: .issue(issue.id, before: windowMargin(page)),
                                         count: page.itemCount + 2 * windowMargin(page), selecting: issue.id, view: state.library.view)
        state.library.requestedWindows[issue.publicationID] = request
        return [.loadIssues(request)] + shelfEffects(&state, showing: showing)
    }

    /// Notes which issue the shown shelf's cursor is on, when its window holds it.
    static func rememberSelection(_ state: inout SharedState) {
        guard let publication = state.currentPublication, let issue = state.selectedIssueValue else { return }
        state.shelf.selectedIssueIDs[publication.id] = issue.id
    }

    /// Keeps the shown shelf's cursor in range and in view.
    static func keepShelfInView(_ state: inout SharedState) {
        guard state.currentPublication != nil else { return }
        var cursor = state.shelfCursor
        cursor.keepVisible(count: state.currentIssueCount, page: state.shelfLayout.page)
        state.shelfCursor = cursor
    }

    /// Asks once for the covers of the rows now in view (with `showing` on top).
    static func coverEffects(_ state: inout SharedState, showing: ScreenKind) -> [Effect] {
        let requests = state.covers.ask(for: visibleCoverRequests(state, showing: showing))
        guard !requests.isEmpty else { return [] }
        return [.requestCovers(requests)]
    }

    /// The cover requests for what is in view: the shelf's visible items, or the issue page's large cover.
    public static func visibleCoverRequests(_ state: SharedState, showing: ScreenKind) -> [CoverArtRequest] {
        if showing == .detail {
            guard let issue = state.selectedIssueValue, issue.mayHaveCover else { return [] }
            let size = DetailScreen.coverSize(width: state.width, height: state.height)
            return [state.coverRequest(issueID: issue.id, columns: size.columns, rows: size.rows)]
        }
        let layout = state.shelfLayout
        guard showing == .shelf, layout.coverColumns > 0, let window = state.currentWindow else { return [] }
        return state.shelfCursor.visibleRange(count: state.currentIssueCount, page: layout.page).compactMap { index in
            guard let issue = window.issue(at: index), issue.mayHaveCover else { return nil }
            return state.coverRequest(issueID: issue.id, columns: layout.coverColumns, rows: layout.coverRows)
        }
    }
}
