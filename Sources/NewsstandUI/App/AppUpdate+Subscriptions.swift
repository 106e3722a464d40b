import Foundation
import NewsstandCore

/// What the subscriptions screen's prompts (add, rename, OPML, the account for a feed) do.
extension AppUpdate {
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
