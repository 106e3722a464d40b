import Foundation
import NewsstandCore
import NewsstandImaging
@testable import NewsstandUI

/// Small libraries and states for screen tests.
enum Fixtures {
    static let publication = Publication(id: 1, name: "kettle", title: "Kettle & Compass", feedURL: URL(string: "https://example.com/catalog.plist")!)
    static let second = Publication(id: 2, name: "other", title: "Other Weekly", feedURL: URL(string: "https://example.com/other.plist")!)

    static func issue(_ id: Int64, _ title: String, state: IssueState = .notDownloaded, progress: Double = 0, day: Int = 1,
                      opened: Bool = true, publicationID: Int64 = 1) -> Issue {
        Issue(id: id, publicationID: publicationID, name: "issue-\(id)", title: title,
              date: DateComponents(calendar: Calendar(identifier: .gregorian), timeZone: TimeZone(identifier: "UTC"), year: 2026, month: 3, day: day, hour: 12).date!,
              summary: "Summary of \(title).", coverURL: URL(string: "https://example.com/\(id).png"),
              contentURLs: [URL(string: "https://example.com/\(id).epub")!], state: state, progress: progress,
              openedAt: opened ? Date(timeIntervalSince1970: 1) : nil, arrivedNew: !opened)
    }

    /// A loaded state with the given issues (in shelf order) in their publications: the overview, then each
    /// shelf's window as the runtime would read it (`ShelfFixture` answers the window requests).
    static func state(width: Int = 80, height: Int = 24, issues: [Issue], publications: [Publication] = [publication],
                      reading: Int64? = nil) -> AppState {
        var state = AppState(width: width, height: height)
        let shelves = ShelfFixture(publications: publications, issues: issues)
        shelves.apply(.libraryLoaded(shelves.overview(reading: reading)), to: &state)
        return state
    }

    /// Art whose every character is `symbol`, to see where a cover lands.
    static func art(_ symbol: Character, columns: Int = 12, rows: Int = 8) -> TextArt {
        TextArt(columns: columns, rows: rows, lines: Array(repeating: String(repeating: symbol, count: columns), count: rows))
    }
}

/// An in-memory library that answers the interface's library effects (`.loadLibrary`, `.loadIssues`) as the
/// runtime's `LibraryLoader` does over SQL, so screen tests see windows arrive. Issues are in shelf order as given.
struct ShelfFixture {
    var publications: [Publication]
    var issues: [Issue]

    func shelf(_ publicationID: Int64) -> [Issue] { issues.filter { $0.publicationID == publicationID } }

    func overview(reading: Int64? = nil) -> LibraryOverview {
        var counts: [Int64: IssueCounts] = [:]
        for publication in publications {
            let shelf = shelf(publication.id)
            counts[publication.id] = IssueCounts(total: shelf.count, downloaded: shelf.filter { $0.state == .available }.count,
                                                 new: shelf.filter(\.isNew).count)
        }
        return LibraryOverview(publications: publications, counts: counts, readingIssue: reading.flatMap { id in issues.first { $0.id == id } })
    }

    /// Issues downloading, paused or failed, in id order.
    func unfinishedDownloads() -> [Issue] {
        issues.filter { [.downloading, .paused].contains($0.state) || { if case .failed = $0.state { true } else { false } }($0) }.sorted { $0.id < $1.id }
    }

    func window(_ request: IssueWindowRequest) -> IssueWindow {
        let shelf = shelf(request.publicationID)
        let start: Int
        switch request.anchor {
        case .first: start = 0
        case .last: start = max(0, shelf.count - request.count)
        case .key(let key, let before): start = (shelf.firstIndex { $0.id == key.id } ?? 0) - before
        case .issue(let id, let before): start = (shelf.firstIndex { $0.id == id } ?? 0) - before
        }
        let first = min(max(0, start), shelf.count)
        return IssueWindow(publicationID: request.publicationID, start: first, issues: Array(shelf[first..<min(shelf.count, first + request.count)]),
                           total: shelf.count)
    }

    /// Applies a message and answers the library effects that follow, until none are left; returns the other effects.
    @discardableResult
    func apply(_ message: Message, to state: inout AppState) -> [Effect] {
        var pending = AppUpdate.update(&state, message)
        var others: [Effect] = []
        var rounds = 0
        while !pending.isEmpty, rounds < 100 {
            rounds += 1
            let effect = pending.removeFirst()
            switch effect {
            case .loadLibrary: pending += AppUpdate.update(&state, .libraryLoaded(overview()))
            case .loadIssues(let request): pending += AppUpdate.update(&state, .issuesLoaded(window(request), selecting: request.selecting))
            case .loadUnfinishedDownloads: pending += AppUpdate.update(&state, .unfinishedDownloadsLoaded(unfinishedDownloads()))
            default: others.append(effect)
            }
        }
        return others
    }
}

/// Screens' own state as tests look at it: the topmost screen of a kind.
extension AppState {
    var catalog: CatalogScreen? {
        screens.reversed().lazy.compactMap { if case .catalog(let browser) = $0 { browser } else { nil } }.first
    }

    var librarySearch: SearchResultsScreen? {
        screens.reversed().lazy.compactMap { if case .searchResults(let search) = $0 { search } else { nil } }.first
    }

    /// An issue's download state as the shelf shows it: the downloads model's, else the library's row.
    func shownState(ofIssue id: Int64) -> IssueState? { loadedIssue(id: id).map(shared.downloads.state(of:)) }

    /// The selected issue's download state as the shelf shows it.
    var selectedShownState: IssueState? { shared.selectedIssueValue.map(shared.downloads.state(of:)) }

    var downloadsCursor: DownloadsScreen? {
        screens.reversed().lazy.compactMap { if case .downloads(let cursor) = $0 { cursor } else { nil } }.first
    }
}
