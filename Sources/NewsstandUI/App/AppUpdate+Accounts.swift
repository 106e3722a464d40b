import NewsstandCore

/// The accounts screen (`A` on the subscriptions screen): adding an account (its URL, user and password asked on the
/// bottom line, the password never shown), removing one, and the list as the runner reads it.
extension AppUpdate {
    static func handleAccounts(_ command: Command, _ accounts: AccountsState, _ state: inout AppState) -> [Effect] {
        var accounts = accounts
        if accounts.cursor.apply(command, count: accounts.accounts?.count ?? 0, page: AccountsScreen.layout(in: state.body).page) {
            state.screens[state.screens.count - 1] = .accounts(accounts)
            return []
        }
        switch command {
        case .addAccount:
            state.prompt = Prompt(.accountURL)
        case .removeAccount:
            guard let selected = accounts.selected else { return [] }
            state.prompt = Prompt(.confirmRemoveAccount(url: selected.account.url.absoluteString, user: selected.account.user))
        case .back:
            return goBack(&state)
        default:
            break
        }
        return []
    }

    /// The URL, then the user, then the password; the last hands them to the runner.
    static func submitAccountPrompt(_ prompt: Prompt, _ state: inout AppState) -> [Effect] {
        let text = prompt.text.trimmingCharacters(in: .whitespaces)
        switch prompt.kind {
        case .accountURL:
            guard !text.isEmpty else { return [] }
            let parts = URLCredentials.split(text)
            if let credentials = parts.credentials {
                // A login in the URL (`https://user:password@host/…`) answers both questions.
                state.message = StatusMessage("Logging in to \(parts.address)…")
                return [.addAccount(url: parts.address, credentials: credentials)]
            }
            state.prompt = Prompt(.accountUser(url: parts.address), text: parts.user ?? "")
        case .accountUser(let url):
            guard !text.isEmpty else {
                state.message = StatusMessage("No user given; no account was added.")
                return []
            }
            state.prompt = Prompt(.accountPassword(url: url, user: text))
        case .accountPassword(let url, let user):
            guard !prompt.text.isEmpty else {
                state.message = StatusMessage("No password given; no account was added.")
                return []
            }
            state.message = StatusMessage("Logging in to \(url)…")
            return [.addAccount(url: url, credentials: Credentials(user: user, password: prompt.text))]
        default:
            break
        }
        return []
    }

    static func confirmRemoveAccount(_ url: String, key: Key, _ state: inout AppState) -> [Effect] {
        state.prompt = nil
        guard key == .character("y") || key == .character("Y") else {
            state.message = StatusMessage("Nothing was changed.")
            return []
        }
        return [.removeAccount(url: url)]
    }

    static func accountsLoaded(_ list: [AccountSummary], _ state: inout AppState) -> [Effect] {
        let page = AccountsScreen.layout(in: state.body).page
        state.updateScreen { screen in
            guard case .accounts(var accounts) = screen else { return false }
            accounts.accounts = list
            accounts.cursor.keepVisible(count: list.count, page: page)
            screen = .accounts(accounts)
            return true
        }
        return []
    }
}
