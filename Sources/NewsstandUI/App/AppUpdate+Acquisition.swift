import Foundation
import NewsstandCore

/// Acquiring one title from a catalog: the choice of links, and what choosing one does.
extension AppUpdate {
    static func offerAcquisitions(_ entry: CatalogEntry, _ state: inout AppState) -> [Effect] {
        state.screens.append(.acquisitions(AcquisitionChoice(entry: entry)))
        return []
    }

    static func handleAcquisitions(_ command: Command, _ choice: AcquisitionChoice, _ state: inout AppState) -> [Effect] {
        var choice = choice
        if choice.cursor.apply(command, count: choice.rowCount, page: AcquisitionScreen.layout(in: state.body).page) {
            state.screens[state.screens.count - 1] = .acquisitions(choice)
            return []
        }
        switch command {
        case .back:
            return goBack(&state)
        case .tap:
            guard let link = choice.link(atRow: choice.cursor.selection) else {
                guard let stream = choice.pageStream, choice.cursor.selection == 0 else { return [] }
                return openPageStream(choice.entry, stream, &state)
            }
            guard link.kind.isFollowed else {
                state.message = StatusMessage("A \(link.kind.rawValue) link: Newsstand only downloads open-access and plain acquisition links.")
                return []
            }
            guard link.isDownloadable else {
                state.message = StatusMessage("\(link.format) is not a format Newsstand reads (EPUB, PDF or comic).")
                return []
            }
            state.message = StatusMessage("Getting \(choice.entry.title) (\(link.format)) into the Library shelf…")
            return [.acquireTitle(choice.entry, link)]
        default:
            return []
        }
    }

    /// `X` on the shelf: asks before removing the selected title, only in the Library shelf.
    static func askToRemoveTitle(_ state: inout AppState) -> [Effect] {
        guard let issue = state.selectedIssueValue else { return [] }
        guard state.library.publications.first(where: { $0.id == issue.publicationID })?.feedURL == TitleAcquirer.libraryURL else {
            return askToDeleteDownload(issue, &state)
        }
        if [.downloading, .paused].contains(state.downloads.state(of: issue)) {
            state.message = StatusMessage("\(issue.title) is downloading: cancel it first (x), then remove it.")
            return []
        }
        state.prompt = Prompt(.confirmRemoveTitle(issueID: issue.id, title: issue.title))
        return []
    }

    static func confirmRemoveTitle(_ issueID: Int64, key: Key, _ state: inout AppState) -> [Effect] {
        confirmed(key, &state, then: .removeTitle(issueID: issueID), otherwise: "Nothing was removed.")
    }

    /// The answer to a y/n question on the bottom line: y (or Y) does `effect`, any other key says `otherwise`.
    static func confirmed(_ key: Key, _ state: inout AppState, then effect: Effect, otherwise: String) -> [Effect] {
        state.prompt = nil
        guard key == .character("y") || key == .character("Y") else {
            state.message = StatusMessage(otherwise)
            return []
        }
        return [effect]
    }

    static func titleAcquired(_ result: Result<String, ReaderFailure>, _ state: inout AppState) -> [Effect] {
        switch result {
        case .success(let title):
            state.message = StatusMessage("Downloading \(title) into the Library shelf (D shows the downloads).")
            if case .acquisitions? = state.screens.last { state.screens.removeLast() }
        case .failure(let failure):
            state.message = StatusMessage(failure.reason, isError: true)
        }
        return []
    }
}
