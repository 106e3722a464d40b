import NewsstandCore
import NewsstandUI

/// The first frame a start draws, worked out ahead: the start's state given the library's overview and then the shown
/// shelf's window, as the runner reads them at a start (`EffectRunner.readShownShelfAhead`), and laid out.
/// The program keeps it at quit for the next start (`LastShelfFile`), which can draw it before the library is read.
public enum FirstShelfFrame {
    /// The frame, or nil when the library cannot be read or the shown shelf would not be complete.
    public static func render(from start: AppState, loader: LibraryLoader, theme: Theme) -> CellBuffer? {
        guard let overview = try? loader.overview() else { return nil }
        var state = start
        _ = AppUpdate.update(&state, .libraryLoaded(overview))
        if let request = AppUpdate.shownShelfRequest(after: overview, in: start) {
            guard let window = try? loader.window(request) else { return nil }
            _ = AppUpdate.update(&state, .issuesReadAhead(request, window))
        }
        guard state.shared.isShownShelfReady else { return nil }
        return AppView.render(state, theme: theme)
    }
}
