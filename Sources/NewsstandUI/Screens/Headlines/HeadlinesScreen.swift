import Foundation
import NewsstandCore

/// The headlines screen (`h` on the subscriptions screen): a publication's feed items that have nothing to download,
/// to read (Enter; `F` with its whole article), play, open, mark read or unread (`N`) and star (`*`).
public struct HeadlinesScreen: ScreenModel {
    public let publicationID: Int64
    public let title: String
    /// nil while they load.
    public var headlines: [Headline]?
    public var cursor = ListCursor()
    /// The links whose whole article is kept (they open offline), read after the list.
    public var wholeArticles: Set<URL> = []

    public init(publicationID: Int64, title: String, headlines: [Headline]? = nil) {
        self.publicationID = publicationID
        self.title = title
        self.headlines = headlines
    }

    public var kind: ScreenKind { .headlines }
    public var screen: Screen { .headlines(self) }

    /// Changes the listed headline known by `key` (a mark shown at once; the library is changed in the background).
    mutating func update(_ key: String, _ change: (inout Headline) -> Void) {
        guard let index = headlines?.firstIndex(where: { $0.key == key }) else { return }
        change(&headlines![index])
    }

    var selected: Headline? {
        headlines.flatMap { items in items.indices.contains(cursor.selection) ? items[cursor.selection] : nil }
    }

    public mutating func handle(_ command: Command, key: Key, body: Rect, shared: inout SharedState) -> ScreenAnswer {
        let selected = selected
        switch command {
        case .back:
            return .pop()
        case .tap, .fetchWholeArticle:
            guard let selected else { return .stay() }
            guard let items = headlines else { return .stay() }
            var article = FeedArticleScreen(publicationID: publicationID, index: cursor.selection, of: items)
            var effects: [Effect] = [.loadHeadlineArticle(publicationID: publicationID, index: cursor.selection)]
            if command == .fetchWholeArticle { effects += article.fetchWholeArticle(link: selected.link, &shared) }
            return .push(.feedArticle(article), effects)
        case .toggleRead:
            guard let selected, let key = selected.key else { return .stay() }
            let read = !selected.isRead
            update(key) { $0.isRead = read; if read { $0.isNew = false } }
            shared.message = StatusMessage("Marked “\(selected.title)” \(read ? "read" : "unread").")
            return .stay([.markHeadlineRead(publicationID: publicationID, key: key, read: read)])
        case .toggleStar:
            guard let selected, let key = selected.key else { return .stay() }
            let starred = !selected.isStarred
            update(key) { $0.isStarred = starred }
            shared.message = StatusMessage(starred ? "Starred “\(selected.title)”: it is kept until unstarred." : "Unstarred “\(selected.title)”.")
            return .stay([.starHeadline(publicationID: publicationID, key: key, starred: starred)])
        case .playMedia:
            guard let selected else { return .stay() }
            guard let media = selected.mediaURL else {
                shared.message = StatusMessage("This headline has no audio or video file to play")
                return .stay()
            }
            if let refusal = AppUpdate.refusal(of: media, publicationID: publicationID, shared) {
                shared.message = StatusMessage("Not played: \(refusal)", isError: true)
                return .stay()
            }
            shared.message = StatusMessage("Playing \(selected.title)")
            return .stay([.playMedia(media)])
        case .openLink:
            guard let selected else { return .stay() }
            guard let link = selected.link ?? selected.mediaURL else {
                shared.message = StatusMessage("This headline has no link")
                return .stay()
            }
            if let refusal = AppUpdate.refusal(of: link, publicationID: publicationID, shared) {
                shared.message = StatusMessage("Not opened: \(refusal)", isError: true)
                return .stay()
            }
            return .stay([.openLink(link)])
        default:
            cursor.apply(command, count: headlines?.count ?? 0, page: Self.layout(in: body).page)
            return .stay()
        }
    }

    /// Its list, read again after a sync (which may bring headlines, or read and starred states from an account's
    /// server); a headline opened is read at once; whole articles kept are marked.
    public mutating func receive(_ message: Message, body: Rect, shared: inout SharedState) -> ScreenAnswer {
        switch message {
        case .headlinesLoaded(let id, let result) where id == publicationID:
            headlines = (try? result.get()) ?? []
            cursor.keepVisible(count: headlines?.count ?? 0, page: Self.layout(in: body).page)
        case .publicationsRefreshed:
            return .stay([.loadHeadlines(publicationID: publicationID)])
        case .headlineArticleLoaded(let id, let index, .success) where id == publicationID:
            guard let items = headlines, items.indices.contains(index) else { break }
            headlines?[index].isRead = true
            headlines?[index].isNew = false
        case .wholeArticlesListed(let id, let links) where id == publicationID:
            wholeArticles = links
        case .headlineArticleFetched(let id, _, let link, .success(let stored)) where id == publicationID && stored.article.readerable:
            wholeArticles.insert(link)
        default:
            break
        }
        return .stay()
    }

    /// Back from a headline's article (`→` / `←` may have gone on to others): the list follows the article read.
    public mutating func returned(from closed: Screen, body: Rect, shared: inout SharedState) -> [Effect] {
        guard case .feedArticle(let article) = closed, article.publicationID == publicationID else { return [] }
        cursor.select(article.index, count: headlines?.count ?? 0, page: Self.layout(in: body).page)
        return []
    }

    public mutating func fit(body: Rect, shared: inout SharedState) -> [Effect] {
        cursor.keepVisible(count: headlines?.count ?? 0, page: Self.layout(in: body).page)
        return []
    }

    public func render(_ shared: SharedState, in body: Rect, theme: Theme, into buffer: inout CellBuffer) -> String {
        Self.render(self, in: body, theme: theme, into: &buffer)
        return Self.listPosition(cursor, count: headlines?.count ?? 0)
    }

    public func readingCursor(_ shared: SharedState, in body: Rect) -> (x: Int, y: Int) { Self.row(Self.layout(in: body), cursor, in: body) }
}
