import Foundation
import NewsstandCore

/// The headlines screen's commands: move, read an item (`F`: its whole article), hand its audio or video file to the
/// player, open its link, mark it read or unread (`N`), star it (`*`).
extension AppUpdate {
    static func handleHeadlines(_ command: Command, _ headlines: HeadlinesState, _ state: inout AppState) -> [Effect] {
        var headlines = headlines
        let selected = headlines.headlines.flatMap { items in items.indices.contains(headlines.cursor.selection) ? items[headlines.cursor.selection] : nil }
        switch command {
        case .back:
            return goBack(&state)
        case .tap:
            return openFeedArticle(headlines, &state)
        case .fetchWholeArticle:
            return openWholeArticle(headlines, &state)
        case .toggleRead:
            guard let selected, let key = selected.key else { return [] }
            let read = !selected.isRead
            headlines.update(key) { $0.isRead = read; if read { $0.isNew = false } }
            state.screens[state.screens.count - 1] = .headlines(headlines)
            state.message = StatusMessage("Marked “\(selected.title)” \(read ? "read" : "unread").")
            return [.markHeadlineRead(publicationID: headlines.publicationID, key: key, read: read)]
        case .toggleStar:
            guard let selected, let key = selected.key else { return [] }
            let starred = !selected.isStarred
            headlines.update(key) { $0.isStarred = starred }
            state.screens[state.screens.count - 1] = .headlines(headlines)
            state.message = StatusMessage(starred ? "Starred “\(selected.title)”: it is kept until unstarred." : "Unstarred “\(selected.title)”.")
            return [.starHeadline(publicationID: headlines.publicationID, key: key, starred: starred)]
        case .playMedia:
            guard let selected else { return [] }
            guard let media = selected.mediaURL else {
                state.message = StatusMessage("This headline has no audio or video file to play")
                return []
            }
            if let refusal = refusal(of: media, publicationID: headlines.publicationID, state) {
                state.message = StatusMessage("Not played: \(refusal)", isError: true)
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
            if let refusal = refusal(of: link, publicationID: headlines.publicationID, state) {
                state.message = StatusMessage("Not opened: \(refusal)", isError: true)
                return []
            }
            return [.openLink(link)]
        default:
            headlines.cursor.apply(command, count: headlines.headlines?.count ?? 0, page: HeadlinesScreen.layout(in: state.body).page)
            state.screens[state.screens.count - 1] = .headlines(headlines)
            return []
        }
    }

    /// Why a headline's link or file is not handed to the browser or the player: its feed may not point there
    /// (``DocumentOrigin``; a feed from the network never to a local file). A publication not in view is held
    /// to the network's rule, the strictest.
    static func refusal(of url: URL, publicationID: Int64, _ state: AppState) -> String? {
        let publication = state.library.publications.first { $0.id == publicationID }
        return (publication.map(DocumentOrigin.init(of:)) ?? .network).refusal(of: url)
    }
}
