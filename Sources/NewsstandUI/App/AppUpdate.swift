import Foundation
import NewsstandCore

/// Applies a message to the state and says what work should follow: `update(&state, message) -> [Effect]`.
///
/// Pure: no I/O, no clocks, no threads. Everything slow is an `Effect` carried out elsewhere.
/// What screens share is handled here (the library, downloads, covers, prompts, global keys); everything else goes
/// to the screens on the stack (`AppUpdate+Stack`): a key to the one on top, a message to each. A screen's own
/// handling lives in its folder (`Screens/<Name>/`) and takes its geometry from its layout, never from numbers of its own.
public enum AppUpdate {
    public static func update(_ state: inout AppState, _ message: Message) -> [Effect] {
        if case .issuesReadAhead(let request, let window) = message {
            guard state.library.requestedWindows[request.publicationID] == request else { return [] }
            return update(&state, .issuesLoaded(window, selecting: request.selecting))
        }
        var effects = handle(message, &state)
        switch message {
        case .keyPressed, .resized: break
        default: effects += offer(message, &state)
        }
        guard state.screenReader else { return effects }
        // A screen reader reads covers and pictures drawn as text art as noise: they are never drawn.
        return effects.filter {
            switch $0 {
            case .requestCovers, .requestPictures, .requestWebPictures: false
            default: true
            }
        }
    }

    private static func handle(_ message: Message, _ state: inout AppState) -> [Effect] {
        switch message {
        case .keyPressed(let key):
            return handleKey(key, &state)
        case .resized(let width, let height):
            state.width = max(0, width)
            state.height = max(0, height)
            AppUpdate.keepShelfInView(&state.shared)
            return fitScreens(&state) + shelfEffects(&state)
        case .libraryLoaded(let overview):
            return libraryLoaded(overview, &state)
        case .issuesLoaded(let window, let selecting):
            return issuesLoaded(window, selecting: selecting, &state)
        case .issuesReadAhead:
            return []  // taken as `issuesLoaded` in `update`, or dropped
        case .unfinishedDownloadsLoaded(let issues):
            seedDownloads(from: issues, &state)
            return []
        case .issuesLookedUp(let issues):
            for issue in issues { state.downloads.entries[issue.id]?.title = issue.title }
            return []
        case .headlinesLoaded(_, let result):
            if case .failure(let failure) = result {
                state.message = StatusMessage("Cannot read the headlines: \(failure.reason)", isError: true)
            }
            return []  // the list is the headlines screen's own (`offer`)
        case .titleAcquired(let result):
            return titleAcquired(result, &state)
        case .headlineArticleLoaded:
            return []  // the feed article's own (`offer`)
        case .headlineFullTextLoaded:
            return []  // the feed article's own (`offer`)
        case .wholeArticlesListed:
            return []  // the headlines screen's own (`offer`)
        case .headlineArticleFetched:
            return []  // the feed article's own (`offer`)
        case .publicationsRefreshed(let outcomes):
            return publicationsRefreshed(outcomes, &state)
        case .downloadReported(let event):
            return handleDownload(event, &state)
        case .coverReported(let event):
            switch event {
            case .rendered(let request, let art): state.covers[request] = art
            case .failed(let request, _): state.covers.noteFailed(request)
            }
            return []
        case .issueOpened, .articleLoaded, .articlePictureRendered, .issueSearched, .pageRendered, .marksLoaded, .progressSyncOffered:
            return []  // the reader's own, and a feed article's pictures (`offer`)
        case .subscriptionAdded(let result):
            return subscriptionAdded(result, &state)
        case .subscriptionAccountNeeded(let url, let accounts):
            state.prompt = Prompt(.chooseSubscriptionAccount(url: url, accounts: accounts))
            return []
        case .feedLoaded, .catalogPageLoaded:
            return []  // the catalog screen's own (`offer`)
        case .storageMeasured:
            return []  // the storage screen's own (`offer`)
        case .accountsLoaded:
            return []  // the accounts screen's own (`offer`)
        case .reported(let message):
            state.message = message
            return []
        case .happened(let report):
            state.message = report.statusMessage
            return []
        case .streamedPageFetched, .streamedPageSkipped:
            return []  // the streamed pages screen's own (`offer`)
        case .linkOpened(let url, let failure):
            return linkOpened(url, failure: failure, &state)
        case .librarySearched:
            return []  // the search results screen's own (`offer`)
        case .clockTicked:
            return clockTicked(&state)
        case .loginRequired(let host, let realm, let retry):
            return loginRequired(LoginRequest(host: host, realm: realm, retries: [retry]), &state)
        }
    }

    static func handleKey(_ key: Key, _ state: inout AppState) -> [Effect] {
        if state.prompt != nil, key != .control("c") {
            let effects = handlePrompt(key, &state)
            askNextLogin(&state)
            return effects
        }
        guard let command = state.keys.command(for: key, on: state.screen) else { return [] }
        state.message = nil
        if command == .quit {
            state.isRunning = false
            return state.screens.flatMap { $0.model.savePosition() } + [.quit]
        }
        if command == .searchLibrary {
            state.prompt = Prompt(.searchLibrary)
            return []
        }
        if command == .showDownloads { return openDownloads(&state) }
        if command == .help { return openHelp(&state) }
        return handleOnTop(command, key: key, &state)
    }

    /// The help, at the keys of the screen it is opened from.
    static func openHelp(_ state: inout AppState) -> [Effect] {
        guard state.screen != .help else { return [] }
        return apply(.push(.help(HelpScreen(openedFrom: state.screen, keys: state.keys, width: state.body.width))), &state)
    }
}
