/// The kinds of screen, for key bindings, hints and the help (`Screen` carries each one's state). The help lists
/// their keys in this order, each under its `helpTitle`; the config's `bind` lines name them by `name`.
public enum ScreenKind: Hashable, Sendable, CaseIterable {
    case shelf
    /// One issue's page: its cover large, with its details.
    case detail
    case contents
    case article
    /// The article while a passage is chosen to highlight (`v`).
    case selection
    /// The open issue's bookmarks, to jump to one.
    case bookmarks
    /// The open issue's highlights and notes, to jump to one.
    case highlights
    /// Results of a search across every downloaded issue.
    case searchResults
    /// Every download: running, queued, retrying, paused and failed, with the queue's controls.
    case downloads
    /// Every subscription with its feed, policy, last refresh and counts.
    case subscriptions
    /// A publication's feed items that have nothing to download.
    case headlines
    /// Space used per publication, and what the storage budget would remove.
    case storage
    /// Accounts on feed servers (the Google Reader API), to add and remove.
    case accounts
    /// A feed's catalog: navigation entries to follow (OPDS) and its issues.
    case catalog
    /// The ways a catalog offers one title (format, size, kind), to download one into the Library shelf.
    case acquisitions
    /// A catalog entry's pages streamed one at a time from its server (OPDS-PSE), nothing downloaded.
    case streamedPages
    /// Every key (its own keys are the help's last line).
    case help

    /// How the config and `newsstand keys` write the screen.
    public var name: String {
        switch self {
        case .shelf: "shelf"
        case .detail: "issue-page"
        case .contents: "contents"
        case .article: "article"
        case .selection: "selecting-a-passage"
        case .bookmarks: "bookmarks"
        case .highlights: "highlights"
        case .searchResults: "search-results"
        case .downloads: "downloads"
        case .subscriptions: "subscriptions"
        case .headlines: "headlines"
        case .storage: "storage"
        case .accounts: "accounts"
        case .catalog: "catalog"
        case .acquisitions: "getting-a-title"
        case .streamedPages: "streamed-pages"
        case .help: "help"
        }
    }

    /// The heading of its keys in the help, the manual page and `newsstand keys`; nil for the help itself.
    public var helpTitle: String? {
        switch self {
        case .shelf: "Shelf"
        case .detail: "Issue page"
        case .contents: "Table of contents"
        case .article: "Article"
        case .selection: "Selecting a passage"
        case .bookmarks: "Bookmarks"
        case .highlights: "Highlights and notes"
        case .searchResults: "Search results"
        case .downloads: "Downloads"
        case .subscriptions: "Subscriptions"
        case .headlines: "Headlines"
        case .storage: "Storage"
        case .accounts: "Accounts"
        case .catalog: "Catalog"
        case .acquisitions: "Getting a title"
        case .streamedPages: "Streamed pages"
        case .help: nil
        }
    }

    public init?(name: String) {
        guard let screen = ScreenKind.allCases.first(where: { $0.name == name.lowercased() }) else { return nil }
        self = screen
    }
}
