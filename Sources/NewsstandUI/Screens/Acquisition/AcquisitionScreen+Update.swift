import NewsstandCore

/// Choosing one of the links: downloading it into the Library shelf, or reading the entry's pages streamed.
extension AcquisitionScreen: ScreenModel {
    public var kind: ScreenKind { .acquisitions }
    public var screen: Screen { .acquisitions(self) }

    public mutating func handle(_ command: Command, key: Key, body: Rect, shared: inout SharedState) -> ScreenAnswer {
        if cursor.apply(command, count: rowCount, page: Self.layout(in: body).page) { return .stay() }
        switch command {
        case .back:
            return .pop()
        case .tap:
            guard let link = link(atRow: cursor.selection) else {
                guard let stream = pageStream, cursor.selection == 0 else { return .stay() }
                // The pages in place of this choice: going back from them returns to the catalog as it was.
                var viewer = PageStreamScreen(title: entry.title, stream: stream, drawing: PageStreamScreen.drawing(shared, body: body))
                let effects = viewer.wantedPages()
                return .replace(.streamedPages(viewer), effects)
            }
            guard link.kind.isFollowed else {
                shared.message = StatusMessage("A \(link.kind.rawValue) link: Newsstand only downloads open-access and plain acquisition links.")
                return .stay()
            }
            guard link.isDownloadable else {
                shared.message = StatusMessage("\(link.format) is not a format Newsstand reads (EPUB, PDF or comic).")
                return .stay()
            }
            shared.message = StatusMessage("Getting \(entry.title) (\(link.format)) into the Library shelf…")
            return .stay([.acquireTitle(entry, link)])
        default:
            return .stay()
        }
    }

    /// The title is on its way into the Library shelf: the choice is done.
    public mutating func receive(_ message: Message, body: Rect, shared: inout SharedState) -> ScreenAnswer {
        if case .titleAcquired(.success) = message { return .pop() }
        return .stay()
    }

    public mutating func fit(body: Rect, shared: inout SharedState) -> [Effect] {
        cursor.keepVisible(count: rowCount, page: Self.layout(in: body).page)
        return []
    }

    public func render(_ shared: SharedState, in body: Rect, theme: Theme, into buffer: inout CellBuffer) -> String {
        Self.render(self, in: body, theme: theme, into: &buffer)
        return Self.listPosition(cursor, count: rowCount)
    }

    public func readingCursor(_ shared: SharedState, in body: Rect) -> (x: Int, y: Int) { Self.row(Self.layout(in: body), cursor, in: body) }
}
