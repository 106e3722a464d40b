import Foundation
import NewsstandCore

/// The headlines screen's commands: move, hand an item's audio or video file to the player, open its link.
extension AppUpdate {
    static func handleHeadlines(_ command: Command, _ headlines: HeadlinesState, _ state: inout AppState) -> [Effect] {
        var headlines = headlines
        let selected = headlines.headlines.flatMap { items in items.indices.contains(headlines.cursor.selection) ? items[headlines.cursor.selection] : nil }
        switch command {
        case .back:
            return goBack(&state)
        case .tap:
            return openFeedArticle(headlines, &state)
        case .playMedia:
            guard let selected else { return [] }
            guard let media = selected.mediaURL else {
                state.message = StatusMessage("This headline has no audio or video file to play")
                return []
            }
            state.message = StatusMessage("Playing \(selected.title)")
            return [.playMedia(media)]
        case .openLink:
            guard let selected else { return [] }
            guard let link = selected.link ?? selected.mediaURL else {
                state.message = StatusMessage("This headline has no link")
                return []
            }
            return [.openLink(link)]
        default:
            headlines.cursor.apply(command, count: headlines.headlines?.count ?? 0, page: HeadlinesScreen.layout(in: state.body).page)
            state.screens[state.screens.count - 1] = .headlines(headlines)
            return []
        }
    }
}
