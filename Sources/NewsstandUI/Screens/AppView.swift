import NewsstandCore

/// Draws the whole interface for a state: header, the current screen, status line. Pure: same state, same cells.
public enum AppView {
    public static func render(_ state: AppState, theme: Theme) -> CellBuffer {
        var buffer = CellBuffer(width: state.width, height: state.height, style: theme[.background])
        guard state.width > 0 && state.height > 0 else { return buffer }
        let (header, rest) = buffer.area.splitTop(1)
        let (_, status) = rest.splitBottom(1)
        var newCounts: [Int64: Int] = [:]
        for (publicationID, issues) in state.library.issues { newCounts[publicationID] = issues.filter(\.isNew).count }
        HeaderBar(publications: state.library.publications, selected: state.selectedPublication, newCounts: newCounts)
            .render(in: header, theme: theme, into: &buffer)
        switch state.screen {
        case .shelf: ShelfScreen.render(state, theme: theme, into: &buffer)
        case .detail: DetailScreen.render(state, theme: theme, into: &buffer)
        case .contents: ContentsScreen.render(state, theme: theme, into: &buffer)
        case .article: ArticleScreen.render(state, theme: theme, into: &buffer)
        case .help: HelpScreen.render(state, theme: theme, into: &buffer)
        case .subscriptions: SubscriptionsScreen.render(state, theme: theme, into: &buffer)
        case .headlines: HeadlinesScreen.render(state, theme: theme, into: &buffer)
        case .storage: StorageScreen.render(state, theme: theme, into: &buffer)
        case .catalog: CatalogScreen.render(state, theme: theme, into: &buffer)
        case .searchResults: SearchResultsScreen.render(state, theme: theme, into: &buffer)
        case .downloads: DownloadsScreen.render(state, theme: theme, into: &buffer)
        }
        let position: String = switch state.screen {
        case .shelf, .detail: state.currentIssues.isEmpty ? "" : "\(state.selectedIssueIndex + 1)/\(state.currentIssues.count)"
        case .article: ArticleScreen.positionText(state)
        case .subscriptions: state.library.publications.isEmpty ? "" : "\(state.subscriptionSelection + 1)/\(state.library.publications.count)"
        case .contents, .help, .headlines, .storage: ""
        case .catalog: (state.catalog?.current).map { $0.rowCount == 0 ? "" : "\($0.selection + 1)/\($0.rowCount)" } ?? ""
        case .downloads: state.downloads.entries.isEmpty ? "" : "\(state.downloads.selectedIndex + 1)/\(state.downloads.entries.count)"
        case .searchResults: (state.librarySearch?.hits).map { $0.isEmpty ? "" : "\((state.librarySearch?.selection ?? 0) + 1)/\($0.count)" } ?? ""
        }
        if let prompt = state.prompt {
            if prompt.takesText {
                prompt.field.render(label: " " + prompt.label, in: status, style: theme[.message], into: &buffer)
            } else {
                buffer.writeLine(" " + prompt.label, in: status, style: theme[.statusKey])
            }
        } else {
            StatusLine(hints: KeyMap.hints(for: state.screen), message: state.message, position: position)
                .render(in: status, theme: theme, into: &buffer)
        }
        return buffer
    }
}
