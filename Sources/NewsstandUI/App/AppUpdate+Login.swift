import NewsstandCore

/// Asking for a login when a server wants one: the user, then the password (shown as `•`s), then whether to
/// save it; then `.saveLogin` and the work to retry. Esc at any step gives up, saying so.
extension AppUpdate {
    /// Opens the login prompt for `request`, or, while another prompt is open, queues it. A request for a login
    /// already being asked for or queued (same host and realm) only adds its work to retry.
    static func loginRequired(_ request: LoginRequest, _ state: inout AppState) -> [Effect] {
        if var prompt = state.prompt, let asked = loginRequest(of: prompt), asked.isSameLogin(as: request) {
            prompt.kind = withRetries(prompt.kind, adding: request.retries)
            state.prompt = prompt
            return []
        }
        if let index = state.pendingLogins.firstIndex(where: { $0.isSameLogin(as: request) }) {
            state.pendingLogins[index].retries.append(contentsOf: request.retries.filter { !state.pendingLogins[index].retries.contains($0) })
            return []
        }
        state.pendingLogins.append(request)
        askNextLogin(&state)
        return []
    }

    /// When no prompt is open, asks for the first login waiting.
    static func askNextLogin(_ state: inout AppState) {
        guard state.prompt == nil, !state.pendingLogins.isEmpty else { return }
        state.prompt = Prompt(.loginUser(state.pendingLogins.removeFirst()))
    }

    /// Keys while a login prompt is open.
    static func handleLoginPrompt(_ key: Key, _ prompt: Prompt, _ state: inout AppState) -> [Effect] {
        var prompt = prompt
        if case .confirmSaveLogin(let request, let credentials) = prompt.kind {
            let remember: Bool
            switch key {
            case .character("y"), .character("Y"): remember = true
            case .character("n"), .character("N"): remember = false
            case .escape, .control("g"): return cancelLogin(request, &state)
            default: return []
            }
            state.prompt = nil
            return [.saveLogin(host: request.host, realm: request.realm, credentials: credentials, remember: remember)] + request.retries
        }
        guard let request = loginRequest(of: prompt) else { return [] }
        if case .character(let character) = key, !prompt.accepts(character) { return [] }
        switch prompt.field.apply(key) {
        case .cancelled:
            return cancelLogin(request, &state)
        case .edited, .ignored:
            state.prompt = prompt
            return []
        case .submitted:
            switch prompt.kind {
            case .loginUser:
                let user = prompt.text.trimmingCharacters(in: .whitespaces)
                guard !user.isEmpty else { return [] }
                state.prompt = Prompt(.loginPassword(request, user: user))
            case .loginPassword(_, let user):
                guard !prompt.text.isEmpty else { return [] }
                state.prompt = Prompt(.confirmSaveLogin(request, credentials: Credentials(user: user, password: prompt.text)))
            default:
                break
            }
            return []
        }
    }

    private static func cancelLogin(_ request: LoginRequest, _ state: inout AppState) -> [Effect] {
        state.prompt = nil
        state.message = StatusMessage("No login given for \(request.host).")
        return []
    }

    /// The request a login prompt is asking for.
    static func loginRequest(of prompt: Prompt) -> LoginRequest? {
        switch prompt.kind {
        case .loginUser(let request), .loginPassword(let request, _), .confirmSaveLogin(let request, _): request
        default: nil
        }
    }

    /// A login prompt's kind with `retries` added to its request (each once).
    private static func withRetries(_ kind: Prompt.Kind, adding retries: [Effect]) -> Prompt.Kind {
        func merged(_ request: LoginRequest) -> LoginRequest {
            var request = request
            request.retries.append(contentsOf: retries.filter { !request.retries.contains($0) })
            return request
        }
        switch kind {
        case .loginUser(let request): return .loginUser(merged(request))
        case .loginPassword(let request, let user): return .loginPassword(merged(request), user: user)
        case .confirmSaveLogin(let request, let credentials): return .confirmSaveLogin(merged(request), credentials: credentials)
        default: return kind
        }
    }
}
