/// The stack's one dispatch from a `Screen` case to its `ScreenModel`: everything else reaches a screen through these.
extension Screen {
    /// The screen's own value, as the protocol it conforms to.
    var model: any ScreenModel {
        switch self {
        case .shelf: ShelfScreen()
        case .detail: DetailScreen()
        case .feedArticle(let screen): screen
        case .help(let screen): screen
        case .storage(let screen): screen
        case .subscriptions(let screen): screen
        case .accounts(let screen): screen
        case .downloads(let screen): screen
        case .headlines(let screen): screen
        case .searchResults(let screen): screen
        case .acquisitions(let screen): screen
        case .catalog(let screen): screen
        case .streamedPages(let screen): screen
        case .reader(let screen): screen
        case .marks(let screen): screen
        }
    }

    /// Changes the screen through its model and stores it back.
    private mutating func change<Result>(_ body: (inout any ScreenModel) -> Result) -> Result {
        var model = model
        self = .shelf  // lets go of the model's storage while it changes, so that changing it copies nothing
        let result = body(&model)
        self = model.screen
        return result
    }

    mutating func handle(_ command: Command, key: Key, body: Rect, shared: inout SharedState) -> ScreenAnswer {
        change { $0.handle(command, key: key, body: body, shared: &shared) }
    }

    mutating func receive(_ message: Message, body: Rect, shared: inout SharedState) -> ScreenAnswer {
        change { $0.receive(message, body: body, shared: &shared) }
    }

    mutating func submit(_ prompt: Prompt, body: Rect, shared: inout SharedState) -> ScreenAnswer {
        change { $0.submit(prompt, body: body, shared: &shared) }
    }

    mutating func returned(from closed: Screen, body: Rect, shared: inout SharedState) -> [Effect] {
        change { $0.returned(from: closed, body: body, shared: &shared) }
    }

    mutating func fit(body: Rect, shared: inout SharedState) -> [Effect] {
        change { $0.fit(body: body, shared: &shared) }
    }
}
