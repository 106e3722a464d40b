import NewsstandCore
import NewsstandImaging

/// Everything the interface shows, as one value. `AppUpdate` changes it; screens draw it.
public struct AppState: Equatable, Sendable {
    public var width: Int
    public var height: Int
    public var library = LibrarySnapshot(publications: [], issues: [:], currentlyReadingIssueID: nil)
    public var hasLoadedLibrary = false
    public var selectedPublication = 0
    /// Selected issue per publication, by publication id.
    public var selectedIssue: [Int64: Int] = [:]
    /// First issue shown per publication (the shelf's scroll position).
    public var shelfScroll: [Int64: Int] = [:]
    /// Rendered covers, by the request they answer; a row only ever looks up its own issue's key.
    public var covers: [CoverArtRequest: TextArt] = [:]
    /// Covers that could not be drawn (the row keeps its placeholder).
    public var failedCovers: Set<CoverArtRequest> = []
    /// Covers already asked for, so they are asked for once.
    public var requestedCovers: Set<CoverArtRequest> = []
    /// Bytes received and expected for running downloads, for the progress text.
    public var transferSizes: [Int64: TransferSize] = [:]
    /// Attempts per download (the queue's `DownloadPolicy.maxAttempts`), for "attempt 2 of 5".
    public var maxDownloadAttempts = DownloadPolicy().maxAttempts
    public var screens: [ScreenKind] = [.shelf]
    /// List or grid; remembered between runs.
    public var shelfViewMode: ShelfViewMode = .list
    public var reader: ReaderState?
    public var helpScroll = 0
    /// Selected row of the subscriptions screen.
    public var subscriptionSelection = 0
    /// First headline shown on the headlines screen.
    public var headlinesScroll = 0
    /// The storage screen's figures, once measured.
    public var storage: StorageReport?
    /// The catalog being browsed, when one is.
    public var catalog: CatalogBrowser?
    public var message: StatusMessage?
    /// A refresh the user asked for is under way (its result is announced even when nothing changed).
    public var isRefreshRequested = false
    public var isLightBackground = false
    public var isRunning = true
    /// The longest line of article text, in columns (the `measure` setting).
    public var articleMeasure = ArticleLayout.defaultMeasure
    /// How covers and article pictures are drawn: chosen from the terminal's capabilities, or by the user.
    public var coverMode: CoverArtMode = .ascii
    /// A question on the bottom line (a feed URL, a title, a search, a link number), when one is open.
    public var prompt: Prompt?
    /// The search across issues shown on the results screen.
    public var librarySearch: LibrarySearch?
    /// The downloads screen's model, kept up to date from download events whatever screen is shown.
    public var downloads = DownloadsState()

    /// The library setting that remembers the shelf's view.
    public static let shelfViewSetting = "shelf_view"

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    public var screen: ScreenKind { screens.last ?? .shelf }

    public var currentPublication: Publication? {
        library.publications.indices.contains(selectedPublication) ? library.publications[selectedPublication] : nil
    }

    public var currentIssues: [Issue] {
        currentPublication.flatMap { library.issues[$0.id] } ?? []
    }

    public var selectedIssueIndex: Int {
        guard let publication = currentPublication else { return 0 }
        return min(selectedIssue[publication.id] ?? 0, max(0, currentIssues.count - 1))
    }

    public var selectedIssueValue: Issue? {
        let issues = currentIssues
        return issues.indices.contains(selectedIssueIndex) ? issues[selectedIssueIndex] : nil
    }

    /// The issue being read, when it is downloaded and belongs to the publication on the shelf: the shelf offers to continue it.
    public var continueReadingIssue: Issue? {
        guard let id = library.currentlyReadingIssueID, let issue = currentIssues.first(where: { $0.id == id }), issue.state == .available else { return nil }
        return issue
    }

    /// The publication selected on the subscriptions screen.
    public var selectedSubscription: Publication? {
        library.publications.indices.contains(subscriptionSelection) ? library.publications[subscriptionSelection] : nil
    }

    /// The cover request for an issue at a size, in this state's mode and background.
    public func coverRequest(issueID: Int64, columns: Int, rows: Int) -> CoverArtRequest {
        CoverArtRequest(issueID: issueID, columns: columns, rows: rows, background: isLightBackground ? .light : .dark, mode: coverMode)
    }

    /// Finds an issue anywhere in the library.
    public func issue(id: Int64) -> Issue? {
        for issues in library.issues.values {
            if let issue = issues.first(where: { $0.id == id }) { return issue }
        }
        return nil
    }
}

/// Bytes received so far and expected in all, for a running download.
public struct TransferSize: Equatable, Sendable {
    public var received: Int64
    public var total: Int64?
}

/// A line of news for the status bar: what just happened, or what went wrong.
public struct StatusMessage: Equatable, Sendable {
    public var text: String
    public var isError: Bool

    public init(_ text: String, isError: Bool = false) {
        self.text = text
        self.isError = isError
    }
}
