import Foundation
import NewsstandCore

/// The subscriptions screen, what its prompts (add, rename) do, and a publication's headlines.
extension AppUpdate {
    static func handleSubscriptions(_ command: Command, _ cursor: inout ListCursor, _ state: inout AppState) -> [Effect] {
        let publications = state.library.publications
        let count = publications.count
        if cursor.apply(command, count: count, page: SubscriptionsScreen.layout(in: state.body).page) { return [] }
        let selected = publications.indices.contains(cursor.selection) ? publications[cursor.selection] : nil
        switch command {
        case .tap:
            guard selected != nil else { return [] }
            state.screens = [.shelf]
            return selectPublication(cursor.selection, &state)
        case .addSubscription:
            state.prompt = Prompt(.addSubscription)
        case .removeSubscription:
            guard let publication = selected else { return [] }
            state.prompt = Prompt(.confirmUnsubscribe(publicationID: publication.id, title: publication.title))
        case .renameSubscription:
            guard let publication = selected else { return [] }
            state.prompt = Prompt(.rename(publicationID: publication.id), text: publication.title)
        case .refreshSelected:
            guard let publication = selected else { return [] }
            state.message = StatusMessage("Refreshing \(publication.title)…")
            state.isRefreshRequested = true
            return [.refreshPublication(publicationID: publication.id)]
        case .refresh:
            state.message = StatusMessage("Refreshing catalogs…")
            state.isRefreshRequested = true
            return [.refreshPublications]
        case .cycleAutoDownload:
            guard let publication = selected else { return [] }
            let all = AutoDownloadPolicy.allCases
            let next = all[(all.firstIndex(of: publication.autoDownload)! + 1) % all.count]
            state.message = StatusMessage("\(publication.title): auto-download \(next.rawValue).")
            return [.setPolicy(publicationID: publication.id, autoDownload: next, keepNewest: publication.keepNewest)]
        case .cycleFullText:
            guard let publication = selected else { return [] }
            return cycleFullText(publication, &state)
        case .keepMore, .keepFewer:
            guard let publication = selected else { return [] }
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
        case .showAccounts:
            state.screens.append(.accounts(AccountsState()))
            return [.loadAccounts]
        case .browseCatalog:
            guard let publication = selected else { return [] }
            state.screens.append(.catalog(CatalogBrowser(url: publication.feedURL)))
            return [.loadFeed(publication.feedURL)]
        case .chooseCatalogFeed:
            guard let publication = selected else { return [] }
            let root = publication.catalogRoot ?? publication.feedURL
            state.screens.append(.catalog(CatalogBrowser(url: root, publicationID: publication.id)))
            state.message = StatusMessage("Choose a feed of \(publication.title)'s catalog, then u to read it.")
            return [.loadFeed(root)]
        case .showHeadlines:
            guard let publication = selected else { return [] }
            state.screens.append(.headlines(HeadlinesState(publicationID: publication.id, title: publication.title)))
            return [.loadHeadlines(publicationID: publication.id)]
        case .back:
            state.screens = [.shelf]
            return shelfEffects(&state)
        default:
            break
        }
        return []
    }

    static func headlinesLoaded(_ publicationID: Int64, _ result: Result<[Headline], ReaderFailure>, _ state: inout AppState) -> [Effect] {
        let page = HeadlinesScreen.layout(in: state.body).page
        if case .failure(let failure) = result {
            state.message = StatusMessage("Cannot read the headlines: \(failure.reason)", isError: true)
        }
        state.updateScreen { screen in
            guard case .headlines(var headlines) = screen, headlines.publicationID == publicationID else { return false }
            headlines.headlines = (try? result.get()) ?? []
            headlines.cursor.keepVisible(count: headlines.headlines?.count ?? 0, page: page)
            screen = .headlines(headlines)
            return true
        }
        return []
    }

    /// Carries out a subscriptions prompt: subscribe to the typed URL, or rename.
    static func submitSubscriptionPrompt(_ prompt: Prompt, _ state: inout AppState) -> [Effect] {
        let text = prompt.text.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { return [] }
        switch prompt.kind {
        case .addSubscription:
            // The URL as typed goes to the runner, which moves a login in it to the credential store; never shown.
            state.message = StatusMessage("Checking \(URLCredentials.split(text).address)…")
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
        apply(StorageScreen.open(), &state)
    }

    /// The account chosen for a feed (a digit), a feed of one's own (0), or nothing subscribed (any other key).
    static func chooseSubscriptionAccount(_ url: String, _ accounts: [Account], key: Key, _ state: inout AppState) -> [Effect] {
        state.prompt = nil
        guard case .character(let character) = key, let digit = character.wholeNumberValue, character.isASCII, digit <= min(9, accounts.count) else {
            state.message = StatusMessage("Nothing was subscribed.")
            return []
        }
        let address = URLCredentials.split(url).address
        if digit == 0 {
            state.message = StatusMessage("Checking \(address)…")
            return [.subscribe(url: url, on: .ownFeed)]
        }
        let account = accounts[digit - 1]
        state.message = StatusMessage("Subscribing to \(address) on \(account.user) at \(AccountChoiceText.server(account.url))…")
        return [.subscribe(url: url, on: .account(url: account.url.absoluteString))]
    }

    static func subscriptionAdded(_ result: Result<String, ReaderFailure>, _ state: inout AppState) -> [Effect] {
        switch result {
        case .success(let title): state.message = StatusMessage("Subscribed to \(title).")
        case .failure(let failure): state.message = StatusMessage(failure.reason, isError: true)
        }
        return []
    }
}
