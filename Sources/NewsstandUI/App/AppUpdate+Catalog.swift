import Foundation
import NewsstandCore

/// Browsing a feed's catalog: following navigation entries, going back up, subscribing to what is shown.
extension AppUpdate {
    static func handleCatalog(_ command: Command, key: Key, _ browser: CatalogBrowser, _ state: inout AppState) -> [Effect] {
        var browser = browser
        guard var page = browser.current else { return goBack(&state) }
        let layout = CatalogScreen.layout(in: state.body)
        func keep() {
            browser.pages[browser.pages.count - 1] = page
            state.screens[state.screens.count - 1] = .catalog(browser)
        }
        if page.cursor.apply(command, count: page.rowCount, page: layout.page) {
            keep()
            return loadMoreIfNear(&state)
        }
        switch command {
        case .tap:
            guard page.cursor.tap(key, count: page.rowCount, in: layout) else { return [] }
            keep()
            guard let navigation = page.feed?.navigation, navigation.indices.contains(page.cursor.selection) else {
                // A book or issue: its acquisition links, to get this one title without subscribing.
                let entryIndex = page.cursor.selection - (page.feed?.navigation.count ?? 0)
                guard let entries = page.feed?.entries, entries.indices.contains(entryIndex) else { return [] }
                return offerAcquisitions(entries[entryIndex], &state)
            }
            let url = navigation[page.cursor.selection].url
            var next = CatalogBrowser.Page(url: url)
            next.linkTitle = navigation[page.cursor.selection].title
            browser.pages.append(next)
            state.screens[state.screens.count - 1] = .catalog(browser)
            return [.loadFeed(url)]
        case .subscribeToViewedFeed:
            state.message = StatusMessage("Checking \(page.url.absoluteString)…")
            return [.subscribe(url: page.url.absoluteString)]
        case .back:
            browser.pages.removeLast()
            if browser.pages.isEmpty { return goBack(&state) }
            state.screens[state.screens.count - 1] = .catalog(browser)
            return []
        case .searchCatalog, .showFacets, .useCatalogFeed:
            return handleCatalogExtras(command, browser, &state)
        default:
            return []
        }
    }

    static func feedLoaded(_ url: URL, _ result: Result<Feed, ReaderFailure>, _ state: inout AppState) -> [Effect] {
        let page = CatalogScreen.layout(in: state.body).page
        state.updateScreen { screen in
            guard case .catalog(var browser) = screen,
                  let index = browser.pages.lastIndex(where: { $0.url == url && $0.feed == nil && $0.failure == nil }) else { return false }
            switch result {
            case .success(let feed): browser.pages[index].feed = feed
            case .failure(let failure): browser.pages[index].failure = failure.reason
            }
            browser.pages[index].cursor.keepVisible(count: browser.pages[index].rowCount, page: page)
            screen = .catalog(browser)
            return true
        }
        return loadMoreIfNear(&state)
    }
}
