import Foundation
import NewsstandCore

/// Every download with its progress, speed, time left and last problem; the queue's settings on top.
///
///     DOWNLOADS  3 at once (< >) · no limit (L) · 1 running, 1 queued, 1 paused
///
///     ▌ Maps & Margins                                        DOWNLOADING
///     ▌ ━━━━━━━━━━━━━━━━────────────────────  42%  4.2 of 10.0 MB  1.2 MB/s  ETA 0:05
///     ▌
extension DownloadsScreen {
    /// The settings line and a blank line, then four lines per download: title and state, progress,
    /// problem or hint, and a blank line the last one shown may do without.
    public static func layout(in area: Rect) -> ListLayout { ListLayout(area: area, headerLines: 2, rowHeight: 4, gap: 1) }

    public static func render(_ model: DownloadsState, cursor: DownloadsScreen, in area: Rect, theme: Theme, into buffer: inout CellBuffer) {
        guard area.height > 0 else { return }
        let layout = layout(in: area)
        var x = 2 + buffer.write("DOWNLOADS", x: 2, y: area.y, style: theme[.heading])
        x += buffer.write("  " + settingsText(model), x: x, y: area.y, style: theme[.summary], maxWidth: area.maxX - x - 1)
        let rows = model.rows
        if rows.isEmpty {
            buffer.write("Nothing is downloading. Enter on an issue on the shelf starts a download.", x: 2, y: layout.listArea.y,
                         style: theme[.summary], maxWidth: area.width - 4)
            return
        }
        for (offset, index) in cursor.cursor.visibleRange(count: rows.count, page: layout.page).enumerated() {
            var rect = layout.rowRect(offset)
            rect.height = min(rect.height, layout.rowHeight - 1)
            renderEntry(rows[index], in: rect, isSelected: index == cursor.cursor.selection, maxAttempts: model.maxAttempts, theme: theme, into: &buffer)
        }
    }

    /// "3 at once (< >) · no rate limit (L) · 2 running, 1 queued, 1 failed"
    static func settingsText(_ model: DownloadsState) -> String {
        let limit = model.rateLimit.map { "limit \(RateText.speed(Double($0)))" } ?? "no limit"
        var counts: [String] = []
        let phases = model.entries.values.map(\.phase)
        func count(_ label: String, _ matches: (DownloadEntry.Phase) -> Bool) {
            let n = phases.filter(matches).count
            if n > 0 { counts.append("\(n) \(label)") }
        }
        count("running") { $0 == .transferring || $0 == .installing }
        count("retrying") { if case .retrying = $0 { true } else { false } }
        count("waiting") { $0 == .waiting }
        count("queued") { if case .queued = $0 { true } else { false } }
        count("paused") { $0 == .paused }
        count("failed") { $0 == .failed }
        return (["\(model.maxConcurrent) at once (< >)", "\(limit) (L)"] + (counts.isEmpty ? [] : [counts.joined(separator: ", ")]))
            .joined(separator: " · ")
    }

    static func renderEntry(_ entry: DownloadEntry, in rect: Rect, isSelected: Bool, maxAttempts: Int, theme: Theme, into buffer: inout CellBuffer) {
        let highlight = RowHighlight(theme: theme, isSelected: isSelected)
        highlight.paint(rect, barColumn: rect.x, barRows: rect.y..<rect.maxY, into: &buffer)
        let style = highlight.style
        let inner = Rect(x: rect.x + 2, y: rect.y, width: max(0, rect.width - 4), height: rect.height)
        let (label, labelElement) = phaseLabel(entry.phase)
        let labelWidth = label.count
        buffer.write(entry.title ?? "Issue \(entry.issueID)", x: inner.x, y: inner.y, style: style(.title), maxWidth: inner.width - labelWidth - 2)
        buffer.write(label, x: inner.maxX - labelWidth, y: inner.y, style: style(labelElement))
        guard inner.height > 1 else { return }

        let details = detailsText(entry)
        let barWidth = min(40, max(min(12, inner.width), inner.width - details.count - 1))
        ProgressBar(fraction: entry.fraction, doneStyle: style(.progressDone), remainingStyle: style(.progressRemaining))
            .render(in: Rect(x: inner.x, y: inner.y + 1, width: min(barWidth, inner.width), height: 1), into: &buffer)
        buffer.write(details, x: inner.x + barWidth, y: inner.y + 1, style: style(.summary), maxWidth: inner.width - barWidth)
        guard inner.height > 2 else { return }

        let (note, isProblem) = noteText(entry, maxAttempts: maxAttempts)
        buffer.write(note, x: inner.x, y: inner.y + 2, style: style(isProblem ? .stateFailed : .date), maxWidth: inner.width)
    }

    static func phaseLabel(_ phase: DownloadEntry.Phase) -> (String, ThemeElement) {
        switch phase {
        case .transferring: ("DOWNLOADING", .stateDownload)
        case .installing: ("INSTALLING", .stateDownload)
        case .queued(let position): ("QUEUED #\(position)", .date)
        case .retrying(_, let seconds): ("RETRYING IN \(seconds) s", .stateFailed)
        case .waiting: ("WAITING", .date)
        case .paused: ("PAUSED", .date)
        case .failed: ("FAILED", .stateFailed)
        }
    }

    /// "  4.2 of 10.0 MB  1.2 MB/s  ETA 0:05" (speed and time left only while transferring).
    static func detailsText(_ entry: DownloadEntry) -> String {
        var parts: [String] = []
        if let received = entry.received {
            parts.append(ByteCountText.progress(received: received, total: entry.total))
        } else if let total = entry.total {
            parts.append("of \(ByteCountText.megabytes(total)) MB")
        }
        if entry.phase == .transferring {
            parts.append(entry.bytesPerSecond > 0 ? RateText.speed(entry.bytesPerSecond) : "– KB/s")
            parts.append("ETA " + (entry.secondsRemaining.map(RateText.duration) ?? "–"))
        }
        return parts.isEmpty ? "" : " " + parts.joined(separator: "  ")
    }

    /// The third line: the last problem, or what the row is waiting for.
    static func noteText(_ entry: DownloadEntry, maxAttempts: Int) -> (String, Bool) {
        switch entry.phase {
        case .retrying(let attempt, _):
            return ("attempt \(attempt) of \(maxAttempts) next: \(entry.lastError ?? "a transient failure")", true)
        case .failed:
            return ("\(entry.lastError ?? "failed") · r retries", true)
        case .waiting:
            return (entry.lastError ?? DownloadQueue.lockedElsewhereReason, false)
        case .queued:
            return ("waiting for a free transfer slot · K/J move it", false)
        case .paused:
            return ("paused · p resumes" + (entry.lastError.map { " · last error: \($0)" } ?? ""), false)
        case .transferring, .installing:
            return (entry.lastError.map { "last error: \($0)" } ?? "", entry.lastError != nil)
        }
    }
}

/// Speeds and durations for the downloads screen: "256 KB/s", "1.2 MB/s", "0:05", "1:02:03".
enum RateText {
    static func speed(_ bytesPerSecond: Double) -> String {
        if bytesPerSecond < 1_048_576 { return String(format: "%.0f KB/s", bytesPerSecond / 1024) }
        return String(format: "%.1f MB/s", bytesPerSecond / 1_048_576)
    }

    static func duration(_ seconds: Int) -> String {
        let s = max(0, seconds)
        return s >= 3600 ? String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) : String(format: "%d:%02d", s / 60, s % 60)
    }
}
