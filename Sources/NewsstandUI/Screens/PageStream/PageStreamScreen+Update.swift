import NewsstandCore
import NewsstandImaging

/// Turning the streamed pages, and the pages as they arrive — the one shown and the next fetched ahead, a failed
/// page said in its place while the others still turn.
extension PageStreamScreen: ScreenModel {
    public var kind: ScreenKind { .streamedPages }
    public var screen: Screen { .streamedPages(self) }

    /// The size and look pages are drawn at in a body: as a comic book's page.
    static func drawing(_ shared: SharedState, body: Rect) -> PageDrawing {
        let (columns, rows) = ArticleScreen.pagePictureSize(in: body)
        return PageDrawing(columns: columns, rows: rows, mode: shared.coverMode, background: shared.isLightBackground ? .light : .dark)
    }

    public mutating func handle(_ command: Command, key: Key, body: Rect, shared: inout SharedState) -> ScreenAnswer {
        if command == .back { return .pop() }
        guard let turn = AppUpdate.pageTurn(command, from: page, count: stream.pageCount) else { return .stay() }
        guard let next = turn else {
            shared.message = AppUpdate.pastTheEndMessage(command)
            return .stay()
        }
        self.turn(to: next)
        return .stay(wantedPages())
    }

    public mutating func receive(_ message: Message, body: Rect, shared: inout SharedState) -> ScreenAnswer {
        switch message {
        case .streamedPageFetched(let request, let result) where request.stream == stream:
            receive(result, for: request)
            return .stay()
        case .streamedPageSkipped(let request) where request.stream == stream:
            forget(request)
            return .stay(wantedPages())
        default:
            return .stay()
        }
    }

    /// Pages are drawn again at the new size (the page shown and the next asked for again).
    public mutating func fit(body: Rect, shared: inout SharedState) -> [Effect] {
        redraw(at: Self.drawing(shared, body: body))
        return wantedPages()
    }

    /// Asks for the pages wanted and neither drawn nor asked for: the one shown, then the next.
    mutating func wantedPages() -> [Effect] { requestWantedPages().map(Effect.fetchStreamedPage) }

    public func render(_ shared: SharedState, in body: Rect, theme: Theme, into buffer: inout CellBuffer) -> String {
        Self.render(self, in: body, theme: theme, into: &buffer)
        return "\(page + 1)/\(stream.pageCount)"
    }
}
