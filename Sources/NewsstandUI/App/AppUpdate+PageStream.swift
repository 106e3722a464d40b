import NewsstandCore
import NewsstandImaging

/// Streamed pages (OPDS-PSE): opening an entry's stream, turning its pages, and the pages as they arrive —
/// the one shown and the next fetched ahead, a failed page said in its place while the others still turn.
extension AppUpdate {
    /// Shows `entry`'s pages in place of the screen on top (the choice of its files), so that going back
    /// returns to the catalog as it was.
    static func openPageStream(_ entry: CatalogEntry, _ stream: CatalogPageStream, _ state: inout AppState) -> [Effect] {
        let viewer = PageStreamViewer(title: entry.title, stream: stream, drawing: pageDrawing(state))
        if case .acquisitions? = state.screens.last { state.screens.removeLast() }
        state.screens.append(.streamedPages(viewer))
        return pageStreamEffects(&state)
    }

    static func handlePageStream(_ command: Command, _ viewer: PageStreamViewer, _ state: inout AppState) -> [Effect] {
        if command == .back { return goBack(&state) }
        guard let turn = pageTurn(command, from: viewer.page, count: viewer.stream.pageCount) else { return [] }
        guard let next = turn else {
            state.message = pastTheEndMessage(command)
            return []
        }
        var viewer = viewer
        viewer.turn(to: next)
        state.screens[state.screens.count - 1] = .streamedPages(viewer)
        return pageStreamEffects(&state)
    }

    /// Asks for the pages the viewer on top wants and has neither drawn nor asked for: the one shown, then the next.
    static func pageStreamEffects(_ state: inout AppState) -> [Effect] {
        guard case .streamedPages(var viewer)? = state.screens.last else { return [] }
        let requests = viewer.requestWantedPages()
        state.screens[state.screens.count - 1] = .streamedPages(viewer)
        return requests.map(Effect.fetchStreamedPage)
    }

    static func streamedPageFetched(_ request: StreamedPageRequest, _ result: Result<TextArt, ReaderFailure>, _ state: inout AppState) -> [Effect] {
        updatePageStream(of: request, &state) { $0.receive(result, for: request) }
        return []
    }

    static func streamedPageSkipped(_ request: StreamedPageRequest, _ state: inout AppState) -> [Effect] {
        updatePageStream(of: request, &state) { $0.forget(request) }
        return pageStreamEffects(&state)
    }

    /// After a resize: pages are drawn again at the new size (the page shown and the next asked for again).
    static func pageStreamResized(_ state: inout AppState) -> [Effect] {
        let drawing = pageDrawing(state)
        for index in state.screens.indices {
            guard case .streamedPages(var viewer) = state.screens[index] else { continue }
            viewer.redraw(at: drawing)
            state.screens[index] = .streamedPages(viewer)
        }
        return pageStreamEffects(&state)
    }

    /// The size and look pages are drawn at in this window: as a comic book's page.
    static func pageDrawing(_ state: AppState) -> PageDrawing {
        let (columns, rows) = ArticleScreen.pagePictureSize(in: state.body)
        return PageDrawing(columns: columns, rows: rows, mode: state.coverMode, background: state.isLightBackground ? .light : .dark)
    }

    private static func updatePageStream(of request: StreamedPageRequest, _ state: inout AppState, _ change: (inout PageStreamViewer) -> Void) {
        state.updateScreen { screen in
            guard case .streamedPages(var viewer) = screen, viewer.stream == request.stream else { return false }
            change(&viewer)
            screen = .streamedPages(viewer)
            return true
        }
    }
}
