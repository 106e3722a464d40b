/// Decides what a sync does with a publication's issues: which to download under its policy, and
/// which downloaded issues to remove to honour keep-newest-N or the storage budget.
///
/// Pure: it reads issues and returns issues; `SyncService` carries the decisions out.
public enum SyncPlanner {
    /// Issues to download now. `issues` are the publication's, newest first; `arrived` names those the last refresh
    /// added. Issues that arrived earlier and were never downloaded (held back by quiet hours or the daily cap, say)
    /// still count as arrivals until they are opened.
    public static func issuesToDownload(for publication: Publication, issues: [Issue], arrived: Set<String>) -> [Issue] {
        guard publication.isSubscribed else { return [] }
        func wanted(_ issue: Issue) -> Bool {
            issue.state == .notDownloaded && issue.isDownloadable && (arrived.contains(issue.name) || issue.isNew)
        }
        switch publication.autoDownload {
        case .none: return []
        case .latest: return issues.first.map { wanted($0) ? [$0] : [] } ?? []
        case .all: return issues.filter(wanted)
        }
    }

    /// Downloaded issues beyond the newest `keepNewest` of a publication, oldest first; never the issue being read.
    public static func issuesBeyondKeepLimit(for publication: Publication, issues: [Issue], readingIssueID: Int64?) -> [Issue] {
        guard let keep = publication.keepNewest, keep >= 1 else { return [] }
        let downloaded = issues.filter { $0.state == .available }.sorted { $0.date > $1.date }
        return downloaded.dropFirst(keep).filter { $0.id != readingIssueID }.sorted { $0.date < $1.date }
    }

    /// Issues to remove, in order, until the library fits `budget` bytes: read issues before unread ones,
    /// oldest first within each; the issue being read and each publication's newest issue are never removed.
    public static func issuesOverBudget(_ issues: [Issue], sizes: [Int64: Int64], budget: Int64, readingIssueID: Int64?) -> [Issue] {
        let downloaded = issues.filter { $0.state == .available }
        var total = downloaded.reduce(Int64(0)) { sum, issue in sum + (sizes[issue.id] ?? 0) }
        guard total > budget else { return [] }
        var newestByPublication: [Int64: Issue] = [:]
        for issue in issues where newestByPublication[issue.publicationID].map({ issue.date > $0.date }) ?? true {
            newestByPublication[issue.publicationID] = issue
        }
        let protected = Set(newestByPublication.values.map(\.id)).union(readingIssueID.map { [$0] } ?? [])
        let candidates = downloaded.filter { !protected.contains($0.id) }.sorted {
            let (leftRead, rightRead) = ($0.openedAt != nil, $1.openedAt != nil)
            return leftRead != rightRead ? leftRead : $0.date < $1.date
        }
        var chosen: [Issue] = []
        for issue in candidates where total > budget {
            chosen.append(issue)
            total -= sizes[issue.id] ?? 0
        }
        return chosen
    }
}
