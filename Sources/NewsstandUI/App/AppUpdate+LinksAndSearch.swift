import Foundation
import NewsstandContent
import NewsstandCore

/// The article's link prompt (`o N`) and the library search (`/` on the shelf), asked on the bottom line, and what
/// the runtime says of a link it could not open.
extension AppUpdate {
    /// The number typed in an article's link prompt (`o N`), submitted to the article that asked (an issue's or a
    /// feed item's, with its `links` numbered as it shows them): opens that link if it is a web or mail link.
    static func openLink(_ prompt: Prompt, among links: [URL]?, _ state: inout SharedState) -> [Effect] {
        let text = TextSanitizer.singleLine(prompt.text).trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty, let links else { return [] }
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
    }

    /// Carries out the library search typed after `/` on the shelf or the search results.
    static func submitLibrarySearch(_ prompt: Prompt, _ state: inout AppState) -> [Effect] {
        let text = TextSanitizer.singleLine(prompt.text).trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { return [] }
        let results = Screen.searchResults(SearchResultsScreen(query: text))
        _ = apply(state.screen == .searchResults ? .replace(results) : .push(results), &state)
        state.message = StatusMessage("Searching every downloaded issue for “\(text)”…")
        return [.searchLibrary(query: text)]
    }

    static func linkOpened(_ url: URL, failure: String?, _ state: inout AppState) -> [Effect] {
        guard let failure else { return [] }
        state.message = StatusMessage("\(failure); the link is \(TextSanitizer.singleLine(url.absoluteString))")
        return []
    }
}
