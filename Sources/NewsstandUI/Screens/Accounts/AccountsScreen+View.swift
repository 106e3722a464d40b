import Foundation
import NewsstandCore

/// Accounts on feed servers: each one's address, user and kind, its subscriptions, and how its last sync went.
extension AccountsScreen {
    /// The heading and a blank line, then three lines per account (two of text and a gap).
    public static func layout(in area: Rect) -> ListLayout { ListLayout(area: area, headerLines: 2, rowHeight: 3) }

    public static func render(_ state: AccountsScreen, in area: Rect, theme: Theme, into buffer: inout CellBuffer) {
        buffer.write("ACCOUNTS", x: area.x + 2, y: area.y, style: theme[.heading])
        let layout = layout(in: area)
        guard let accounts = state.accounts else {
            buffer.write("Loading…", x: 2, y: layout.listArea.y, style: theme[.summary])
            return
        }
        guard !accounts.isEmpty else {
            buffer.write("No accounts. Press a to add one: a FreshRSS, Inoreader or Miniflux server's Google Reader API.",
                         x: 2, y: layout.listArea.y, style: theme[.summary], maxWidth: area.width - 4)
            return
        }
        for (offset, index) in state.cursor.visibleRange(count: accounts.count, page: layout.page).enumerated() {
            var rect = layout.rowRect(offset)
            rect.height = min(rect.height, layout.rowHeight - 1)
            renderRow(accounts[index], in: rect, isSelected: index == state.cursor.selection, theme: theme, into: &buffer)
        }
    }

    static func renderRow(_ summary: AccountSummary, in rect: Rect, isSelected: Bool, theme: Theme, into buffer: inout CellBuffer) {
        let highlight = RowHighlight(theme: theme, isSelected: isSelected)
        highlight.paint(rect, barColumn: rect.x, barRows: rect.y..<rect.maxY, into: &buffer)
        let style = highlight.style
        let text = rect.inset(horizontal: 2, vertical: 0)
        let account = summary.account
        let kind = account.kind.displayName
        let kindWidth = min(kind.count, max(0, text.width / 3))
        buffer.write("\(account.user) at \(account.url.absoluteString)", x: text.x, y: text.y, style: style(.title), maxWidth: text.width - kindWidth - 2)
        buffer.write(kind, x: text.maxX - kindWidth, y: text.y, style: style(.date), maxWidth: kindWidth)
        let synced = account.lastSync.map { "synced \(DateText.short($0))" } ?? "not synced yet"
        var x = text.x + 2
        x += buffer.write("\(summary.subscriptions) subscription\(summary.subscriptions == 1 ? "" : "s") · \(synced)", x: x, y: text.y + 1,
                          style: style(.summary), maxWidth: text.maxX - x)
        if let problem = account.lastError {
            buffer.write("  ⚠ " + problem, x: x, y: text.y + 1, style: style(.stateFailed), maxWidth: text.maxX - x)
        }
    }
}
