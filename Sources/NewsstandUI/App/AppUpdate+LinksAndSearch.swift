import Foundation
import NewsstandContent
import NewsstandCore

/// The article's link prompt (`o N`) and the library search (`/` on the shelf), asked on the bottom line, and what
/// the runtime says of a link it could not open.
extension AppUpdate {
    /// The links of the article on screen, numbered as it shows them: an issue's or a feed item's.
    static func articleLinks(_ state: AppState) -> [URL]? {
        if case .feedArticle(let article)? = state.screens.last { return article.view.layout?.links }
        return state.reader?.view.layout?.links
    }

    /// Carries out a search or link prompt of the reader and the shelf (the issue's search is the reader's own).
    static func submitReaderPrompt(_ prompt: Prompt, _ state: inout AppState) -> [Effect] {
        let text = TextSanitizer.singleLine(prompt.text).trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { return [] }
        switch prompt.kind {
        case .link:
            guard let links = articleLinks(state) else { return [] }
            guard let number = Int(text), number >= 1, number <= links.count else {
                state.message = StatusMessage("There is no link \(text) in this article (it has \(links.count)).")
                return []
            }
            let url = links[number - 1]
            let shown = TextSanitizer.singleLine(url.absoluteString)
            guard ["http", "https", "mailto"].contains(url.scheme?.lowercased() ?? "") else {
                state.message = StatusMessage("Link \(number) is not a web link: \(shown)")
                return []
            }
            state.message = StatusMessage("Opening link \(number): \(shown)")
            return [.openLink(url)]
        case .searchIssue:
            return submitOnTop(prompt, &state)
        case .searchLibrary:
            let results = Screen.searchResults(SearchResultsScreen(query: text))
            _ = apply(state.screen == .searchResults ? .replace(results) : .push(results), &state)
            state.message = StatusMessage("Searching every downloaded issue for “\(text)”…")
            return [.searchLibrary(query: text)]
        case .addSubscription, .rename, .confirmUnsubscribe, .importOPML, .exportOPML, .loginUser, .loginPassword, .confirmSaveLogin,
             .confirmRemoveTitle, .confirmDeleteDownload, .searchCatalog, .bookmarkName, .note, .confirmDeleteMark,
             .accountURL, .accountUser, .accountPassword, .confirmRemoveAccount, .confirmProgressSync, .chooseSubscriptionAccount:
            return []
        }
    }

    static func linkOpened(_ url: URL, failure: String?, _ state: inout AppState) -> [Effect] {
        guard let failure else { return [] }
        state.message = StatusMessage("\(failure); the link is \(TextSanitizer.singleLine(url.absoluteString))")
        return []
    }
}
