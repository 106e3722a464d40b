import NewsstandCore

/// The results of a search across every downloaded issue (`/` on the shelf): one row per match; Enter opens the
/// issue (or headline) at the match, and going back from it returns here.
public struct SearchResultsScreen: ScreenModel {
    public var query: String
    /// nil while searching.
    public var hits: [SearchHit]?
    public var failure: String?
    public var cursor = ListCursor()

    public init(query: String, hits: [SearchHit]? = nil) {
        self.query = query
        self.hits = hits
    }

    public var kind: ScreenKind { .searchResults }
    public var screen: Screen { .searchResults(self) }

    public mutating func handle(_ command: Command, key: Key, body: Rect, shared: inout SharedState) -> ScreenAnswer {
        let hits = hits ?? []
        let layout = Self.layout(in: body)
        if cursor.apply(command, count: hits.count, page: layout.page) { return .stay() }
        switch command {
        case .tap:
            guard cursor.tap(key, count: hits.count, in: layout), hits.indices.contains(cursor.selection) else { return .stay() }
            return open(hits[cursor.selection], &shared)
        case .back:
            return .pop()
        default:
            return .stay()
        }
    }

    /// Opens the issue of a result at the block of the match, with the searched text highlighted; a headline's
    /// result opens as a feed article.
    func open(_ hit: SearchHit, _ shared: inout SharedState) -> ScreenAnswer {
        if let headline = hit.headline {
            return .push(.feedArticle(FeedArticleScreen(publicationID: headline.publicationID, index: headline.position, count: nil, title: hit.articleTitle)),
                         [.loadHeadlineArticle(publicationID: headline.publicationID, index: headline.position)])
        }
        var reader = ReaderScreen(issueID: hit.issueID)
        reader.openAt = ReadingPosition(articleIndex: hit.articleIndex, blockIndex: hit.blockIndex)
        reader.search = IssueSearch(query: query, jumpsToFirstMatch: false)
        shared.message = nil
        return .push(.reader(reader), [.openIssue(issueID: hit.issueID), .searchIssue(issueID: hit.issueID, query: query)])
    }

    /// The results, when they are the ones this screen waits for.
    public mutating func receive(_ message: Message, body: Rect, shared: inout SharedState) -> ScreenAnswer {
        guard case .librarySearched(let searched, let result) = message, searched == query, hits == nil else { return .stay() }
        switch result {
        case .success(let found):
            hits = found
            cursor = ListCursor()
            // The heading says there is none; the line below says what was searched.
            shared.message = found.isEmpty ? StatusMessage("Only downloaded issues and headlines are searched.") : nil
        case .failure(let problem):
            hits = []
            failure = problem.reason
            shared.message = StatusMessage("The search failed: \(problem.reason)", isError: true)
        }
        return .stay()
    }

    public mutating func fit(body: Rect, shared: inout SharedState) -> [Effect] {
        cursor.keepVisible(count: hits?.count ?? 0, page: Self.layout(in: body).page)
        return []
    }

    public func render(_ shared: SharedState, in body: Rect, theme: Theme, into buffer: inout CellBuffer) -> String {
        Self.render(self, in: body, theme: theme, into: &buffer)
        return Self.listPosition(cursor, count: hits?.count ?? 0)
    }

    public func readingCursor(_ shared: SharedState, in body: Rect) -> (x: Int, y: Int) { Self.row(Self.layout(in: body), cursor, in: body) }
}
