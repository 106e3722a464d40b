import NewsstandCore

/// The prompt on the bottom line: typing and editing, confirming, and handing what was typed to its screen.
extension AppUpdate {
    /// Keys while a prompt is open go to it (Ctrl-C still quits).
    static func handlePrompt(_ key: Key, _ state: inout AppState) -> [Effect] {
        guard var prompt = state.prompt else { return [] }
        if prompt.isLogin { return handleLoginPrompt(key, prompt, &state) }
        if case .confirmRemoveTitle(let issueID, _) = prompt.kind { return confirmRemoveTitle(issueID, key: key, &state) }
        if case .confirmDeleteMark(let mark) = prompt.kind { return confirmDeleteMark(mark, key: key, &state) }
        if case .confirmDeleteDownload(let issueID, _) = prompt.kind { return confirmDeleteDownload(issueID, key: key, &state) }
        if case .confirmProgressSync(let offer) = prompt.kind { return confirmProgressSync(offer, key: key, &state) }
        if case .confirmRemoveAccount(let url, _) = prompt.kind { return confirmRemoveAccount(url, key: key, &state) }
        if case .chooseSubscriptionAccount(let url, let accounts) = prompt.kind { return chooseSubscriptionAccount(url, accounts, key: key, &state) }
        if case .confirmUnsubscribe(let publicationID, _) = prompt.kind {
            state.prompt = nil
            switch key {
            case .character("y"), .character("Y"): return [.unsubscribe(publicationID: publicationID, keepDownloads: true)]
            case .character("n"), .character("N"): return [.unsubscribe(publicationID: publicationID, keepDownloads: false)]
            default:
                state.message = StatusMessage("Nothing was changed.")
                return []
            }
        }
        if key == .backspace && prompt.text.isEmpty {
            state.prompt = nil
            return []
        }
        if case .character(let character) = key, !prompt.accepts(character) { return [] }
        switch prompt.field.apply(key) {
        case .cancelled:
            state.prompt = nil
            return []
        case .edited, .ignored:
            state.prompt = prompt
            return []
        case .submitted:
            state.prompt = nil
            switch prompt.kind {
            case .addSubscription, .rename, .confirmUnsubscribe, .importOPML, .exportOPML: return submitSubscriptionPrompt(prompt, &state)
            case .searchLibrary: return submitLibrarySearch(prompt, &state)
            case .searchIssue, .link, .searchCatalog, .bookmarkName, .note, .confirmDeleteMark: return submitOnTop(prompt, &state)
            case .accountURL, .accountUser, .accountPassword: return submitAccountPrompt(prompt, &state)
            case .loginUser, .loginPassword, .confirmSaveLogin, .confirmRemoveTitle, .confirmDeleteDownload, .confirmRemoveAccount,
                 .confirmProgressSync, .chooseSubscriptionAccount: return []
            }
        }
    }

    /// `d` in a marks list, answered: y deletes the mark (from the library in the background; from the list and the
    /// reader under it at once).
    static func confirmDeleteMark(_ mark: IssueMark, key: Key, _ state: inout AppState) -> [Effect] {
        guard let prompt = state.prompt else { return [] }
        state.prompt = nil
        guard key == .character("y") || key == .character("Y") else {
            state.message = StatusMessage("Nothing was deleted.")
            return []
        }
        state.message = StatusMessage("Deleted \(mark.description).")
        return submitToAll(prompt, &state) + [.deleteMark(mark)]
    }

    /// The answer to a progress sync offer (asked on the bottom line): y goes there (the reader's `submit`).
    static func confirmProgressSync(_ offer: ProgressSyncOffer, key: Key, _ state: inout AppState) -> [Effect] {
        guard let prompt = state.prompt else { return [] }
        state.prompt = nil
        guard key == .character("y") || key == .character("Y") else {
            state.message = StatusMessage("Staying here.")
            return []
        }
        return submitToAll(prompt, &state)
    }
}
