import Foundation
import NewsstandCore

/// The subscriptions screen, its prompts (add, rename, unsubscribe) and a publication's headlines.
extension AppUpdate {
    static func handleSubscriptions(_ command: Command, _ state: inout AppState) -> [Effect] {
        let count = state.library.publications.count
        switch command {
        case .moveDown: state.subscriptionSelection += 1
        case .moveUp: state.subscriptionSelection -= 1
        case .top: state.subscriptionSelection = 0
        case .bottom: state.subscriptionSelection = count - 1
        case .tap:
            guard state.selectedSubscription != nil else { return [] }
            state.selectedPublication = min(max(0, state.subscriptionSelection), count - 1)
            state.screens = [.shelf]
            clampShelf(&state)
            return coverEffects(&state)
        case .addSubscription:
            state.prompt = Prompt(kind: .addSubscription, label: "Feed URL: ")
        case .removeSubscription:
            guard let publication = state.selectedSubscription else { return [] }
            state.prompt = Prompt(kind: .confirmUnsubscribe(publicationID: publication.id),
                                  label: "Unsubscribe from \(publication.title) — keep its downloaded issues? y keep · n remove them · Esc cancel")
        case .renameSubscription:
            guard let publication = state.selectedSubscription else { return [] }
            state.prompt = Prompt(kind: .rename(publicationID: publication.id), label: "New title: ", text: publication.title)
        case .refreshSelected:
            guard let publication = state.selectedSubscription else { return [] }
            state.message = StatusMessage("Refreshing \(publication.title)…")
            state.isRefreshRequested = true
            return [.refreshPublication(publicationID: publication.id)]
        case .refresh:
            state.message = StatusMessage("Refreshing catalogs…")
            state.isRefreshRequested = true
            return [.refreshPublications]
        case .cycleAutoDownload:
            guard let publication = state.selectedSubscription else { return [] }
            let all = AutoDownloadPolicy.allCases
            let next = all[(all.firstIndex(of: publication.autoDownload)! + 1) % all.count]
            state.message = StatusMessage("\(publication.title): auto-download \(next.rawValue).")
            return [.setPolicy(publicationID: publication.id, autoDownload: next, keepNewest: publication.keepNewest)]
        case .keepMore, .keepFewer:
            guard let publication = state.selectedSubscription else { return [] }
            let keep: Int? = switch (command, publication.keepNewest) {
            case (.keepMore, nil): nil
            case (.keepMore, let value?): value + 1
            case (_, nil): 10
            case (_, let value?): max(1, value - 1)
            }
            state.message = StatusMessage("\(publication.title): " + (keep.map { "keep the newest \($0) downloaded" } ?? "keep every downloaded issue") + ".")
            return [.setPolicy(publicationID: publication.id, autoDownload: publication.autoDownload, keepNewest: keep)]
        case .showHeadlines:
            guard state.selectedSubscription != nil else { return [] }
            state.headlinesScroll = 0
            state.screens.append(.headlines)
        case .help:
            return openHelp(&state)
        case .back:
            state.screens = [.shelf]
        default:
            break
        }
        state.subscriptionSelection = min(max(0, state.subscriptionSelection), max(0, count - 1))
        return []
    }

    static func handleHeadlines(_ command: Command, _ state: inout AppState) -> [Effect] {
        let count = state.selectedSubscription.flatMap { state.library.headlines[$0.id] }?.count ?? 0
        switch command {
        case .moveDown: state.headlinesScroll += 1
        case .moveUp: state.headlinesScroll -= 1
        case .pageDown: state.headlinesScroll += max(1, (state.height - 3) / 3)
        case .pageUp: state.headlinesScroll -= max(1, (state.height - 3) / 3)
        case .top: state.headlinesScroll = 0
        case .back: state.screens.removeLast()
        default: break
        }
        state.headlinesScroll = min(max(0, state.headlinesScroll), max(0, count - 1))
        return []
    }

    /// Keys while a prompt is open go to it.
    static func handlePrompt(_ key: Key, _ state: inout AppState) -> [Effect] {
        guard var prompt = state.prompt else { return [] }
        if case .confirmUnsubscribe(let publicationID) = prompt.kind {
            state.prompt = nil
            switch key {
            case .character("y"), .character("Y"): return [.unsubscribe(publicationID: publicationID, keepDownloads: true)]
            case .character("n"), .character("N"): return [.unsubscribe(publicationID: publicationID, keepDownloads: false)]
            default:
                state.message = StatusMessage("Nothing was changed.")
                return []
            }
        }
        switch prompt.field.apply(key) {
        case .cancelled:
            state.prompt = nil
            return []
        case .edited, .ignored:
            state.prompt = prompt
            return []
        case .submitted:
            state.prompt = nil
            let text = prompt.field.text.trimmingCharacters(in: .whitespaces)
            guard !text.isEmpty else { return [] }
            switch prompt.kind {
            case .addSubscription:
                state.message = StatusMessage("Checking \(text)…")
                return [.subscribe(url: text)]
            case .rename(let publicationID):
                return [.renamePublication(publicationID: publicationID, title: text)]
            case .confirmUnsubscribe:
                return []
            }
        }
    }

    static func subscriptionAdded(_ result: Result<String, ReaderFailure>, _ state: inout AppState) -> [Effect] {
        switch result {
        case .success(let title): state.message = StatusMessage("Subscribed to \(title).")
        case .failure(let failure): state.message = StatusMessage(failure.reason, isError: true)
        }
        return []
    }
}
