import Foundation
import NewsstandContent
import NewsstandCore
import NewsstandUI

/// Re-anchors an issue's stored highlights in its text (a re-downloaded issue may have moved or lost a
/// passage): reads them from the library, checks them with `HighlightAnchoring.recheck` (pure), and stores the
/// changes. The runtime does this off the UI thread and sends the marks again; the command line does it before
/// exporting or importing notes.
public enum HighlightRecheck {
    /// Checks the issue's highlights against `book` and stores the changes; returns whether there were any.
    @discardableResult
    public static func run(issueID: Int64, book: EPUBBook, store: LibraryStore) throws -> Bool {
        let highlights = try store.highlights(issueID: issueID)
        guard !highlights.isEmpty else { return false }
        let changed = HighlightAnchoring.recheck(highlights, titles: book.articles.map(\.title)) { index in
            (try? IssueContent.blocks(of: book, article: index)).map { HighlightAnchoring.passages(of: $0, articleIndex: index) }
        }
        for highlight in changed { try store.updateHighlightAnchor(highlight) }
        return !changed.isEmpty
    }
}
