import Foundation
import NewsstandCore

/// The subscriptions screen, what its prompts (add, rename) do, and a publication's headlines.
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
            state.prompt = Prompt(.addSubscription)
        case .removeSubscription:
            guard let publication = state.selectedSubscription else { return [] }
            state.prompt = Prompt(.confirmUnsubscribe(publicationID: publication.id, title: publication.title))
        case .renameSubscription:
            guard let publication = state.selectedSubscription else { return [] }
            state.prompt = Prompt(.rename(publicationID: publication.id), text: publication.title)
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
        case .importOPML:
            state.prompt = Prompt(.importOPML)
        case .exportOPML:
            state.prompt = Prompt(.exportOPML, text: "~/newsstand-subscriptions.opml")
        case .showStorage:
            return openStorage(&state)
        case .browseCatalog:
            guard let publication = state.selectedSubscription else { return [] }
            state.catalog = CatalogBrowser(url: publication.feedURL)
            state.screens.append(.catalog)
            return [.loadFeed(publication.feedURL)]
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

    /// Carries out a subscriptions prompt: subscribe to the typed URL, or rename.
    static func submitSubscriptionPrompt(_ prompt: Prompt, _ state: inout AppState) -> [Effect] {
        let text = prompt.text.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { return [] }
        switch prompt.kind {
        case .addSubscription:
            state.message = StatusMessage("Checking \(text)…")
            return [.subscribe(url: text)]
        case .rename(let publicationID):
            return [.renamePublication(publicationID: publicationID, title: text)]
        case .importOPML:
            state.message = StatusMessage("Importing \(text)…")
            return [.importOPML(path: text)]
        case .exportOPML:
            return [.exportOPML(path: text)]
        default:
            return []
        }
    }

    static func openStorage(_ state: inout AppState) -> [Effect] {
        state.screens.append(.storage)
        return [.measureStorage]
    }

    static func handleStorage(_ command: Command, _ state: inout AppState) -> [Effect] {
        switch command {
        case .enforceStorageBudget:
            guard let report = state.storage, !report.plannedRemovals.isEmpty else {
                state.message = StatusMessage("Nothing to remove: the library is within its limits.")
                return []
            }
            state.message = StatusMessage("Removing \(report.plannedRemovals.count) issue\(report.plannedRemovals.count == 1 ? "" : "s")…")
            return [.enforceStorageLimits]
        case .help: return openHelp(&state)
        case .back: state.screens.removeLast()
        default: break
        }
        return []
    }

    static func subscriptionAdded(_ result: Result<String, ReaderFailure>, _ state: inout AppState) -> [Effect] {
        switch result {
        case .success(let title): state.message = StatusMessage("Subscribed to \(title).")
        case .failure(let failure): state.message = StatusMessage(failure.reason, isError: true)
        }
        return []
    }
}
