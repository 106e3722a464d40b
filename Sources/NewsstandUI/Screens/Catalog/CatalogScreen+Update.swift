import Foundation
import NewsstandCore

/// Browsing a feed's catalog: following navigation entries, going back up, subscribing to what is shown, getting one
/// title; its search (`/`), facets (`f`), "use this feed" (`u`), and paging: the next page is fetched when the
/// selection comes within a screenful of the end, for any number of pages.
extension CatalogScreen: ScreenModel {
    public var kind: ScreenKind { .catalog }
    public var screen: Screen { .catalog(self) }

    /// The most issues one browsed page keeps: past it, the earliest are dropped (and counted), so paging on
    /// through a catalog of any size holds memory flat.
    public static let maxEntries = 1000

    public mutating func handle(_ command: Command, key: Key, body: Rect, shared: inout SharedState) -> ScreenAnswer {
        guard var page = current else { return .pop() }
        let layout = Self.layout(in: body)
        if page.cursor.apply(command, count: page.rowCount, page: layout.page) {
            pages[pages.count - 1] = page
            return .stay(loadMoreIfNear(body: body))
        }
        switch command {
        case .tap:
            guard page.cursor.tap(key, count: page.rowCount, in: layout) else { return .stay() }
            pages[pages.count - 1] = page
            guard let navigation = page.feed?.navigation, navigation.indices.contains(page.cursor.selection) else {
                // A book or issue: its acquisition links, to get this one title without subscribing.
                let entryIndex = page.cursor.selection - (page.feed?.navigation.count ?? 0)
                guard let entries = page.feed?.entries, entries.indices.contains(entryIndex) else { return .stay() }
                return .push(.acquisitions(AcquisitionScreen(entry: entries[entryIndex])))
            }
            let url = navigation[page.cursor.selection].url
            var next = Page(url: url)
            next.linkTitle = navigation[page.cursor.selection].title
            pages.append(next)
            return .stay([.loadFeed(url)])
        case .subscribeToViewedFeed:
            shared.message = StatusMessage("Checking \(page.url.absoluteString)…")
            return .stay([.subscribe(url: page.url.absoluteString)])
        case .back:
            pages.removeLast()
            return pages.isEmpty ? .pop() : .stay()
        case .searchCatalog:
            guard page.feed?.search != nil else {
                shared.message = StatusMessage(page.feed == nil ? "Wait for the page to load." : "This catalog offers no search.")
                return .stay()
            }
            shared.prompt = Prompt(.searchCatalog)
            return .stay()
        case .showFacets:
            showFacets(of: page, &shared)
            return .stay()
        case .useCatalogFeed:
            return .stay(useFeed(page, &shared))
        default:
            return .stay()
        }
    }

    /// The facets as a page of their own: each a navigation entry, followed with Enter.
    private mutating func showFacets(of page: Page, _ shared: inout SharedState) {
        guard let facets = page.feed?.facets, !facets.isEmpty else {
            shared.message = StatusMessage("This feed offers no facets.")
            return
        }
        var choice = Page(url: page.url)
        choice.label = "Facets of " + (page.feed?.title ?? page.url.absoluteString)
        var feed = Feed(format: page.feed?.format ?? .opds1, title: "Facets")
        feed.navigation = facets.map { facet in
            let group = facet.group.isEmpty ? "" : facet.group + ": "
            let count = facet.count.map { " (\($0))" } ?? ""
            return NavigationLink(title: (facet.isActive ? "✓ " : "") + group + facet.title + count, url: facet.url,
                                  summary: facet.isActive ? "shown now" : "")
        }
        choice.feed = feed
        pages.append(choice)
    }

    /// `u`: the publication the catalog was opened for reads the feed shown from now on.
    private func useFeed(_ page: Page, _ shared: inout SharedState) -> [Effect] {
        guard let publicationID else {
            shared.message = StatusMessage("Open the catalog with F on the subscriptions screen to choose a publication's feed.")
            return []
        }
        guard let feed = page.feed, !feed.entries.isEmpty, page.label == nil || page.label?.hasPrefix("Search") == true else {
            shared.message = StatusMessage("This page lists no issues: follow an entry to a feed that does.")
            return []
        }
        // Results found through an OpenSearch description are keyed by the description, not by their own URL.
        guard page.url.fragment?.hasPrefix("search=") != true else {
            shared.message = StatusMessage("These results came through the catalog's search description and have no feed URL of their own to read.")
            return []
        }
        let title = page.linkTitle ?? feed.title ?? page.url.absoluteString
        shared.message = StatusMessage("Switching to \(title)…")
        return [.switchCatalogFeed(publicationID: publicationID, url: page.url, title: title)]
    }

    /// The search typed after `/`: pushes a page for the results and asks for them.
    public mutating func submit(_ prompt: Prompt, body: Rect, shared: inout SharedState) -> ScreenAnswer {
        let terms = prompt.text.trimmingCharacters(in: .whitespaces)
        guard case .searchCatalog = prompt.kind, !terms.isEmpty, let link = current?.feed?.search else { return .stay() }
        // The page's key: the results' URL when the template is known here, else the description's with the terms.
        let key: URL
        switch link {
        case .template(let template):
            guard let url = SearchTemplate.fill(template, with: terms) else {
                shared.message = StatusMessage("The catalog's search template gives no URL.", isError: true)
                return .stay()
            }
            key = url
        case .description(let url):
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
            components?.fragment = "search=" + terms
            key = components?.url ?? url
        }
        var results = Page(url: key)
        results.label = "Search: \(terms)"
        pages.append(results)
        return .stay([.searchCatalog(link, terms: terms, pageKey: key)])
    }

    /// A page read (its first), or the next page of one (added to it, dropping the oldest beyond `maxEntries`).
    public mutating func receive(_ message: Message, body: Rect, shared: inout SharedState) -> ScreenAnswer {
        let screenful = Self.layout(in: body).page
        switch message {
        case .feedLoaded(let url, let result):
            guard let index = pages.lastIndex(where: { $0.url == url && $0.feed == nil && $0.failure == nil }) else { return .stay() }
            switch result {
            case .success(let feed): pages[index].feed = feed
            case .failure(let failure): pages[index].failure = failure.reason
            }
            pages[index].cursor.keepVisible(count: pages[index].rowCount, page: screenful)
        case .catalogPageLoaded(let url, let result):
            guard let index = pages.lastIndex(where: { $0.isLoadingMore && $0.feed?.nextPage == url }) else { return .stay() }
            var page = pages[index]
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
                let excess = feed.entries.count - Self.maxEntries
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
            pages[index] = page
        default:
            return .stay()
        }
        return .stay(loadMoreIfNear(body: body))
    }

    /// The next page of the catalog page shown, when its selection is within a screenful of the end.
    mutating func loadMoreIfNear(body: Rect) -> [Effect] {
        guard var page = current, let next = page.feed?.nextPage, !page.isLoadingMore, page.pagingFailure == nil else { return [] }
        let screenful = Self.layout(in: body).page
        guard page.cursor.selection >= page.rowCount - screenful.itemCount else { return [] }
        page.isLoadingMore = true
        pages[pages.count - 1] = page
        return [.loadCatalogPage(next)]
    }

    public mutating func fit(body: Rect, shared: inout SharedState) -> [Effect] {
        for index in pages.indices {
            pages[index].cursor.keepVisible(count: pages[index].rowCount, page: Self.layout(in: body).page)
        }
        return []
    }

    public func render(_ shared: SharedState, in body: Rect, theme: Theme, into buffer: inout CellBuffer) -> String {
        Self.render(self, in: body, theme: theme, into: &buffer)
        return current.map { Self.listPosition($0.cursor, count: $0.rowCount) } ?? ""
    }

    public func hints(_ keys: KeyTable) -> [KeyBinding] { Self.hints(self, keys: keys) }

    public func readingCursor(_ shared: SharedState, in body: Rect) -> (x: Int, y: Int) {
        current.map { Self.row(Self.layout(in: body), $0.cursor, in: body) } ?? (body.x, body.y)
    }
}
