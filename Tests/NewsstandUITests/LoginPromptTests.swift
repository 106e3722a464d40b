import XCTest
import NewsstandCore
@testable import NewsstandUI

/// The login prompt a 401 opens: user, then the password shown as `•`s, then whether to save it.
final class LoginPromptTests: XCTestCase {
    let theme = Theme.fallback
    let retry = Effect.refreshPublication(publicationID: 1)

    func state() -> AppState {
        Fixtures.state(width: 120, height: 24, issues: [Fixtures.issue(1, "A")])
    }

    func type(_ text: String, _ state: inout AppState) {
        for character in text { XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character(character))), []) }
    }

    func screenText(_ state: AppState) -> String {
        AppView.render(state, theme: theme).lines().joined(separator: "\n")
    }

    func bottomLine(_ state: AppState) -> String {
        AppView.render(state, theme: theme).lines()[state.height - 1]
    }

    /// Progress sync's refused login is asked for like any other, naming what it is for, and answered with the
    /// login to save under its realm (the runtime turns the password into the key) and the work to resume.
    func testProgressSyncsLoginIsAskedForByName() {
        var state = state()
        let realm = CredentialEntry.progressSyncRealm
        XCTAssertEqual(AppUpdate.update(&state, .loginRequired(host: "127.0.0.1:8081", realm: realm, retry: .resumeProgressSync)), [])
        XCTAssertEqual(bottomLine(state), " 127.0.0.1:8081 (progress sync) asks for a login. User:")
        type("alice", &state)
        _ = AppUpdate.update(&state, .keyPressed(.enter))
        type("pw", &state)
        _ = AppUpdate.update(&state, .keyPressed(.enter))
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("y"))),
                       [.saveLogin(host: "127.0.0.1:8081", realm: realm, credentials: Credentials(user: "alice", password: "pw"), remember: true),
                        .resumeProgressSync])
    }

    func testAsksForTheUserThenAMaskedPasswordThenWhetherToSave() {
        var state = state()
        XCTAssertEqual(AppUpdate.update(&state, .loginRequired(host: "127.0.0.1:8080", realm: "Library", retry: retry)), [])
        XCTAssertEqual(bottomLine(state), " 127.0.0.1:8080 (Library) asks for a login. User:")
        type("alice", &state)
        XCTAssertEqual(bottomLine(state), " 127.0.0.1:8080 (Library) asks for a login. User: alice")
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.enter)), [])
        XCTAssertEqual(bottomLine(state), " Password for alice at 127.0.0.1:8080:")

        type("hunter2", &state)
        XCTAssertEqual(bottomLine(state), " Password for alice at 127.0.0.1:8080: •••••••")
        for _ in 0..<3 { _ = AppUpdate.update(&state, .keyPressed(.left)) }
        type("X", &state)   // editing keys work on the hidden text
        _ = AppUpdate.update(&state, .keyPressed(.backspace))
        _ = AppUpdate.update(&state, .keyPressed(.end))
        type("!", &state)
        XCTAssertEqual(bottomLine(state), " Password for alice at 127.0.0.1:8080: ••••••••")
        XCTAssertFalse(screenText(state).contains("hunter"), "the typed password is never drawn")
        XCTAssertFalse(String(describing: state.prompt!).contains("hunter"), "nor printed")
        XCTAssertFalse(String(reflecting: state.prompt!).contains("hunter"))

        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.enter)), [])
        XCTAssertEqual(bottomLine(state), " Save this login for alice at 127.0.0.1:8080? y save it · n only until Newsstand quits · Esc cancel")
        XCTAssertFalse(screenText(state).contains("hunter"))
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("x"))), [], "other keys wait for an answer")
        XCTAssertNotNil(state.prompt)
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("y"))),
                       [.saveLogin(host: "127.0.0.1:8080", realm: "Library", credentials: Credentials(user: "alice", password: "hunter2!"), remember: true), retry])
        XCTAssertNil(state.prompt)
        XCTAssertTrue(state.pendingLogins.isEmpty)
        XCTAssertFalse(String(reflecting: state).contains("hunter"), "nothing of the password is left in the state")
    }

    func testNoKeepsTheLoginForTheSessionOnly() {
        var state = state()
        _ = AppUpdate.update(&state, .loginRequired(host: "example.com", realm: nil, retry: retry))
        XCTAssertEqual(bottomLine(state), " example.com asks for a login. User:")
        type("bob", &state)
        _ = AppUpdate.update(&state, .keyPressed(.enter))
        type("pw", &state)
        _ = AppUpdate.update(&state, .keyPressed(.enter))
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("n"))),
                       [.saveLogin(host: "example.com", realm: nil, credentials: Credentials(user: "bob", password: "pw"), remember: false), retry])
    }

    func testEscapeAtAnyStepGivesUpPlainly() {
        for steps in 0..<3 {
            var state = state()
            _ = AppUpdate.update(&state, .loginRequired(host: "example.com", realm: nil, retry: retry))
            if steps > 0 {
                type("bob", &state)
                _ = AppUpdate.update(&state, .keyPressed(.enter))
            }
            if steps > 1 {
                type("pw", &state)
                _ = AppUpdate.update(&state, .keyPressed(.enter))
            }
            XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.escape)), [], "step \(steps)")
            XCTAssertNil(state.prompt)
            XCTAssertEqual(state.message, StatusMessage("No login given for example.com."))
            XCTAssertTrue(bottomLine(state).contains("No login given for example.com."), bottomLine(state))
        }
    }

    func testEmptyAnswersAndBackspaceDoNotCloseTheLoginPrompt() {
        var state = state()
        _ = AppUpdate.update(&state, .loginRequired(host: "example.com", realm: nil, retry: retry))
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.enter)), [])
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.backspace)), [])
        type("  ", &state)
        _ = AppUpdate.update(&state, .keyPressed(.enter))
        guard case .loginUser = state.prompt?.kind else { return XCTFail("still asking for the user: \(String(describing: state.prompt))") }
        type("bob", &state)
        _ = AppUpdate.update(&state, .keyPressed(.enter))
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.enter)), [], "an empty password is not an answer")
        guard case .loginPassword(_, let user) = state.prompt?.kind else { return XCTFail("still asking for the password") }
        XCTAssertEqual(user, "bob", "the user name is trimmed")
    }

    func testRequestsWhileAPromptIsOpenWaitTheirTurnAndRepeatsJoinTheFirst() {
        var state = state()
        _ = AppUpdate.update(&state, .keyPressed(.character("s")))
        _ = AppUpdate.update(&state, .keyPressed(.character("a")))
        type("https://x", &state)
        let other = Effect.refreshPublications
        _ = AppUpdate.update(&state, .loginRequired(host: "a.example", realm: nil, retry: retry))
        _ = AppUpdate.update(&state, .loginRequired(host: "b.example", realm: "R", retry: other))
        _ = AppUpdate.update(&state, .loginRequired(host: "a.example", realm: nil, retry: other))
        _ = AppUpdate.update(&state, .loginRequired(host: "a.example", realm: nil, retry: retry))
        XCTAssertEqual(state.prompt?.kind, .addSubscription, "the open prompt is not taken away")
        XCTAssertEqual(state.pendingLogins, [LoginRequest(host: "a.example", realm: nil, retries: [retry, other]),
                                             LoginRequest(host: "b.example", realm: "R", retries: [other])])
        _ = AppUpdate.update(&state, .keyPressed(.escape))
        XCTAssertEqual(state.prompt?.kind, .loginUser(LoginRequest(host: "a.example", realm: nil, retries: [retry, other])))
        _ = AppUpdate.update(&state, .loginRequired(host: "a.example", realm: nil, retry: .loadLibrary))
        XCTAssertEqual(state.prompt?.kind, .loginUser(LoginRequest(host: "a.example", realm: nil, retries: [retry, other, .loadLibrary])),
                       "a repeat while its prompt is open adds its work")
        type("ann", &state)
        _ = AppUpdate.update(&state, .keyPressed(.enter))
        type("pw", &state)
        _ = AppUpdate.update(&state, .keyPressed(.enter))
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("y"))),
                       [.saveLogin(host: "a.example", realm: nil, credentials: Credentials(user: "ann", password: "pw"), remember: true),
                        retry, other, .loadLibrary])
        XCTAssertEqual(state.prompt?.kind, .loginUser(LoginRequest(host: "b.example", realm: "R", retries: [other])), "then the next server asks")
        XCTAssertTrue(state.pendingLogins.isEmpty)
    }

    func testTheFeedURLFieldMasksThePasswordOfALoginInIt() {
        var state = state()
        _ = AppUpdate.update(&state, .keyPressed(.character("s")))
        _ = AppUpdate.update(&state, .keyPressed(.character("a")))
        type("https://alice:hun", &state)
        XCTAssertEqual(bottomLine(state), " Feed URL: https://alice:•••", "masked while it is typed")
        type("ter2@example.com/feed", &state)
        XCTAssertEqual(bottomLine(state), " Feed URL: https://alice:•••••••@example.com/feed")
        XCTAssertFalse(screenText(state).contains("hunter2"))
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.enter)), [.subscribe(url: "https://alice:hunter2@example.com/feed")],
                       "the runner takes the login out")
        XCTAssertEqual(state.message?.text, "Checking https://example.com/feed…")
        XCTAssertFalse(screenText(state).contains("hunter2"))
        XCTAssertFalse(screenText(state).contains("alice"))
    }

    func testEffectsAndMessagesNeverPrintThePassword() {
        let effect = Effect.saveLogin(host: "example.com", realm: nil, credentials: Credentials(user: "alice", password: "hunter2"), remember: true)
        XCTAssertFalse("\(effect)".contains("hunter2"))
        XCTAssertFalse(String(reflecting: effect).contains("hunter2"))
        let prompt = Prompt(.confirmSaveLogin(LoginRequest(host: "example.com", realm: nil, retries: []), credentials: Credentials(user: "alice", password: "hunter2")))
        XCTAssertFalse(String(reflecting: prompt).contains("hunter2"))
    }
}
