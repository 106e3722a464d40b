import Foundation
import NewsstandCore

/// Every subscription: title, feed URL and format, policy, last refresh and its result, and counts
/// of new, downloaded and all issues.
public enum SubscriptionsScreen {
    /// Lines each subscription takes.
    static let rowHeight = 4

    public static func render(_ state: AppState, theme: Theme, into buffer: inout CellBuffer) {
        let area = Rect(x: 0, y: 1, width: state.width, height: state.height - 2)
        buffer.write("SUBSCRIPTIONS", x: 2, y: area.y, style: theme[.heading])
        let publications = state.library.publications
        guard !publications.isEmpty else {
            buffer.write("No subscriptions yet. Press a to add one by its feed URL.", x: 2, y: area.y + 2, style: theme[.summary], maxWidth: area.width - 4)
            return
        }
        let visible = max(1, (area.height - 2) / rowHeight)
        let first = max(0, state.subscriptionSelection - visible + 1)
        for (offset, index) in (first..<min(publications.count, first + visible)).enumerated() {
            let publication = publications[index]
            let issues = state.library.issues[publication.id] ?? []
            let rect = Rect(x: 0, y: area.y + 2 + offset * rowHeight, width: area.width, height: rowHeight - 1)
            renderRow(publication, issues: issues, in: rect, isSelected: index == state.subscriptionSelection, theme: theme, into: &buffer)
        }
    }

    static func renderRow(_ publication: Publication, issues: [Issue], in rect: Rect, isSelected: Bool, theme: Theme, into buffer: inout CellBuffer) {
        let highlight = RowHighlight(theme: theme, isSelected: isSelected)
        highlight.paint(rect, barColumn: rect.x, barRows: rect.y..<rect.maxY, into: &buffer)
        let style = highlight.style
        let text = rect.inset(horizontal: 2, vertical: 0)
        let policy = [publication.feedFormat?.rawValue ?? "format unknown",
                      "auto-download \(publication.autoDownload.rawValue)",
                      publication.keepNewest.map { "keep \($0)" } ?? "keep all"].joined(separator: " · ")
        let policyWidth = min(policy.count, max(0, text.width / 2))
        buffer.write(publication.title, x: text.x, y: text.y, style: style(.title), maxWidth: text.width - policyWidth - 2)
        buffer.write(policy, x: text.maxX - policyWidth, y: text.y, style: style(.date), maxWidth: policyWidth)
        buffer.write(publication.feedURL.absoluteString, x: text.x + 2, y: text.y + 1, style: style(.summary), maxWidth: text.width - 2)
        let new = issues.filter(\.isNew).count
        let downloaded = issues.filter { $0.state == .available }.count
        let counts = "\(new) new, \(downloaded) downloaded, \(issues.count) issue\(issues.count == 1 ? "" : "s")"
        let status: String
        if !publication.isSubscribed {
            status = "unsubscribed; downloaded issues kept"
        } else if let refreshed = publication.lastRefresh {
            status = "refreshed \(DateText.short(refreshed))"
        } else {
            status = "not refreshed yet"
        }
        var x = text.x + 2
        x += buffer.write("\(status) · \(counts)", x: x, y: text.y + 2, style: style(.summary), maxWidth: text.maxX - x)
        if let problem = publication.lastError {
            buffer.write("  ⚠ " + problem, x: x, y: text.y + 2, style: style(.stateFailed), maxWidth: text.maxX - x)
        }
    }
}
