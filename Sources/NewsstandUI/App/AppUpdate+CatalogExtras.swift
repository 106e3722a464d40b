import Foundation
import NewsstandCore

/// The catalog browser's search (`/`), facets (`f`), "use this feed" (`u`), and paging: the next page is
/// fetched when the selection comes within a screenful of the end, for any number of pages.
extension AppUpdate {
    static func handleCatalogExtras(_ command: Command, _ browser: CatalogBrowser, _ state: inout AppState) -> [Effect] {
        guard let page = browser.current else { return [] }
        switch command {
        case .searchCatalog:
            guard page.feed?.search != nil else {
                state.message = StatusMessage(page.feed == nil ? "Wait for the page to load." : "This catalog offers no search.")
                return []
            }
            state.prompt = Prompt(.searchCatalog)
            return []
        case .showFacets:
            guard let facets = page.feed?.facets, !facets.isEmpty else {
                state.message = StatusMessage("This feed offers no facets.")
                return []
            }
            // The facets as a page of their own: each a navigation entry, followed with Enter.
            var choice = CatalogBrowser.Page(url: page.url)
            choice.label = "Facets of " + (page.feed?.title ?? page.url.absoluteString)
            var feed = Feed(format: page.feed?.format ?? .opds1, title: "Facets")
            feed.navigation = facets.map { facet in
                let group = facet.group.isEmpty ? "" : facet.group + ": "
                let count = facet.count.map { " (\($0))" } ?? ""
                return NavigationLink(title: (facet.isActive ? "✓ " : "") + group + facet.title + count, url: facet.url,
                                      summary: facet.isActive ? "shown now" : "")
            }
            choice.feed = feed
            var browser = browser
            browser.pages.append(choice)
            state.screens[state.screens.count - 1] = .catalog(browser)
            return []
        case .useCatalogFeed:
            guard let publicationID = browser.publicationID else {
                state.message = StatusMessage("Open the catalog with F on the subscriptions screen to choose a publication's feed.")
                return []
            }
            guard let feed = page.feed, !feed.entries.isEmpty, page.label == nil || page.label?.hasPrefix("Search") == true else {
                state.message = StatusMessage("This page lists no issues: follow an entry to a feed that does.")
                return []
            }
            // Results found through an OpenSearch description are keyed by the description, not by their own URL.
            guard page.url.fragment?.hasPrefix("search=") != true else {
                state.message = StatusMessage("These results came through the catalog's search description and have no feed URL of their own to read.")
                return []
            }
            let title = page.linkTitle ?? feed.title ?? page.url.absoluteString
            state.message = StatusMessage("Switching to \(title)…")
            return [.switchCatalogFeed(publicationID: publicationID, url: page.url, title: title)]
        default:
            return []
        }
    }

    /// Pushes a page for the results and asks for them.
    static func submitCatalogSearch(_ prompt: Prompt, _ state: inout AppState) -> [Effect] {
        let terms = prompt.text.trimmingCharacters(in: .whitespaces)
        guard !terms.isEmpty, case .catalog(var browser)? = state.screens.last,
              let link = browser.current?.feed?.search else { return [] }
        // The page's key: the results' URL when the template is known here, else the description's with the terms.
        let key: URL
        switch link {
        case .template(let template):
            guard let url = SearchTemplate.fill(template, with: terms) else {
                state.message = StatusMessage("The catalog's search template gives no URL.", isError: true)
                return []
            }
            key = url
        case .description(let url):
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
            components?.fragment = "search=" + terms
            key = components?.url ?? url
        }
        var results = CatalogBrowser.Page(url: key)
        results.label = "Search: \(terms)"
        browser.pages.append(results)
        state.screens[state.screens.count - 1] = .catalog(browser)
        return [.searchCatalog(link, terms: terms, pageKey: key)]
    }

    /// The next page of the catalog page shown, when its selection is within a screenful of the end.
    static func loadMoreIfNear(_ state: inout AppState) -> [Effect] {
        guard case .catalog(var browser)? = state.screens.last, var page = browser.current,
              let next = page.feed?.nextPage, !page.isLoadingMore, page.pagingFailure == nil else { return [] }
        let screenful = CatalogScreen.layout(in: state.body).page
        guard page.cursor.selection >= page.rowCount - screenful.itemCount else { return [] }
        page.isLoadingMore = true
        browser.pages[browser.pages.count - 1] = page
        state.screens[state.screens.count - 1] = .catalog(browser)
        return [.loadCatalogPage(next)]
    }

    /// Adds a page's entries to the page that asked for it, dropping the oldest beyond `CatalogBrowser.maxEntries`.
    static func catalogPageLoaded(_ url: URL, _ result: Result<Feed, ReaderFailure>, _ state: inout AppState) -> [Effect] {
        let screenful = CatalogScreen.layout(in: state.body).page
        var found = false
        state.updateScreen { screen in
            guard case .catalog(var browser) = screen,
                  let index = browser.pages.lastIndex(where: { $0.isLoadingMore && $0.feed?.nextPage == url }) else { return false }
            var page = browser.pages[index]
            page.isLoadingMore = false
            switch result {
            case .failure(let failure):
                page.pagingFailure = "the next page was not read: \(failure.reason)"
            case .success(let more):
                var feed = page.feed!
                feed.navigation += more.navigation
                feed.entries += more.entries
                // The same page again (a loop) ends the paging.
                feed.nextPage = more.nextPage == url ? nil : more.nextPage
                let excess = feed.entries.count - CatalogBrowser.maxEntries
                if excess > 0 {
                    feed.entries.removeFirst(excess)
                    page.droppedEntries += excess
                    let selection = max(feed.navigation.count, page.cursor.selection - excess)
                    page.feed = feed
                    page.cursor.select(selection, count: page.rowCount, page: screenful)
                }
                page.feed = feed
            }
            page.cursor.keepVisible(count: page.rowCount, page: screenful)
            browser.pages[index] = page
            screen = .catalog(browser)
            found = true
            return true
        }
        return found ? loadMoreIfNear(&state) : []
    }
}

extension CatalogBrowser {
    /// The most issues one browsed page keeps: past it, the earliest are dropped (and counted), so paging on
    /// through a catalog of any size holds memory flat.
    public static let maxEntries = 1000
}
