import NewsstandCore

/// The accounts screen's prompts: adding an account (its URL, user and password asked on the bottom line, the
/// password never shown), and confirming a removal.
extension AppUpdate {
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
}
