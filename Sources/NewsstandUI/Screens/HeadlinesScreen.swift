import NewsstandContent
import NewsstandCore

/// A publication's headlines: feed items with nothing to download (news, announcements), newest first as the feed gives them.
public enum HeadlinesScreen {
    public static func render(_ state: AppState, theme: Theme, into buffer: inout CellBuffer) {
        guard let publication = state.selectedSubscription else { return }
        let area = Rect(x: 0, y: 1, width: state.width, height: state.height - 2)
        buffer.write("HEADLINES · \(publication.title)", x: 2, y: area.y, style: theme[.heading], maxWidth: area.width - 4)
        let headlines = state.library.headlines[publication.id] ?? []
        guard !headlines.isEmpty else {
            buffer.write("This feed has no headlines: every item in it is an issue.", x: 2, y: area.y + 2, style: theme[.summary], maxWidth: area.width - 4)
            return
        }
        var y = area.y + 2
        for headline in headlines.dropFirst(state.headlinesScroll) {
            guard y + 1 < area.maxY else { break }
            buffer.write(headline.title, x: 2, y: y, style: theme[.title], maxWidth: area.width - 4)
            let detail = [headline.date.map(DateText.long), headline.link?.absoluteString].compactMap { $0 }.joined(separator: " · ")
            buffer.write(detail, x: 4, y: y + 1, style: theme[.date], maxWidth: area.width - 6)
            if y + 2 < area.maxY, let line = TextWrapper.wrap(headline.summary, width: max(1, area.width - 6)).first, !line.isEmpty {
                buffer.write(line, x: 4, y: y + 2, style: theme[.summary], maxWidth: area.width - 6)
            }
            y += 4
        }
    }
}
