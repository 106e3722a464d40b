import NewsstandCore
import NewsstandUI

/// Reads what the interface shows of the library, by SQL and by key: the overview (publications, counts,
/// the issue being read) and windows of a shelf's issues by keyset paging — never
/// the whole library. Synchronous; `EffectRunner` calls it off the UI thread.
public struct LibraryLoader: Sendable {
    public let store: LibraryStore

    public init(store: LibraryStore) {
        self.store = store
    }

    public func overview() throws -> LibraryOverview {
        let readingID = try store.currentlyReadingIssueID()
        return LibraryOverview(publications: try store.publications(), counts: try store.issueCounts(),
                               readingIssue: try readingID.flatMap { try store.issue(id: $0) },
                               readingPosition: try readingID.flatMap { try store.readingPosition(issueID: $0) })
    }

    /// The issues a request asks for, in its view, with where they start in that view and the view's size now.
    public func window(_ request: IssueWindowRequest) throws -> IssueWindow {
        let publicationID = request.publicationID
        let view = request.view
        let count = max(1, request.count)
        let total = try store.issueCount(publicationID: publicationID, filter: view.filter)
        switch request.anchor {
        case .first:
            return IssueWindow(publicationID: publicationID, start: 0,
                               issues: try store.issues(publicationID: publicationID, after: nil, limit: count, view: view), total: total, view: view)
        case .last:
            let issues = try store.issues(publicationID: publicationID, before: nil, limit: count, view: view)
            return IssueWindow(publicationID: publicationID, start: max(0, total - issues.count), issues: issues, total: total, view: view)
        case .key(let key, let before):
            return try window(around: key, before: before, count: count, publicationID: publicationID, total: total, view: view)
        case .issue(let id, let before):
            guard let issue = try store.issue(id: id), issue.publicationID == publicationID else {
                return try window(IssueWindowRequest(publicationID: publicationID, anchor: .first, count: count, view: view))
            }
            return try window(around: issue.key, before: before, count: count, publicationID: publicationID, total: total, view: view)
        }
    }

    /// `before` issues before `key`, then the issue with that key (when it is still there, and in the view) and those after it.
    private func window(around key: IssueKey, before: Int, count: Int, publicationID: Int64, total: Int, view: ShelfView) throws -> IssueWindow {
        let earlier = before > 0 ? try store.issues(publicationID: publicationID, before: key, limit: min(before, count), view: view) : []
        let anchor = try store.issues(ids: [key.id]).filter { $0.publicationID == publicationID && $0.key == key && view.filter.includes($0) }
        let later = try store.issues(publicationID: publicationID, after: key, limit: max(0, count - earlier.count - anchor.count), view: view)
        let start = try store.shelfIndex(of: key, publicationID: publicationID, view: view) - earlier.count
        return IssueWindow(publicationID: publicationID, start: max(0, start), issues: earlier + anchor + later, total: total, view: view)
    }
}

extension LibraryLoader {
    /// Carries out the library's effects at once, on this thread, applying their answers to `state` until none
    /// are left; returns the other effects. For benchmarks and tests that need a settled shelf without a run loop
    /// (the program itself reads the library through `EffectRunner`, off the UI thread). Without
    /// `readingUnfinishedDownloads`, `.loadUnfinishedDownloads` is returned with the others, as the program
    /// draws its first shelf before that answer.
    @discardableResult
    public func settle(_ effects: [Effect], into state: inout AppState, readingUnfinishedDownloads: Bool = true) throws -> [Effect] {
        var pending = effects
        var others: [Effect] = []
        while !pending.isEmpty {
            switch pending.removeFirst() {
            case .loadLibrary:
                pending += AppUpdate.update(&state, .libraryLoaded(try overview()))
            case .loadIssues(let request):
                pending += AppUpdate.update(&state, .issuesLoaded(try window(request), selecting: request.selecting))
            case .loadUnfinishedDownloads where readingUnfinishedDownloads:
                pending += AppUpdate.update(&state, .unfinishedDownloadsLoaded(try store.unfinishedDownloads()))
            case .lookUpIssues(let ids):
                pending += AppUpdate.update(&state, .issuesLookedUp(try store.issues(ids: ids)))
            case let other:
                others.append(other)
            }
        }
        return others
    }
}
