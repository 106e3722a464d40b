import Foundation
import NewsstandCore

/// Applies a message to the state and says what work should follow: `update(&state, message) -> [Effect]`.
///
/// Pure: no I/O, no clocks, no threads. Everything slow is an `Effect` carried out elsewhere.
/// Each screen's handling lives in its own extension (`AppUpdate+Shelf`, `+Reader`, `+Downloads`).
public enum AppUpdate {
    public static func update(_ state: inout AppState, _ message: Message) -> [Effect] {
        switch message {
        case .keyPressed(let key):
            return handleKey(key, &state)
        case .resized(let width, let height):
            state.width = max(0, width)
            state.height = max(0, height)
            reflowReader(&state)
            clampShelf(&state)
            return coverEffects(&state) + pictureEffects(&state)
        case .libraryLoaded(let snapshot):
            let previous = state.currentPublication?.id
            state.library = snapshot
            state.hasLoadedLibrary = true
            if let previous, let index = snapshot.publications.firstIndex(where: { $0.id == previous }) {
                state.selectedPublication = index
            }
            clampShelf(&state)
            syncDownloads(with: snapshot, &state)
            return coverEffects(&state)
        case .publicationsRefreshed(let outcomes):
            return publicationsRefreshed(outcomes, &state)
        case .downloadReported(let event):
            return handleDownload(event, &state)
        case .coverReported(let event):
            switch event {
            case .rendered(let request, let art): state.covers[request] = art
            case .failed(let request, _): state.failedCovers.insert(request)
            }
            return []
        case .issueOpened(let issueID, let result, let resumeAt):
            return issueOpened(issueID, result, resumeAt: resumeAt, &state)
        case .articleLoaded(let issueID, let articleIndex, let result):
            return articleLoaded(issueID, articleIndex, result, &state)
        case .subscriptionAdded(let result):
            return subscriptionAdded(result, &state)
        case .feedLoaded(let url, let result):
            return feedLoaded(url, result, &state)
        case .storageMeasured(let report):
            state.storage = report
            return []
        case .reported(let message):
            state.message = message
            return []
        case .pictureRendered(let request, let result):
            return pictureRendered(request, result, &state)
        case .issueSearched(let issueID, let query, let result):
            return issueSearched(issueID, query, result, &state)
        case .pageRendered(let issueID, let articleIndex, let result):
            return pageRendered(issueID, articleIndex, result, &state)
        case .linkOpened(let url, let failure):
            return linkOpened(url, failure: failure, &state)
        case .librarySearched(let query, let result):
            return librarySearched(query, result, &state)
        case .clockTicked:
            return clockTicked(&state)
        }
    }

    static func handleKey(_ key: Key, _ state: inout AppState) -> [Effect] {
        if state.prompt != nil, key != .control("c") { return handlePrompt(key, &state) }
        guard let command = KeyMap.command(for: key, on: state.screen) else { return [] }
        state.message = nil
        if command == .quit {
            state.isRunning = false
            return savePosition(state) + [.quit]
        }
        if command == .searchLibrary {
            state.prompt = Prompt(.searchLibrary)
            return []
        }
        if command == .showDownloads { return openDownloads(&state) }
        switch state.screen {
        case .shelf: return handleShelf(command, key: key, &state)
        case .detail: return handleDetail(command, &state)
        case .contents: return handleContents(command, key: key, &state)
        case .article: return handleArticle(command, &state)
        case .help: return handleHelp(command, &state)
        case .subscriptions: return handleSubscriptions(command, &state)
        case .headlines: return handleHeadlines(command, &state)
        case .storage: return handleStorage(command, &state)
        case .catalog: return handleCatalog(command, &state)
        case .searchResults: return handleSearchResults(command, key: key, &state)
        case .downloads: return handleDownloadsScreen(command, &state)
        }
    }

    static func openHelp(_ state: inout AppState) -> [Effect] {
        state.helpScroll = 0
        state.screens.append(.help)
        return []
    }

    static func handleHelp(_ command: Command, _ state: inout AppState) -> [Effect] {
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

    static func updateIssue(_ id: Int64, _ state: inout AppState, _ change: (inout Issue) -> Void) {
        for (publicationID, issues) in state.library.issues {
            if let index = issues.firstIndex(where: { $0.id == id }) {
                change(&state.library.issues[publicationID]![index])
                return
            }
        }
    }
}
