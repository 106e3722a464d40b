/// The screen stack: keys go to the screen on top, messages to every screen on the stack, and what a screen answers
/// (stay, push, pop, reset, with effects) is applied here and nowhere else.
extension AppUpdate {
    /// Hands a command to the screen on top; nil when that screen is not on the `ScreenModel` protocol yet.
    static func handleOnTop(_ command: Command, key: Key, _ state: inout AppState) -> [Effect]? {
        guard let index = state.screens.indices.last else { return nil }
        var screen = state.screens[index]
        state.screens[index] = .shelf  // the screen's storage is held once while it changes
        let answer = screen.handle(command, key: key, body: state.body, shared: &state.shared)
        state.screens[index] = screen
        return answer.map { apply($0, &state) }
    }

    /// Applies what a screen answered to the stack.
    static func apply(_ answer: ScreenAnswer, _ state: inout AppState) -> [Effect] {
        switch answer.move {
        case .stay:
            return answer.effects
        case .push(let screen):
            state.screens.append(screen)
            return answer.effects
        case .pop:
            if state.screens.count > 1 { state.screens.removeLast() }
            return answer.effects + shelfEffects(&state)
        case .reset(let screens):
            state.screens = screens.first == .shelf ? screens : [.shelf] + screens
            return answer.effects + shelfEffects(&state)
        }
    }

    /// Offers a message to every screen on the stack, the top one first.
    static func offer(_ message: Message, _ state: inout AppState) -> [Effect] {
        var effects: [Effect] = []
        for index in state.screens.indices.reversed() {
            var screen = state.screens[index]
            state.screens[index] = .shelf
            effects += screen.receive(message, body: state.body, shared: &state.shared)
            state.screens[index] = screen
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
