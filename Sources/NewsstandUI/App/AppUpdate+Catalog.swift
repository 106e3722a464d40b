import Foundation
import NewsstandCore

/// Browsing a feed's catalog: following navigation entries, going back up, subscribing to what is shown.
extension AppUpdate {
    static func handleCatalog(_ command: Command, _ state: inout AppState) -> [Effect] {
        guard var browser = state.catalog, var page = browser.current else {
            state.screens.removeLast()
            return []
        }
        switch command {
        case .moveDown: page.selection += 1
        case .moveUp: page.selection -= 1
        case .pageDown: page.selection += max(1, (state.height - 4) / 2)
        case .pageUp: page.selection -= max(1, (state.height - 4) / 2)
        case .top: page.selection = 0
        case .bottom: page.selection = page.rowCount - 1
        case .tap:
            guard let navigation = page.feed?.navigation, navigation.indices.contains(page.selection) else {
                state.message = StatusMessage("An issue: subscribe to this feed (a) to download it.")
                return []
            }
            let url = navigation[page.selection].url
            browser.pages.append(CatalogBrowser.Page(url: url))
            state.catalog = browser
            return [.loadFeed(url)]
        case .subscribeToViewedFeed:
            state.message = StatusMessage("Checking \(page.url.absoluteString)…")
            return [.subscribe(url: page.url.absoluteString)]
        case .help:
            return openHelp(&state)
        case .back:
            browser.pages.removeLast()
            if browser.pages.isEmpty {
                state.catalog = nil
                state.screens.removeLast()
            } else {
                state.catalog = browser
            }
            return []
        default:
            break
        }
        page.selection = min(max(0, page.selection), max(0, page.rowCount - 1))
        browser.pages[browser.pages.count - 1] = page
        state.catalog = browser
        return []
    }

    static func feedLoaded(_ url: URL, _ result: Result<Feed, ReaderFailure>, _ state: inout AppState) -> [Effect] {
        guard var browser = state.catalog, let index = browser.pages.lastIndex(where: { $0.url == url && $0.feed == nil && $0.failure == nil }) else { return [] }
        switch result {
        case .success(let feed): browser.pages[index].feed = feed
        case .failure(let failure): browser.pages[index].failure = failure.reason
        }
        state.catalog = browser
        return []
    }
}
