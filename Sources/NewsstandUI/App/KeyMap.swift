/// One row of the key table: a command, its keys, what it does, and where it applies.
public struct KeyBinding: Equatable, Sendable {
    public let command: Command
    public let keys: [Key]
    /// Short name for the status line, e.g. "read".
    public let hint: String
    /// One line for the help screen.
    public let help: String
    public let screens: Set<ScreenKind>
    /// Shown in the status line hints on its screens.
    public let isHinted: Bool

    /// How the keys are written: "↓/j".
    public var keyLabel: String { keys.map(\.label).joined(separator: "/") }
}

/// The one table of key bindings: it drives key handling, the status line hints and the help screen, with the
/// config's `bind` and `unbind` lines applied to it (`KeyTable`).
public enum KeyMap {
    public static let bindings: [KeyBinding] = {
        // While a passage is chosen, only the keys of choosing it work (`b` is a word back there, not page up).
        let all = Set(ScreenKind.allCases).subtracting([.selection])
        let marks: Set<ScreenKind> = [.bookmarks, .highlights]
        let lists: Set<ScreenKind> = [.shelf, .contents]
        return [
            KeyBinding(command: .tap, keys: [.enter, .mouseClick(x: 0, y: 0)], hint: "open", help: "Download the issue, read it, or open the article (a mouse click does the same)", screens: lists.union([.detail]), isHinted: true),
            KeyBinding(command: .moveDown, keys: [.down, .character("j"), .scrollDown], hint: "", help: "Next item / scroll down one line", screens: all, isHinted: false),
            KeyBinding(command: .moveUp, keys: [.up, .character("k"), .scrollUp], hint: "", help: "Previous item / scroll up one line", screens: all, isHinted: false),
            KeyBinding(command: .moveLeft, keys: [.left, .character("h")], hint: "", help: "Previous issue in the grid", screens: [.shelf], isHinted: false),
            KeyBinding(command: .moveRight, keys: [.right, .character("l")], hint: "", help: "Next issue in the grid", screens: [.shelf], isHinted: false),
            KeyBinding(command: .pageDown, keys: [.pageDown, .character(" ")], hint: "", help: "Page down", screens: all, isHinted: false),
            KeyBinding(command: .pageUp, keys: [.pageUp, .character("b")], hint: "", help: "Page up", screens: all, isHinted: false),
            KeyBinding(command: .top, keys: [.home, .character("g")], hint: "", help: "Go to the top", screens: all, isHinted: false),
            KeyBinding(command: .bottom, keys: [.end, .character("G")], hint: "", help: "Go to the bottom", screens: all, isHinted: false),
            KeyBinding(command: .nextPublication, keys: [.tab], hint: "next pub", help: "Next subscribed publication", screens: [.shelf], isHinted: true),
            KeyBinding(command: .previousPublication, keys: [.backTab], hint: "", help: "Previous subscribed publication", screens: [.shelf], isHinted: false),
            KeyBinding(command: .toggleShelfView, keys: [.character("v")], hint: "view", help: "Show the shelf as a grid of covers or as a list (remembered)", screens: [.shelf], isHinted: true),
            KeyBinding(command: .showDetails, keys: [.character("i")], hint: "details", help: "The selected issue's page: its cover large, with its details", screens: [.shelf], isHinted: false),
            KeyBinding(command: .continueReading, keys: [.character("c")], hint: "continue", help: "Continue reading the issue you were reading, where you left off", screens: [.shelf], isHinted: true),
            KeyBinding(command: .cancelDownload, keys: [.character("x")], hint: "cancel", help: "Cancel the selected issue's download", screens: [.shelf], isHinted: false),
            KeyBinding(command: .refresh, keys: [.character("r")], hint: "refresh", help: "Refresh every publication's catalog", screens: [.shelf], isHinted: false),
            KeyBinding(command: .deleteIssue, keys: [.character("X")], hint: "", help: "Delete the selected issue's downloaded file, keeping it on the shelf to download again (asks first); on the Library shelf, remove the title and its file", screens: [.shelf], isHinted: false),
            KeyBinding(command: .toggleRead, keys: [.character("N")], hint: "", help: "Mark the selected issue read or unread (NEW and READING follow)", screens: [.shelf], isHinted: false),
            KeyBinding(command: .toggleStar, keys: [.character("*")], hint: "", help: "Star or unstar the selected issue (on its account's server too): starred issues are never removed to save space", screens: [.shelf], isHinted: false),
            KeyBinding(command: .cycleSort, keys: [.character("o")], hint: "", help: "Sort the shelf: newest first, oldest first, by title (remembered)", screens: [.shelf], isHinted: false),
            KeyBinding(command: .cycleFilter, keys: [.character("f")], hint: "", help: "Show on the shelf: every issue, downloaded ones, NEW ones, unread ones (remembered)", screens: [.shelf], isHinted: false),
            KeyBinding(command: .nextArticle, keys: [.right, .character("l")], hint: "next", help: "Next article (a comic book: next page, as are ↓ Space PgDn; a feed's article: the next headline)", screens: [.article], isHinted: true),
            KeyBinding(command: .previousArticle, keys: [.left, .character("h")], hint: "prev", help: "Previous article (a comic book: previous page, as are ↑ b PgUp; a feed's article: the previous headline)", screens: [.article], isHinted: true),
            KeyBinding(command: .tableOfContents, keys: [.character("t")], hint: "contents", help: "Table of contents", screens: [.article], isHinted: true),
            KeyBinding(command: .help, keys: [.character("?")], hint: "help", help: "Show all keys, this screen's first", screens: [.shelf, .detail, .contents, .article], isHinted: true),
            KeyBinding(command: .back, keys: [.escape, .character("q"), .backspace], hint: "back", help: "Go back (on the shelf, q quits)", screens: [.detail, .contents, .article, .help], isHinted: true),
            KeyBinding(command: .quit, keys: [.character("q"), .control("c")], hint: "quit", help: "Quit (Ctrl-C quits from anywhere)", screens: [.shelf], isHinted: true),
            KeyBinding(command: .quit, keys: [.control("c")], hint: "", help: "", screens: [.detail, .contents, .article, .help], isHinted: false),
            KeyBinding(command: .showSubscriptions, keys: [.character("s")], hint: "subscriptions", help: "Manage subscriptions", screens: [.shelf], isHinted: false),
            KeyBinding(command: .tap, keys: [.enter], hint: "shelf", help: "Show the publication's shelf", screens: [.subscriptions], isHinted: true),
            KeyBinding(command: .addSubscription, keys: [.character("a")], hint: "add", help: "Subscribe to a feed: type or paste its URL (it is fetched and checked first)", screens: [.subscriptions], isHinted: true),
            KeyBinding(command: .removeSubscription, keys: [.character("d")], hint: "remove", help: "Unsubscribe (asks whether to keep the downloaded issues)", screens: [.subscriptions], isHinted: true),
            KeyBinding(command: .renameSubscription, keys: [.character("R")], hint: "rename", help: "Rename the publication", screens: [.subscriptions], isHinted: false),
            KeyBinding(command: .refreshSelected, keys: [.character("r")], hint: "refresh", help: "Refresh the selected feed", screens: [.subscriptions], isHinted: true),
            KeyBinding(command: .refresh, keys: [.character("u")], hint: "", help: "Refresh every feed", screens: [.subscriptions], isHinted: false),
            KeyBinding(command: .cycleAutoDownload, keys: [.character("p")], hint: "policy", help: "Auto-download new issues: none, latest, all", screens: [.subscriptions], isHinted: true),
            KeyBinding(command: .keepMore, keys: [.character("+")], hint: "", help: "Keep one more downloaded issue (past the most: keep all)", screens: [.subscriptions], isHinted: false),
            KeyBinding(command: .keepFewer, keys: [.character("-")], hint: "", help: "Keep one fewer downloaded issue (older ones are removed at the next sync)", screens: [.subscriptions], isHinted: false),
            KeyBinding(command: .showStorage, keys: [.character("S")], hint: "storage", help: "Space used per publication, and what the storage budget would remove", screens: [.shelf, .subscriptions], isHinted: false),
            KeyBinding(command: .importOPML, keys: [.character("I")], hint: "", help: "Import subscriptions from an OPML file (newsboat's export works)", screens: [.subscriptions], isHinted: false),
            KeyBinding(command: .exportOPML, keys: [.character("E")], hint: "", help: "Export the subscriptions to an OPML file", screens: [.subscriptions], isHinted: false),
            KeyBinding(command: .enforceStorageBudget, keys: [.character("x")], hint: "remove now", help: "Remove what is listed now (a sync does it too)", screens: [.storage], isHinted: true),
            KeyBinding(command: .showAccounts, keys: [.character("A")], hint: "accounts", help: "Accounts on feed servers (FreshRSS, Inoreader…): their subscriptions and what was read, shared", screens: [.subscriptions], isHinted: false),
            KeyBinding(command: .addAccount, keys: [.character("a")], hint: "add", help: "Add an account: the API's URL, the user, then the password (never shown; only the server's session is kept)", screens: [.accounts], isHinted: true),
            KeyBinding(command: .removeAccount, keys: [.character("d")], hint: "remove", help: "Remove the selected account (asks first); its subscriptions stay as feeds of your own", screens: [.accounts], isHinted: true),
            KeyBinding(command: .back, keys: [.escape, .character("q"), .backspace], hint: "back", help: "Go back", screens: [.storage, .accounts], isHinted: true),
            KeyBinding(command: .help, keys: [.character("?")], hint: "help", help: "Show all keys, this screen's first", screens: [.storage, .accounts], isHinted: true),
            KeyBinding(command: .quit, keys: [.control("c")], hint: "", help: "", screens: [.storage, .accounts], isHinted: false),
            KeyBinding(command: .chooseCatalogFeed, keys: [.character("F")], hint: "feed", help: "Read another feed of the catalog subscribed to (a series, an author): browse from its root, then u", screens: [.subscriptions], isHinted: false),
            KeyBinding(command: .browseCatalog, keys: [.character("B")], hint: "browse", help: "Browse the feed's catalog: follow OPDS navigation entries", screens: [.subscriptions], isHinted: false),
            KeyBinding(command: .tap, keys: [.enter, .mouseClick(x: 0, y: 0)], hint: "open", help: "Follow the selected catalog entry; on a book or issue, choose a file to get", screens: [.catalog], isHinted: true),
            KeyBinding(command: .tap, keys: [.enter], hint: "get", help: "Download the chosen file into the Library shelf (open-access and plain acquisition only), or stream the pages", screens: [.acquisitions], isHinted: true),
            KeyBinding(command: .nextArticle, keys: [.right, .character("l")], hint: "next", help: "Next page (as are ↓ Space PgDn; Home and End: the first and last page)", screens: [.streamedPages], isHinted: true),
            KeyBinding(command: .previousArticle, keys: [.left, .character("h")], hint: "prev", help: "Previous page (as are ↑ b PgUp)", screens: [.streamedPages], isHinted: true),
            KeyBinding(command: .back, keys: [.escape, .character("q"), .backspace], hint: "back", help: "Back to the catalog", screens: [.acquisitions, .streamedPages], isHinted: true),
            KeyBinding(command: .help, keys: [.character("?")], hint: "help", help: "Show all keys, this screen's first", screens: [.acquisitions, .streamedPages], isHinted: true),
            KeyBinding(command: .quit, keys: [.control("c")], hint: "", help: "", screens: [.acquisitions, .streamedPages], isHinted: false),
            KeyBinding(command: .subscribeToViewedFeed, keys: [.character("a")], hint: "subscribe", help: "Subscribe to the feed on the screen", screens: [.catalog], isHinted: true),
            KeyBinding(command: .searchCatalog, keys: [.character("/")], hint: "search", help: "Search the catalog (OpenSearch): type, then Enter; the results are a catalog page", screens: [.catalog], isHinted: true),
            KeyBinding(command: .showFacets, keys: [.character("f")], hint: "facets", help: "The feed's facets (by author, series, language…): choose one to follow", screens: [.catalog], isHinted: false),
            KeyBinding(command: .useCatalogFeed, keys: [.character("u")], hint: "use feed", help: "Make the feed shown the publication's shelf (opened from the subscriptions with F)", screens: [.catalog], isHinted: false),
            KeyBinding(command: .back, keys: [.escape, .character("q"), .backspace], hint: "back", help: "Back up the catalog (from its first page: to the subscriptions)", screens: [.catalog], isHinted: true),
            KeyBinding(command: .help, keys: [.character("?")], hint: "help", help: "Show all keys, this screen's first", screens: [.catalog], isHinted: true),
            KeyBinding(command: .quit, keys: [.control("c")], hint: "", help: "", screens: [.catalog], isHinted: false),
            KeyBinding(command: .showHeadlines, keys: [.character("H")], hint: "headlines", help: "The feed's headlines: items with nothing to download", screens: [.subscriptions], isHinted: false),
            KeyBinding(command: .tap, keys: [.enter], hint: "read", help: "Read the item in the reader (its text, links numbered)", screens: [.headlines], isHinted: true),
            KeyBinding(command: .playMedia, keys: [.character("p")], hint: "play", help: "Hand the item's audio or video file to the player (player in the config file; else the browser)", screens: [.headlines], isHinted: true),
            KeyBinding(command: .openLink, keys: [.character("o")], hint: "open", help: "Open the item's link (else its file) with the browser (browser in the config file; else xdg-open)", screens: [.headlines], isHinted: true),
            KeyBinding(command: .fetchWholeArticle, keys: [.character("F")], hint: "whole", help: "Read the item's whole article: its link's page fetched, the article taken out, kept with the headline", screens: [.headlines], isHinted: true),
            KeyBinding(command: .fetchWholeArticle, keys: [.character("F")], hint: "", help: "A feed's article: fetch the whole article from its link, in place of the summary (kept with the headline)", screens: [.article], isHinted: false),
            KeyBinding(command: .cycleFullText, keys: [.character("w")], hint: "", help: "Whole articles of the feed's headlines: ask (on opening a short item) → always (at each sync too) → never (only F)", screens: [.subscriptions], isHinted: false),
            KeyBinding(command: .toggleRead, keys: [.character("N")], hint: "", help: "Mark the selected headline read or unread (on its account's server too; reading it marks it read)", screens: [.headlines], isHinted: false),
            KeyBinding(command: .toggleStar, keys: [.character("*")], hint: "", help: "Star or unstar the selected headline (on its account's server too): starred headlines are kept past max-headlines", screens: [.headlines], isHinted: false),
            KeyBinding(command: .back, keys: [.escape, .character("q"), .backspace], hint: "back", help: "Back to the shelf", screens: [.subscriptions, .headlines], isHinted: true),
            KeyBinding(command: .help, keys: [.character("?")], hint: "help", help: "Show all keys, this screen's first", screens: [.subscriptions, .headlines], isHinted: true),
            KeyBinding(command: .quit, keys: [.control("c")], hint: "", help: "", screens: [.subscriptions, .headlines], isHinted: false),
            KeyBinding(command: .searchIssue, keys: [.character("/")], hint: "search", help: "Search this issue: type, Enter searches every article (Esc cancels)", screens: [.contents, .article], isHinted: true),
            KeyBinding(command: .nextMatch, keys: [.character("n")], hint: "", help: "Next match of the search, across articles", screens: [.article], isHinted: false),
            KeyBinding(command: .previousMatch, keys: [.character("N")], hint: "", help: "Previous match of the search, across articles", screens: [.article], isHinted: false),
            KeyBinding(command: .openLink, keys: [.character("o")], hint: "", help: "Open link N of the article: o, the number, Enter (with the browser, else xdg-open)", screens: [.article], isHinted: false),
            KeyBinding(command: .pagePicture, keys: [.character("P")], hint: "", help: "PDF issues: show the page as a picture, or its text again", screens: [.article], isHinted: false),
            KeyBinding(command: .searchLibrary, keys: [.character("/")], hint: "search", help: "Search every downloaded issue: type, then Enter (Esc cancels)", screens: [.shelf, .searchResults], isHinted: true),
            KeyBinding(command: .tap, keys: [.enter, .mouseClick(x: 0, y: 0)], hint: "open", help: "Open the article at the match", screens: [.searchResults], isHinted: true),
            KeyBinding(command: .help, keys: [.character("?")], hint: "help", help: "Show all keys, this screen's first", screens: [.searchResults], isHinted: true),
            KeyBinding(command: .back, keys: [.escape, .character("q"), .backspace], hint: "back", help: "Go back", screens: [.searchResults], isHinted: true),
            KeyBinding(command: .quit, keys: [.control("c")], hint: "", help: "", screens: [.searchResults], isHinted: false),
            KeyBinding(command: .showDownloads, keys: [.character("D")], hint: "downloads", help: "Downloads: pause, resume, reorder, retry, speed limit", screens: [.shelf], isHinted: true),
            KeyBinding(command: .pauseResumeDownload, keys: [.character("p")], hint: "pause/resume", help: "Pause the selected download, or resume it", screens: [.downloads], isHinted: true),
            KeyBinding(command: .cancelDownload, keys: [.character("x")], hint: "cancel", help: "Cancel the selected download and remove what it fetched", screens: [.downloads], isHinted: true),
            KeyBinding(command: .retryDownload, keys: [.character("r")], hint: "retry", help: "Retry the selected failed download", screens: [.downloads], isHinted: true),
            KeyBinding(command: .moveDownloadUp, keys: [.character("K"), .character("+")], hint: "", help: "Move the selected queued download up the line", screens: [.downloads], isHinted: false),
            KeyBinding(command: .moveDownloadDown, keys: [.character("J"), .character("-")], hint: "", help: "Move the selected queued download down the line", screens: [.downloads], isHinted: false),
            KeyBinding(command: .fewerTransfers, keys: [.character("<")], hint: "", help: "One transfer fewer at once (at least 1)", screens: [.downloads], isHinted: false),
            KeyBinding(command: .moreTransfers, keys: [.character(">")], hint: "", help: "One transfer more at once (at most 16)", screens: [.downloads], isHinted: false),
            KeyBinding(command: .cycleRateLimit, keys: [.character("L")], hint: "limit", help: "Rate limit for all downloads: off, 256 KB/s, 1 MB/s, 4 MB/s", screens: [.downloads], isHinted: true),
            KeyBinding(command: .help, keys: [.character("?")], hint: "help", help: "Show all keys, this screen's first", screens: [.downloads], isHinted: true),
            KeyBinding(command: .back, keys: [.escape, .character("q"), .backspace], hint: "back", help: "Back to the shelf", screens: [.downloads], isHinted: true),
            KeyBinding(command: .quit, keys: [.control("c")], hint: "", help: "", screens: [.downloads], isHinted: false),
            KeyBinding(command: .addBookmark, keys: [.character("m")], hint: "", help: "Bookmark the line at the top: name it, or Enter keeps the article and first words", screens: [.article], isHinted: false),
            KeyBinding(command: .showBookmarks, keys: [.character("'")], hint: "", help: "The issue's bookmarks: Enter jumps to one", screens: [.contents, .article], isHinted: false),
            KeyBinding(command: .selectPassage, keys: [.character("v")], hint: "", help: "Choose a passage to highlight, from the top line (then j k w b, Enter or a)", screens: [.article], isHinted: false),
            KeyBinding(command: .showHighlights, keys: [.character("\"")], hint: "", help: "The issue's highlights and notes: Enter jumps to one", screens: [.contents, .article], isHinted: false),
            KeyBinding(command: .moveDown, keys: [.down, .character("j")], hint: "", help: "Take in the passage's next line", screens: [.selection], isHinted: false),
            KeyBinding(command: .moveUp, keys: [.up, .character("k")], hint: "", help: "Give back the passage's last line", screens: [.selection], isHinted: false),
            KeyBinding(command: .nextWord, keys: [.character("w")], hint: "", help: "Take in the next word", screens: [.selection], isHinted: false),
            KeyBinding(command: .previousWord, keys: [.character("b")], hint: "", help: "Give back the last word", screens: [.selection], isHinted: false),
            KeyBinding(command: .tap, keys: [.enter], hint: "highlight", help: "Highlight the passage", screens: [.selection], isHinted: true),
            KeyBinding(command: .addNote, keys: [.character("a")], hint: "note", help: "Highlight the passage with a note: type it, then Enter", screens: [.selection], isHinted: true),
            KeyBinding(command: .back, keys: [.escape, .character("q"), .backspace], hint: "cancel", help: "Stop choosing; nothing is highlighted", screens: [.selection], isHinted: true),
            KeyBinding(command: .tap, keys: [.enter, .mouseClick(x: 0, y: 0)], hint: "go to", help: "Go to the bookmark or highlight in the issue", screens: marks, isHinted: true),
            KeyBinding(command: .addNote, keys: [.character("a")], hint: "note", help: "Write the selected highlight's note, or change it", screens: [.highlights], isHinted: true),
            KeyBinding(command: .deleteMark, keys: [.character("d")], hint: "delete", help: "Delete the selected bookmark or highlight (asks first)", screens: marks, isHinted: true),
            KeyBinding(command: .help, keys: [.character("?")], hint: "help", help: "Show all keys, this screen's first", screens: marks, isHinted: true),
            KeyBinding(command: .back, keys: [.escape, .character("q"), .backspace], hint: "back", help: "Back to the reader", screens: marks, isHinted: true),
            KeyBinding(command: .quit, keys: [.control("c")], hint: "", help: "", screens: marks.union([.selection]), isHinted: false),
        ]
    }()

    /// The command a key means on a screen in the table as it is (the config's `bind` lines aside: see `KeyTable`).
    public static func command(for key: Key, on screen: ScreenKind) -> Command? {
        KeyTable.standard.command(for: key, on: screen)
    }

    /// The bindings hinted in the status line of a screen, in table order (the config's `bind` lines aside).
    public static func hints(for screen: ScreenKind) -> [KeyBinding] {
        KeyTable.standard.hints(for: screen)
    }
}
