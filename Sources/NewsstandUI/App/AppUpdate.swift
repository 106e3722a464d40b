import Foundation
import NewsstandCore

/// Applies a message to the state and says what work should follow: `update(&state, message) -> [Effect]`.
///
/// Pure: no I/O, no clocks, no threads. Everything slow is an `Effect` carried out elsewhere.
/// Each screen's handling lives in its own extension (`AppUpdate+Shelf`, `+Reader`, `+Downloads`…), and
/// takes its geometry from the screen's layout, never from numbers of its own.
public enum AppUpdate {
    public static func update(_ state: inout AppState, _ message: Message) -> [Effect] {
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
            reflowReader(&state)
            keepListsInView(&state)
            return fitScreens(&state) + shelfEffects(&state) + pictureEffects(&state) + pagePictureEffects(&state)
        case .libraryLoaded(let overview):
            return libraryLoaded(overview, &state)
        case .issuesLoaded(let window, let selecting):
            return issuesLoaded(window, selecting: selecting, &state)
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
        case .issueOpened(let issueID, let result, let resumeAt):
            return issueOpened(issueID, result, resumeAt: resumeAt, &state)
        case .articleLoaded(let issueID, let articleIndex, let result):
            return articleLoaded(issueID, articleIndex, result, &state)
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
        case .articlePictureRendered(let request, let result):
            return pictureRendered(request, result, &state)
        case .issueSearched(let issueID, let query, let result):
            return issueSearched(issueID, query, result, &state)
        case .pageRendered(let issueID, let articleIndex, let result):
            return pageRendered(issueID, articleIndex, result, &state)
        case .linkOpened(let url, let failure):
            return linkOpened(url, failure: failure, &state)
        case .librarySearched:
            return []  // the search results screen's own (`offer`)
        case .clockTicked:
            return clockTicked(&state)
        case .loginRequired(let host, let realm, let retry):
            return loginRequired(LoginRequest(host: host, realm: realm, retries: [retry]), &state)
        case .marksLoaded(let issueID, let result):
            return marksLoaded(issueID, result, &state)
        case .progressSyncOffered(let offer):
            return progressSyncOffered(offer, &state)
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
            return savePosition(state) + [.quit]
        }
        if command == .searchLibrary {
            state.prompt = Prompt(.searchLibrary)
            return []
        }
        if command == .showDownloads { return openDownloads(&state) }
        if command == .help { return openHelp(&state) }
        if let effects = handleOnTop(command, key: key, &state) { return effects }
        switch state.screens.last ?? .shelf {
        case .reader(let reader) where reader.selection != nil && reader.isShowingArticle: return handleSelection(command, &state)
        case .reader(let reader):
            return reader.isShowingArticle ? handleArticle(command, &state) : handleContents(command, key: key, &state)
        case .marks(let list): return handleMarksList(command, key: key, list, &state)
        case .shelf, .detail, .feedArticle, .help, .storage, .subscriptions, .accounts, .downloads, .headlines, .searchResults, .acquisitions, .catalog, .streamedPages:
            return []  // on the protocol: handled above
        }
    }

    /// Pops the screen on top (the shelf stays).
    static func goBack(_ state: inout AppState) -> [Effect] {
        // Leaving an issue sends its place to the progress sync server (when it is on).
        var closed: [Effect] = []
        if state.screens.count > 1, case .reader(let reader) = state.screens[state.screens.count - 1] {
            closed = [.pushProgress(issueID: reader.issueID)]
        }
        if state.screens.count > 1 { state.screens.removeLast() }
        return closed + shelfEffects(&state)
    }

    static func openHelp(_ state: inout AppState) -> [Effect] {
        state.screen == .help ? [] : apply(.push(.help(HelpScreen())), &state)
    }

    /// Keeps every list's cursor in range and in view after the window's size changed.
    static func keepListsInView(_ state: inout AppState) {
        let body = state.body
        for index in state.screens.indices {
            switch state.screens[index] {
            case .reader(var reader):
                reader.contentsCursor.keepVisible(count: reader.contents.count, page: ContentsScreen.layout(in: body).page)
                state.screens[index] = .reader(reader)
            case .marks(var list):
                list.cursor.keepVisible(count: list.count(in: state), page: MarksScreen.layout(in: body, list).page)
                state.screens[index] = .marks(list)
            default:
                break
            }
        }
        keepShelfInView(&state.shared)
    }
}
