import Foundation
import NewsstandCore

/// The storage report drawn: per publication, the total, the budget and what keeping to it would remove.
extension StorageScreen {
    public static func render(_ report: StorageReport?, in area: Rect, theme: Theme, into buffer: inout CellBuffer) {
        buffer.write("STORAGE", x: area.x + 2, y: area.y, style: theme[.heading])
        guard let report else {
            buffer.write("Measuring…", x: 2, y: area.y + 2, style: theme[.summary])
            return
        }
        var y = area.y + 2
        func line(_ text: String, _ element: ThemeElement, indent: Int = 2) {
            guard y < area.maxY else { return }
            buffer.write(text, x: indent, y: y, style: theme[element], maxWidth: area.width - indent - 2)
            y += 1
        }
        let nameWidth = min(40, max(12, report.usage.map { $0.publication.title.count }.max() ?? 12))
        for usage in report.usage {
            let name = usage.publication.title.padding(toLength: nameWidth, withPad: " ", startingAt: 0)
            line("\(name)  \(String(format: "%8.1f MB", megabytes(usage.bytes + usage.articleBytes)))  \(usage.countsText)", .text)
        }
        y += 1
        let total = String(format: "%.1f MB", megabytes(report.totalBytes))
        guard let budget = report.budget else {
            line("Total \(total). No storage budget is set (storage-budget in the config file).", .summary)
            return
        }
        line("Total \(total) of \(String(format: "%.1f MB", megabytes(budget))).", .summary)
        y += 1
        if report.plannedRemovals.isEmpty {
            line("Within budget: nothing would be removed.", .stateRead)
        } else {
            line("Over budget. In this order, these would go (x removes them now; a sync would too):", .stateFailed)
            for issue in report.plannedRemovals {
                line("• \(issue.title) — \(DateText.long(issue.date))" + (issue.openedAt != nil ? " (read)" : ""), .text, indent: 4)
            }
        }
    }

    static func megabytes(_ bytes: Int64) -> Double { Double(bytes) / 1_048_576 }
}
