import NewsstandCore
import NewsstandImaging

/// What the screens share, as one value: the terminal's size, the library's window, the shelf, covers,
/// downloads, the prompt, the status message and the settings. A screen is handed it `inout` (`ScreenModel`);
/// everything a screen alone needs is in the screen's own state.
public struct SharedState: Equatable, Sendable {
    public var width: Int
    public var height: Int
    /// The publications, their counts, the issue being read and a window of issues per shelf in view.
    public var library = LibraryWindow()
    /// Which publication's shelf is shown, and where each shelf's cursor is.
    public var shelf = ShelfState()
    /// Rendered covers, by the request they answer (asked for once; those that could not be drawn keep their
    /// placeholder); a row only ever looks up its own issue's key. Kept for the issues of the library's windows only.
    public var covers = ArtCache<CoverArtRequest>()
    public var message: StatusMessage?
    /// A refresh the user asked for is under way (its result is announced even when nothing changed).
    public var isRefreshRequested = false
    public var isLightBackground = false
    public var isRunning = true
    /// The longest line of article text, in columns (the `measure` setting).
    public var articleMeasure = ArticleLayout.defaultMeasure
    /// How covers and article pictures are drawn as text: chosen from the terminal's capabilities, or by the user.
    public var coverMode: CoverArtMode = .ascii
    /// The terminal picture protocol covers and pictures are shown with instead of text art; nil for text art.
    public var pictureProtocol: PictureProtocol?
    /// One cell's size in pixels: a picture over N × M cells is made at most N × width by M × height pixels.
    public var cellPixelSize: CellPixelSize = .fallback
    /// A question on the bottom line (a feed URL, a title, a search, a link number, a login), when one is open.
    public var prompt: Prompt?
    /// Servers waiting to ask for a login while another prompt is open, first come first asked.
    public var pendingLogins: [LoginRequest] = []
    /// Every download's figures (sizes, speed, attempts), kept up to date from download events whatever screen is shown.
    public var downloads = DownloadsState()
    /// The keys in effect: `KeyMap` with the config's `bind` and `unbind` lines applied.
    public var keys = KeyTable.standard
    /// The reader's speed, for the time left in an article.
    public var readingPace = ReadingPace()
    /// The config's `full-text`: when headlines of feeds without their own setting get their whole article.
    public var fullTextDefault: FullTextMode = .ask
    /// For screen readers: the terminal cursor on the selected row or the reading line (`AppView.cursor`), no covers,
    /// pictures or decoration, and state changes said in words on the status line.
    public var screenReader = false
    /// Seconds (since 1970) when the message being handled arrived, set by the front end: `AppUpdate` reads no clock.
    public var clock: Double = 0

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// The area screens draw in: between the header bar and the status line.
    public var body: Rect { AppView.body(width: width, height: height) }

    // MARK: The shelf

    public var currentPublication: Publication? {
        library.publications.indices.contains(shelf.selectedPublication) ? library.publications[shelf.selectedPublication] : nil
    }

    /// Whether the shown shelf can be drawn whole: the library's overview is in and the shown shelf's window is not
    /// still being read. The neighbouring shelves' windows, read ahead for switching, are not waited for.
    public var isShownShelfReady: Bool {
        guard library.hasLoaded else { return false }
        guard let publication = currentPublication else { return true }
        return library.requestedWindows[publication.id] == nil
    }

    /// The current shelf's window of issues, once loaded.
    public var currentWindow: IssueWindow? { currentPublication.flatMap { library.windows[$0.id] } }

    /// Issues in the current publication, from SQL (the window holds only some of them).
    public var currentIssueCount: Int { currentPublication.map { library.issueCount($0.id) } ?? 0 }

    /// The current shelf's cursor.
    public var shelfCursor: ListCursor {
        get { currentPublication.flatMap { shelf.cursors[$0.id] } ?? ListCursor() }
        set { if let publication = currentPublication { shelf.cursors[publication.id] = newValue } }
    }

    /// The selected issue of the shelf, when its window has it.
    public var selectedIssueValue: Issue? { currentWindow?.issue(at: shelfCursor.selection) }

    /// The issue being read, when it is downloaded and belongs to the publication on the shelf: the shelf offers to continue it.
    public var continueReadingIssue: Issue? {
        guard let issue = library.readingIssue, issue.publicationID == currentPublication?.id, issue.state == .available else { return nil }
        return issue
    }

    /// The shelf's layout in the current window size.
    public var shelfLayout: ShelfLayout {
        ShelfLayout(area: body, mode: shelf.viewMode, hasNotice: currentPublication?.lastError != nil, hasContinueLine: continueReadingIssue != nil,
                    compact: screenReader)
    }

    /// The cover request for an issue at a size, in this state's mode and background.
    public func coverRequest(issueID: Int64, columns: Int, rows: Int) -> CoverArtRequest {
        CoverArtRequest(issueID: issueID, columns: columns, rows: rows, background: isLightBackground ? .light : .dark, mode: coverMode,
                        cellPixels: pictureCellPixels)
    }

    /// The cell size pictures are made for when they are shown as terminal pictures; nil when they are drawn as text.
    public var pictureCellPixels: CellPixelSize? { pictureProtocol == nil ? nil : cellPixelSize }

    /// An issue the interface has in a window (or the one being read), by id; nil when it is not loaded.
    public func loadedIssue(id: Int64) -> Issue? {
        if let issue = library.readingIssue, issue.id == id { return issue }
        return library.loadedIssue(id: id)
    }
}
