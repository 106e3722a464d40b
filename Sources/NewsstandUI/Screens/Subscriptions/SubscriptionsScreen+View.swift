import Foundation
import NewsstandCore

/// Every subscription: title, feed URL and format, policy (auto-download, keep, full text), last refresh and its
/// result, and counts of new, downloaded and all issues.
extension SubscriptionsScreen {
    /// The heading and a blank line, then four lines per subscription (three of text and a gap).
    public static func layout(in area: Rect) -> ListLayout { ListLayout(area: area, headerLines: 2, rowHeight: 4) }

    public static func render(_ cursor: ListCursor, _ state: SharedState, in area: Rect, theme: Theme, into buffer: inout CellBuffer) {
        buffer.write("SUBSCRIPTIONS", x: area.x + 2, y: area.y, style: theme[.heading])
        let publications = state.library.publications
        let layout = layout(in: area)
        guard !publications.isEmpty else {
            buffer.write("No subscriptions yet. Press a to add one by its feed URL.", x: 2, y: layout.listArea.y, style: theme[.summary], maxWidth: area.width - 4)
            return
        }
        for (offset, index) in cursor.visibleRange(count: publications.count, page: layout.page).enumerated() {
            let publication = publications[index]
            var rect = layout.rowRect(offset)
            rect.height = min(rect.height, layout.rowHeight - 1)
            renderRow(publication, counts: state.library.counts[publication.id] ?? IssueCounts(), in: rect,
                      isSelected: index == cursor.selection, fullText: publication.fullText ?? state.fullTextDefault, theme: theme, into: &buffer)
        }
    }

    static func renderRow(_ publication: Publication, counts: IssueCounts, in rect: Rect, isSelected: Bool, fullText: FullTextMode = .ask,
                          theme: Theme, into buffer: inout CellBuffer) {
        let highlight = RowHighlight(theme: theme, isSelected: isSelected)
        highlight.paint(rect, barColumn: rect.x, barRows: rect.y..<rect.maxY, into: &buffer)
        let style = highlight.style
        let text = rect.inset(horizontal: 2, vertical: 0)
        let policy = [publication.feedFormat?.rawValue ?? "format unknown",
                      "auto-download \(publication.autoDownload.rawValue)",
                      publication.keepNewest.map { "keep \($0)" } ?? "keep all"].joined(separator: " · ")
        let policyWidth = min(policy.count, max(0, text.width / 2))
        buffer.write(publication.subscribedTitle, x: text.x, y: text.y, style: style(.title), maxWidth: text.width - policyWidth - 2)
        buffer.write(policy, x: text.maxX - policyWidth, y: text.y, style: style(.date), maxWidth: policyWidth)
        // When headlines get their whole article (`w`), right of the feed's address.
        let wholeArticles = "full text \(fullText.rawValue)"
        let wholeWidth = min(wholeArticles.count, max(0, text.width / 2))
        buffer.write(publication.feedURL.absoluteString, x: text.x + 2, y: text.y + 1, style: style(.summary), maxWidth: text.width - wholeWidth - 4)
        buffer.write(wholeArticles, x: text.maxX - wholeWidth, y: text.y + 1, style: style(.date), maxWidth: wholeWidth)
        let countsText = "\(counts.new) new, \(counts.downloaded) downloaded, \(counts.total) issue\(counts.total == 1 ? "" : "s")"
        let status: String
        if !publication.isSubscribed {
            status = "unsubscribed; downloaded issues kept"
        } else if let refreshed = publication.lastRefresh {
            status = "refreshed \(DateText.short(refreshed))"
        } else {
            status = "not refreshed yet"
        }
        let source = publication.accountID != nil ? "from an account · " : ""
        var x = text.x + 2
        x += buffer.write("\(source)\(status) · \(countsText)", x: x, y: text.y + 2, style: style(.summary), maxWidth: text.maxX - x)
        if let problem = publication.lastError {
            buffer.write("  ⚠ " + problem, x: x, y: text.y + 2, style: style(.stateFailed), maxWidth: text.maxX - x)
        }
    }
}
