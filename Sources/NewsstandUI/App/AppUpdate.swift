import Foundation
import NewsstandCore

/// Applies a message to the state and says what work should follow: `update(&state, message) -> [Effect]`.
///
/// Pure: no I/O, no clocks, no threads. Everything slow is an `Effect` carried out elsewhere.
public enum AppUpdate {
    public static func update(_ state: inout AppState, _ message: Message) -> [Effect] {
        switch message {
        case .keyPressed(let key):
            return handleKey(key, &state)
        case .resized(let width, let height):
            state.width = max(0, width)
            state.height = max(0, height)
            if var reader = state.reader, let blocks = reader.blocks {
                let block = reader.layout?.blockIndex(atLine: reader.topLine) ?? 0
                let layout = ArticleLayout(blocks: blocks, width: state.width)
                reader.layout = layout
                reader.topLine = clampTop(layout.line(forBlock: block), layout: layout, state: state)
                state.reader = reader
            }
            clampShelf(&state)
            return coverEffects(&state)
        case .libraryLoaded(let snapshot):
            let previous = state.currentPublication?.id
            state.library = snapshot
            state.hasLoadedLibrary = true
            if let previous, let index = snapshot.publications.firstIndex(where: { $0.id == previous }) {
                state.selectedPublication = index
            }
            clampShelf(&state)
            return coverEffects(&state)
        case .publicationsRefreshed(let outcomes):
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
        case .downloadReported(let event):
            return handleDownload(event, &state)
        case .coverReported(let event):
            switch event {
            case .rendered(let request, let art): state.covers[request] = art
            case .failed(let request, _): state.failedCovers.insert(request)
            }
            return []
        case .issueOpened(let issueID, let result, let resumeAt):
            guard var reader = state.reader, reader.issueID == issueID else { return [] }
            switch result {
            case .success(let book):
                reader.book = book
                if let resumeAt, book.articles.indices.contains(resumeAt.articleIndex) {
                    reader.articleIndex = resumeAt.articleIndex
                    reader.contentsSelection = resumeAt.articleIndex
                    reader.pendingBlockIndex = resumeAt.blockIndex
                    state.reader = reader
                    state.screens = [.shelf, .contents, .article]
                    return [.loadArticle(issueID: issueID, articleIndex: resumeAt.articleIndex)]
                }
            case .failure(let failure):
                reader.failure = failure.reason
                state.message = StatusMessage("Cannot open the issue: \(failure.reason)", isError: true)
            }
            state.reader = reader
            return []
        case .articleLoaded(let issueID, let articleIndex, let result):
            guard var reader = state.reader, reader.issueID == issueID, reader.articleIndex == articleIndex else { return [] }
            switch result {
            case .success(let blocks):
                let layout = ArticleLayout(blocks: blocks, width: state.width)
                reader.blocks = blocks
                reader.layout = layout
                reader.failure = nil
                reader.topLine = clampTop(reader.pendingBlockIndex.map { layout.line(forBlock: $0) } ?? 0, layout: layout, state: state)
                reader.pendingBlockIndex = nil
                state.reader = reader
                return [.saveReadingPosition(issueID: issueID, reader.position)]
            case .failure(let failure):
                reader.blocks = [.paragraph("This article cannot be shown: \(failure.reason)")]
                reader.layout = ArticleLayout(blocks: reader.blocks!, width: state.width)
                reader.topLine = 0
                state.reader = reader
                return []
            }
        }
    }

    // MARK: Keys

    private static func handleKey(_ key: Key, _ state: inout AppState) -> [Effect] {
        guard let command = KeyMap.command(for: key, on: state.screen) else { return [] }
        state.message = nil
        if command == .quit {
            state.isRunning = false
            return savePosition(state) + [.quit]
        }
        switch state.screen {
        case .shelf: return handleShelf(command, key: key, &state)
        case .detail: return handleDetail(command, &state)
        case .contents: return handleContents(command, key: key, &state)
        case .article: return handleArticle(command, &state)
        case .help: return handleHelp(command, &state)
        }
    }

    private static func handleShelf(_ command: Command, key: Key, _ state: inout AppState) -> [Effect] {
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

    private static func openHelp(_ state: inout AppState) -> [Effect] {
        state.helpScroll = 0
        state.screens.append(.help)
        return []
    }

    private static func handleDetail(_ command: Command, _ state: inout AppState) -> [Effect] {
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

    private static func tap(_ state: inout AppState) -> [Effect] {
        guard let issue = state.selectedIssueValue else { return [] }
        switch issue.state {
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

    private static func open(_ issue: Issue, _ state: inout AppState) -> [Effect] {
        state.reader = ReaderState(issueID: issue.id)
        state.screens = [.shelf, .contents]
        state.library.currentlyReadingIssueID = issue.id
        state.message = nil
        return [.openIssue(issueID: issue.id)]
    }

    private static func handleContents(_ command: Command, key: Key, _ state: inout AppState) -> [Effect] {
        guard var reader = state.reader else { state.screens = [.shelf]; return [] }
        let count = reader.book?.articles.count ?? 0
        let visible = max(1, state.height - 4)
        switch command {
        case .moveDown: reader.contentsSelection += 1
        case .moveUp: reader.contentsSelection -= 1
        case .pageDown: reader.contentsSelection += visible
        case .pageUp: reader.contentsSelection -= visible
        case .top: reader.contentsSelection = 0
        case .bottom: reader.contentsSelection = count - 1
        case .tap:
            if case .mouseClick(_, let y) = key {
                let first = ContentsScreen.firstVisible(selection: reader.contentsSelection, visible: visible)
                let index = first + (y - ContentsScreen.listTop)
                guard y >= ContentsScreen.listTop, index < count else { return [] }
                reader.contentsSelection = index
            }
            guard count > 0 else { return [] }
            reader.articleIndex = min(max(0, reader.contentsSelection), count - 1)
            reader.blocks = nil
            reader.layout = nil
            reader.topLine = 0
            state.reader = reader
            state.screens = [.shelf, .contents, .article]
            return [.loadArticle(issueID: reader.issueID, articleIndex: reader.articleIndex)]
        case .help:
            return openHelp(&state)
        case .back:
            state.screens = [.shelf]
            return []
        default:
            break
        }
        reader.contentsSelection = min(max(0, reader.contentsSelection), max(0, count - 1))
        state.reader = reader
        return []
    }

    private static func handleArticle(_ command: Command, _ state: inout AppState) -> [Effect] {
        guard var reader = state.reader else { state.screens = [.shelf]; return [] }
        let page = max(1, state.height - 3)
        let count = reader.book?.articles.count ?? 0
        switch command {
        case .moveDown: reader.topLine += 1
        case .moveUp: reader.topLine -= 1
        case .pageDown: reader.topLine += page
        case .pageUp: reader.topLine -= page
        case .top: reader.topLine = 0
        case .bottom: reader.topLine = Int.max / 2
        case .nextArticle, .previousArticle:
            let next = reader.articleIndex + (command == .nextArticle ? 1 : -1)
            guard next >= 0 && next < count else {
                state.message = StatusMessage(command == .nextArticle ? "This is the last article." : "This is the first article.")
                return []
            }
            reader.articleIndex = next
            reader.contentsSelection = next
            reader.blocks = nil
            reader.layout = nil
            reader.topLine = 0
            state.reader = reader
            return [.loadArticle(issueID: reader.issueID, articleIndex: next)]
        case .tableOfContents, .back:
            reader.contentsSelection = reader.articleIndex
            state.reader = reader
            state.screens = [.shelf, .contents]
            return savePosition(state)
        case .help:
            return openHelp(&state)
        default:
            return []
        }
        if let layout = reader.layout { reader.topLine = clampTop(reader.topLine, layout: layout, state: state) } else { reader.topLine = 0 }
        let before = state.reader?.position
        state.reader = reader
        return before == reader.position ? [] : savePosition(state)
    }

    private static func handleHelp(_ command: Command, _ state: inout AppState) -> [Effect] {
        switch command {
        case .moveDown: state.helpScroll += 1
        case .moveUp: state.helpScroll = max(0, state.helpScroll - 1)
        case .pageDown: state.helpScroll += max(1, state.height - 3)
        case .pageUp: state.helpScroll = max(0, state.helpScroll - max(1, state.height - 3))
        case .top: state.helpScroll = 0
        case .back: state.screens.removeLast()
        default: break
        }
        state.helpScroll = min(state.helpScroll, max(0, HelpScreen.lineCount - max(1, state.height - 2)))
        return []
    }

    // MARK: Downloads

    private static func handleDownload(_ event: DownloadEvent, _ state: inout AppState) -> [Effect] {
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
        }
        return []
    }

    // MARK: Helpers

    private static func updateIssue(_ id: Int64, _ state: inout AppState, _ change: (inout Issue) -> Void) {
        for (publicationID, issues) in state.library.issues {
            if let index = issues.firstIndex(where: { $0.id == id }) {
                change(&state.library.issues[publicationID]![index])
                return
            }
        }
    }

    private static func select(_ index: Int, _ state: inout AppState) -> [Effect] {
        guard let publication = state.currentPublication else { return [] }
        state.selectedIssue[publication.id] = min(max(0, index), max(0, state.currentIssues.count - 1))
        clampShelf(&state)
        return coverEffects(&state)
    }

    /// Keeps the selection and scroll of the current publication in range and in view.
    private static func clampShelf(_ state: inout AppState) {
        if state.selectedPublication >= state.library.publications.count { state.selectedPublication = max(0, state.library.publications.count - 1) }
        guard let publication = state.currentPublication else { return }
        let count = state.currentIssues.count
        let selected = min(max(0, state.selectedIssue[publication.id] ?? 0), max(0, count - 1))
        state.selectedIssue[publication.id] = selected
        let layout = ShelfLayout(state: state)
        state.shelfScroll[publication.id] = layout.scroll(keeping: selected, from: state.shelfScroll[publication.id] ?? 0, count: count)
    }

    private static func clampTop(_ line: Int, layout: ArticleLayout, state: AppState) -> Int {
        let visible = max(1, state.height - 2)
        return min(max(0, line), max(0, layout.lines.count - visible))
    }

    private static func savePosition(_ state: AppState) -> [Effect] {
        guard let reader = state.reader, reader.layout != nil else { return [] }
        return [.saveReadingPosition(issueID: reader.issueID, reader.position)]
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
            return [CoverArtRequest(issueID: issue.id, columns: size.columns, rows: size.rows, background: state.isLightBackground ? .light : .dark)]
        }
        let layout = ShelfLayout(state: state)
        guard layout.coverColumns > 0, let publication = state.currentPublication else { return [] }
        let issues = state.currentIssues
        let first = state.shelfScroll[publication.id] ?? 0
        let last = min(issues.count, first + layout.visibleItemCount)
        guard first < last else { return [] }
        return issues[first..<last].filter { $0.coverURL != nil }.map {
            CoverArtRequest(issueID: $0.id, columns: layout.coverColumns, rows: layout.coverRows, background: state.isLightBackground ? .light : .dark)
        }
    }
}
