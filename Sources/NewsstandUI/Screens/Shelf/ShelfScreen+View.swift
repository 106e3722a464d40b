import Foundation
import NewsstandContent
import NewsstandCore

/// The shelf: a publication's issues, newest first, each with its cover, title, date, summary and state.
extension ShelfScreen {
    public static func render(_ state: SharedState, in area: Rect, theme: Theme, into buffer: inout CellBuffer) {
        let layout = state.shelfLayout
        guard let publication = state.currentPublication else {
            let text = state.library.hasLoaded ? "No subscriptions yet. Add one with: newsstand subscribe URL" : "Opening the library…"
            buffer.write(text, x: 2, y: layout.listArea.y + 1, style: theme[.summary], maxWidth: layout.listArea.width - 4)
            return
        }
        if let problem = publication.lastError {
            buffer.writeLine(" ⚠ " + problem, in: area.row(0), style: theme[.error])
        }
        if let line = layout.continueLine, let issue = state.continueReadingIssue {
            let article = state.library.readingPosition.map { ", article \($0.articleIndex + 1)" } ?? ""
            var x = line.x + 2
            x += buffer.write("▶ Continue reading ", x: x, y: line.y, style: theme[.readingMarker])
            x += buffer.write("\(issue.title)\(article)", x: x, y: line.y, style: theme[.title], maxWidth: line.maxX - x - 4)
            buffer.write("  c", x: x, y: line.y, style: theme[.helpKey], maxWidth: line.maxX - x)
        }
        let count = state.currentIssueCount
        if count == 0 {
            guard state.library.knowsIssueCount(publication.id) else { return }
            let filter = state.library.view.filter
            let text = filter == .all ? "No issues in this publication's catalog yet. Press \(state.keys.label(of: .refresh, on: .shelf)) to refresh."
                : "No \(filter == .new ? "NEW" : filter.rawValue) issues here: \(state.keys.label(of: .cycleFilter, on: .shelf)) shows others."
            buffer.write(text, x: 2, y: layout.listArea.y + 1, style: theme[.summary], maxWidth: layout.listArea.width - 4)
            return
        }
        let cursor = state.shelfCursor
        let window = state.currentWindow
        for (offset, index) in cursor.visibleRange(count: count, page: layout.page).enumerated() {
            let rect = layout.itemRect(offset: offset)
            guard rect.height > 0 else { break }
            let isSelected = index == cursor.selection
            guard let issue = window?.issue(at: index) else {
                // Not read from the library yet (it arrives in a moment, off the UI thread).
                let highlight = RowHighlight(theme: theme, isSelected: isSelected)
                let line = layout.mode == .grid ? Rect(x: rect.x, y: rect.y + layout.coverRows, width: rect.width, height: 1) : rect.row(0)
                highlight.paint(line, barColumn: layout.mode == .grid ? rect.x - 1 : rect.x, barRows: line.y..<line.maxY, into: &buffer)
                buffer.write("…", x: line.x + (layout.mode == .grid ? 0 : 2), y: line.y, style: highlight.style(.summary))
                continue
            }
            let isReading = issue.id == state.library.readingIssue?.id
            if layout.mode == .grid {
                renderTile(issue, in: rect, layout: layout, isSelected: isSelected, isReading: isReading, state: state, theme: theme, into: &buffer)
            } else {
                renderRow(issue, in: rect, layout: layout, isSelected: isSelected, isReading: isReading, state: state, theme: theme, into: &buffer)
            }
        }
    }

    /// The cover of an issue at a layout's cover size: its art when it has arrived, else a placeholder.
    static func cover(for issue: Issue, columns: Int, rows: Int, state: SharedState) -> CoverView {
        let request = state.coverRequest(issueID: issue.id, columns: columns, rows: rows)
        return CoverView(art: state.covers[request], hasFailed: state.covers.hasFailed(request) || !issue.mayHaveCover)
    }

    /// One issue in the grid: a large cover with title, date and state beneath it.
    static func renderTile(_ issue: Issue, in rect: Rect, layout: ShelfLayout, isSelected: Bool, isReading: Bool,
                           state: SharedState, theme: Theme, into buffer: inout CellBuffer) {
        let (top, text) = rect.splitTop(layout.coverRows)
        let coverArea = top.splitLeft(layout.coverColumns).0
        cover(for: issue, columns: layout.coverColumns, rows: layout.coverRows, state: state).render(in: coverArea, theme: theme, into: &buffer)
        let lines = Rect(x: text.x, y: text.y, width: text.width, height: min(3, text.height))
        let highlight = RowHighlight(theme: theme, isSelected: isSelected)
        highlight.paint(lines, barColumn: rect.x - 1, barRows: rect.y..<lines.maxY, into: &buffer)
        let style = highlight.style
        let marker: (String, ThemeElement)? = isReading ? ("READING", .readingMarker) : issue.isNew ? ("NEW", .newMarker)
            : issue.isStarred ? ("★", .newMarker) : nil
        let markerWidth = marker.map { $0.0.count + 1 } ?? 0
        buffer.write(issue.title, x: lines.x, y: lines.y, style: style(.title), maxWidth: lines.width - markerWidth)
        if let (label, element) = marker { buffer.write(label, x: lines.maxX - label.count, y: lines.y, style: theme[element]) }
        if lines.height > 1 { buffer.write(DateText.long(issue.date), x: lines.x, y: lines.y + 1, style: style(.date), maxWidth: lines.width) }
        if lines.height > 2 {
            renderState(issue, in: lines.row(2), downloads: state.downloads, showsBytes: false, style: style, theme: theme, into: &buffer)
        }
    }

    static func renderRow(_ issue: Issue, in rect: Rect, layout: ShelfLayout, isSelected: Bool, isReading: Bool,
                          state: SharedState, theme: Theme, into buffer: inout CellBuffer) {
        let contentHeight = layout.coverRows > 0 ? layout.coverRows : layout.itemHeight - 1
        let row = Rect(x: rect.x, y: rect.y, width: rect.width, height: min(rect.height, contentHeight))
        var rest = row.splitLeft(2).1
        let highlight = RowHighlight(theme: theme, isSelected: isSelected)
        highlight.paint(row, barColumn: row.x, barRows: row.y..<row.maxY, into: &buffer)
        if layout.coverColumns > 0 {
            let (coverArea, text) = rest.splitLeft(layout.coverColumns)
            cover(for: issue, columns: layout.coverColumns, rows: layout.coverRows, state: state).render(in: coverArea, theme: theme, into: &buffer)
            rest = text.splitLeft(2).1
        }
        let style = highlight.style
        var y = rest.y
        // Title, with NEW / READING markers at the right.
        var markers: [(String, ThemeElement)] = []
        if isReading { markers.append((" READING ", .readingMarker)) }
        if issue.isNew { markers.append((" NEW ", .newMarker)) }
        if issue.isStarred { markers.append((" ★ ", .newMarker)) }
        let markerWidth = markers.reduce(0) { $0 + $1.0.count + 1 }
        buffer.write(issue.title, x: rest.x, y: y, style: style(.title), maxWidth: rest.width - markerWidth)
        var markerX = rest.maxX - markerWidth
        for (label, element) in markers {
            markerX += buffer.write(label, x: markerX + 1, y: y, style: theme[element]) + 1
        }
        y += 1
        if y < rest.maxY { buffer.write(DateText.long(issue.date), x: rest.x, y: y, style: style(.date), maxWidth: rest.width); y += 1 }
        let stateY = rest.maxY - 1
        if layout.coverColumns > 0 {
            y += 1
            let summaryLines = TextWrapper.wrap(issue.summary, width: rest.width)
            for line in summaryLines.prefix(max(0, stateY - 1 - y)) {
                buffer.write(line, x: rest.x, y: y, style: style(.summary), maxWidth: rest.width)
                y += 1
            }
        }
        let stateArea = Rect(x: rest.x, y: max(y, stateY), width: rest.width, height: 1)
        if stateArea.y < rest.maxY {
            renderState(issue, in: stateArea, downloads: state.downloads, showsBytes: true, style: style, theme: theme, into: &buffer)
        }
    }

    /// The state line: TAP TO DOWNLOAD, a progress bar (with bytes when `showsBytes`), TAP TO READ, or the failure.
    /// The state and the figures are the downloads model's (`DownloadsState.state(of:)`).
    static func renderState(_ issue: Issue, in area: Rect, downloads: DownloadsState, showsBytes: Bool, style: (ThemeElement) -> TextStyle,
                            theme: Theme, into buffer: inout CellBuffer) {
        let shown = downloads.state(of: issue)
        let download = downloads.entries[issue.id]
        switch shown {
        case .notDownloaded where !issue.isDownloadable:
            buffer.write("NOTHING TO DOWNLOAD", x: area.x, y: area.y, style: style(.summary), maxWidth: area.width)
        case .notDownloaded:
            buffer.write("TAP TO DOWNLOAD", x: area.x, y: area.y, style: style(.stateDownload), maxWidth: area.width)
        case .available:
            buffer.write("TAP TO READ", x: area.x, y: area.y, style: style(.stateRead), maxWidth: area.width)
        case .downloading, .paused:
            let sizeText = (shown == .paused ? " PAUSED" : "")
                + (showsBytes ? download.flatMap { entry in entry.received.map { " " + ByteCountText.progress(received: $0, total: entry.total) } } ?? "" : "")
            let barWidth = min(40, max(min(10, area.width), area.width - sizeText.count - 1))
            ProgressBar(fraction: downloads.fraction(of: issue), doneStyle: style(.progressDone), remainingStyle: style(.progressRemaining))
                .render(in: Rect(x: area.x, y: area.y, width: min(barWidth, area.width), height: 1), into: &buffer)
            buffer.write(sizeText, x: area.x + barWidth, y: area.y, style: style(.summary), maxWidth: area.width - barWidth)
        case .failed(let reason):
            buffer.write("FAILED: \(reason) · Enter to retry", x: area.x, y: area.y, style: style(.stateFailed), maxWidth: area.width)
        }
    }
}

/// Byte counts for progress text: "1.2 of 3.4 MB".
enum ByteCountText {
    static func progress(received: Int64, total: Int64?) -> String {
        guard let total, total > 0 else { return megabytes(received) + " MB" }
        return "\(megabytes(received)) of \(megabytes(total)) MB"
    }

    static func megabytes(_ bytes: Int64) -> String {
        String(format: "%.1f", Double(bytes) / 1_048_576)
    }
}
