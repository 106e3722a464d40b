import NewsstandCore

/// The subscriptions screen (`s` on the shelf): every subscription with its feed, policy, last refresh and counts;
/// adding, renaming, removing, refreshing one, its policies, and the ways to its catalog, headlines and accounts.
public struct SubscriptionsScreen: ScreenModel {
    public var cursor: ListCursor

    public init(cursor: ListCursor = ListCursor()) {
        self.cursor = cursor
    }

    /// Opened on the shelf's publication.
    static func open(_ shared: SharedState, body: Rect) -> SubscriptionsScreen {
        var cursor = ListCursor(selection: shared.shelf.selectedPublication)
        cursor.keepVisible(count: shared.library.publications.count, page: layout(in: body).page)
        return SubscriptionsScreen(cursor: cursor)
    }

    public var kind: ScreenKind { .subscriptions }
    public var screen: Screen { .subscriptions(self) }

    public mutating func handle(_ command: Command, key: Key, body: Rect, shared: inout SharedState) -> ScreenAnswer {
        let publications = shared.library.publications
        if cursor.apply(command, count: publications.count, page: Self.layout(in: body).page) { return .stay() }
        let selected = publications.indices.contains(cursor.selection) ? publications[cursor.selection] : nil
        switch command {
        case .tap:
            guard selected != nil else { return .stay() }
            shared.shelf.selectedPublication = cursor.selection
            AppUpdate.keepShelfInView(&shared)
            return .reset([.shelf])
        case .addSubscription:
            shared.prompt = Prompt(.addSubscription)
        case .removeSubscription:
            guard let publication = selected else { return .stay() }
            shared.prompt = Prompt(.confirmUnsubscribe(publicationID: publication.id, title: publication.title))
        case .renameSubscription:
            guard let publication = selected else { return .stay() }
            shared.prompt = Prompt(.rename(publicationID: publication.id), text: publication.title)
        case .refreshSelected:
            guard let publication = selected else { return .stay() }
            shared.message = StatusMessage("Refreshing \(publication.title)…")
            shared.isRefreshRequested = true
            return .stay([.refreshPublication(publicationID: publication.id)])
        case .refresh:
            shared.message = StatusMessage("Refreshing catalogs…")
            shared.isRefreshRequested = true
            return .stay([.refreshPublications])
        case .cycleAutoDownload:
            guard let publication = selected else { return .stay() }
            let all = AutoDownloadPolicy.allCases
            let next = all[(all.firstIndex(of: publication.autoDownload)! + 1) % all.count]
            shared.message = StatusMessage("\(publication.title): auto-download \(next.rawValue).")
            return .stay([.setPolicy(publicationID: publication.id, autoDownload: next, keepNewest: publication.keepNewest)])
        case .cycleFullText:
            guard let publication = selected else { return .stay() }
            return .stay(AppUpdate.cycleFullText(publication, &shared))
        case .keepMore, .keepFewer:
            guard let publication = selected else { return .stay() }
            let keep: Int? = switch (command, publication.keepNewest) {
            case (.keepMore, nil): nil
            case (.keepMore, let value?): value + 1
            case (_, nil): 10
            case (_, let value?): max(1, value - 1)
            }
            shared.message = StatusMessage("\(publication.title): " + (keep.map { "keep the newest \($0) downloaded" } ?? "keep every downloaded issue") + ".")
            return .stay([.setPolicy(publicationID: publication.id, autoDownload: publication.autoDownload, keepNewest: keep)])
        case .importOPML:
            shared.prompt = Prompt(.importOPML)
        case .exportOPML:
            shared.prompt = Prompt(.exportOPML, text: "~/newsstand-subscriptions.opml")
        case .showStorage:
            return StorageScreen.open()
        case .showAccounts:
            return .push(.accounts(AccountsScreen()), [.loadAccounts])
        case .browseCatalog:
            guard let publication = selected else { return .stay() }
            return .push(.catalog(CatalogScreen(url: publication.feedURL)), [.loadFeed(publication.feedURL)])
        case .chooseCatalogFeed:
            guard let publication = selected else { return .stay() }
            let root = publication.catalogRoot ?? publication.feedURL
            shared.message = StatusMessage("Choose a feed of \(publication.title)'s catalog, then u to read it.")
            return .push(.catalog(CatalogScreen(url: root, publicationID: publication.id)), [.loadFeed(root)])
        case .showHeadlines:
            guard let publication = selected else { return .stay() }
            return .push(.headlines(HeadlinesScreen(publicationID: publication.id, title: publication.title)),
                         [.loadHeadlines(publicationID: publication.id)])
        case .back:
            return .reset([.shelf])
        default:
            break
        }
        return .stay()
    }

    public mutating func fit(body: Rect, shared: inout SharedState) -> [Effect] {
        cursor.keepVisible(count: shared.library.publications.count, page: Self.layout(in: body).page)
        return []
    }

    public func render(_ shared: SharedState, in body: Rect, theme: Theme, into buffer: inout CellBuffer) -> String {
        Self.render(cursor, shared, in: body, theme: theme, into: &buffer)
        return Self.listPosition(cursor, count: shared.library.publications.count)
    }

    public func readingCursor(_ shared: SharedState, in body: Rect) -> (x: Int, y: Int) { Self.row(Self.layout(in: body), cursor, in: body) }
}
