import NewsstandCore

/// The issue page (`i` on the shelf): the selected issue's cover large, with its details; the arrows go to the
/// next or previous issue of the shelf, whose cursor (in `SharedState.shelf`) it shares, so this type holds none.
public struct DetailScreen: ScreenModel {
    public init() {}

    public var kind: ScreenKind { .detail }
    public var screen: Screen { .detail }

    public mutating func handle(_ command: Command, key: Key, body: Rect, shared: inout SharedState) -> ScreenAnswer {
        var cursor = shared.shelfCursor
        let count = shared.currentIssueCount
        let page = shared.shelfLayout.page
        switch command {
        case .moveDown, .pageDown: cursor.select(cursor.selection + 1, count: count, page: page)
        case .moveUp, .pageUp: cursor.select(cursor.selection - 1, count: count, page: page)
        case .top: cursor.select(0, count: count, page: page)
        case .bottom: cursor.select(count - 1, count: count, page: page)
        case .tap:
            var answer = ShelfScreen.tap(&shared)
            if answer.move == .stay { answer.effects += AppUpdate.coverEffects(&shared, showing: .detail) }
            return answer
        case .back:
            return .pop()
        default:
            return .stay()
        }
        shared.shelfCursor = cursor
        AppUpdate.rememberSelection(&shared)
        return .stay(AppUpdate.shelfEffects(&shared, showing: .detail))
    }

    public func render(_ shared: SharedState, in body: Rect, theme: Theme, into buffer: inout CellBuffer) -> String {
        Self.render(shared, in: body, theme: theme, into: &buffer)
        return AppView.shelfPosition(shared)
    }
}
