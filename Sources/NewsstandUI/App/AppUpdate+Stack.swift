/// The screen stack: keys go to the screen on top, messages to every screen on the stack, and what a screen answers
/// (stay, push, pop, reset, with effects) is applied here and nowhere else.
extension AppUpdate {
    /// Hands a command to the screen on top.
    static func handleOnTop(_ command: Command, key: Key, _ state: inout AppState) -> [Effect] {
        guard let index = state.screens.indices.last else { return [] }
        var screen = state.screens[index]
        state.screens[index] = .shelf  // the screen's storage is held once while it changes
        let answer = screen.handle(command, key: key, body: state.body, shared: &state.shared)
        state.screens[index] = screen
        return apply(answer, &state)
    }

    /// Applies what the screen at `index` (the top one unless said) answered to the stack.
    static func apply(_ answer: ScreenAnswer, at index: Int? = nil, _ state: inout AppState) -> [Effect] {
        let index = index ?? state.screens.count - 1
        switch answer.move {
        case .stay:
            return answer.effects
        case .push(let screen):
            state.screens.insert(screen, at: index + 1)
            return answer.effects
        case .replace(let screen):
            state.screens[index] = screen
            return answer.effects
        case .pop:
            guard index > 0 else { return answer.effects }
            let closed = state.screens.remove(at: index)
            var revealed = state.screens[index - 1]
            state.screens[index - 1] = .shelf
            let effects = revealed.returned(from: closed, body: state.body, shared: &state.shared)
            state.screens[index - 1] = revealed
            return answer.effects + effects + shelfEffects(&state)
        case .reset(let screens):
            state.screens = screens.first == .shelf ? screens : [.shelf] + screens
            return answer.effects + shelfEffects(&state)
        }
    }

    /// Hands a submitted prompt to the screen on top (the one that opened it).
    static func submitOnTop(_ prompt: Prompt, _ state: inout AppState) -> [Effect] {
        guard let index = state.screens.indices.last else { return [] }
        var screen = state.screens[index]
        state.screens[index] = .shelf
        let answer = screen.submit(prompt, body: state.body, shared: &state.shared)
        state.screens[index] = screen
        return apply(answer, &state)
    }

    /// Hands a confirmed question (a mark deleted, a progress sync offer taken) to every screen on the stack, the top
    /// one first: the reader and the marks list over it both change.
    static func submitToAll(_ prompt: Prompt, _ state: inout AppState) -> [Effect] {
        eachScreenFromTheTop(&state) { screen, body, shared in screen.submit(prompt, body: body, shared: &shared) }
    }

    /// Offers a message to every screen on the stack, the top one first.
    static func offer(_ message: Message, _ state: inout AppState) -> [Effect] {
        eachScreenFromTheTop(&state) { screen, body, shared in screen.receive(message, body: body, shared: &shared) }
    }

    /// Asks every screen on the stack, the top one first, and applies each answer at its place (a screen an answer
    /// closed is not asked).
    private static func eachScreenFromTheTop(_ state: inout AppState,
                                             _ ask: (inout Screen, Rect, inout SharedState) -> ScreenAnswer) -> [Effect] {
        var effects: [Effect] = []
        for index in state.screens.indices.reversed() where index < state.screens.count {
            var screen = state.screens[index]
            state.screens[index] = .shelf  // lets go of the screen's storage while it changes, so changing it copies nothing
            let answer = ask(&screen, state.body, &state.shared)
            state.screens[index] = screen
            effects += apply(answer, at: index, &state)
        }
        return effects
    }

    /// Fits every screen on the stack to the terminal's new size.
    static func fitScreens(_ state: inout AppState) -> [Effect] {
        var effects: [Effect] = []
        for index in state.screens.indices {
            var screen = state.screens[index]
            state.screens[index] = .shelf
            effects += screen.fit(body: state.body, shared: &state.shared)
            state.screens[index] = screen
        }
        return effects
    }
}
