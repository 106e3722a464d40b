import Foundation
import XCTest
import NewsstandCore
@testable import NewsstandUI

/// The accounts screen (`A` on the subscriptions screen): the list, adding an account through the bottom line with the
/// password never shown, and removing one after a `y`.
final class AccountsScreenTests: XCTestCase {
    let theme = Theme.fallback

    private func type(_ text: String, _ state: inout AppState) {
        for character in text { _ = AppUpdate.update(&state, .keyPressed(.character(character))) }
    }

    func testTheAccountsScreenListsAddsAndRemoves() {
        var state = Fixtures.state(width: 100, height: 24, issues: [])
        _ = AppUpdate.update(&state, .keyPressed(.character("s")))
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("A"))), [.loadAccounts])
        XCTAssertEqual(state.screen, .accounts)
        XCTAssertTrue(AppView.render(state, theme: theme).lines()[3].contains("Loading…"))
        _ = AppUpdate.update(&state, .accountsLoaded([]))
        XCTAssertTrue(AppView.render(state, theme: theme).lines()[3].contains("No accounts. Press a to add one"), AppView.render(state, theme: theme).lines().joined(separator: "\n"))

        // a: the URL, the user, the password (shown as dots, never as typed), then the runner logs in.
        _ = AppUpdate.update(&state, .keyPressed(.character("a")))
        type("https://news.example/api/greader.php", &state)
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.enter)), [])
        type("reader", &state)
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.enter)), [])
        type("s3cret", &state)
        XCTAssertEqual(state.prompt?.description, "Password for reader (FreshRSS: the API password): ••••••")
        XCTAssertFalse(AppView.render(state, theme: theme).lines().joined().contains("s3cret"))
        let effects = AppUpdate.update(&state, .keyPressed(.enter))
        XCTAssertEqual(effects, [.addAccount(url: "https://news.example/api/greader.php", credentials: Credentials(user: "reader", password: "s3cret"))])
        XCTAssertFalse("\(effects)".contains("s3cret"), "an effect printed never shows the password")
        XCTAssertEqual(state.message?.text, "Logging in to https://news.example/api/greader.php…")

        let account = Account(id: 1, kind: .googleReader, url: URL(string: "https://news.example/api/greader.php")!, user: "reader",
                              lastSync: nil, lastError: "news.example no longer accepts the saved session")
        _ = AppUpdate.update(&state, .accountsLoaded([AccountSummary(account: account, subscriptions: 12)]))
        let lines = AppView.render(state, theme: theme).lines()
        XCTAssertTrue(lines[3].contains("reader at https://news.example/api/greader.php"), lines.joined(separator: "\n"))
        XCTAssertTrue(lines[3].contains("Google Reader API"))
        XCTAssertTrue(lines[4].contains("12 subscriptions · not synced yet  ⚠ news.example no longer accepts the saved session"), lines[4])

        // d asks first; only y removes.
        _ = AppUpdate.update(&state, .keyPressed(.character("d")))
        XCTAssertTrue(state.prompt?.description.hasPrefix("Remove the account reader at https://news.example/api/greader.php?") == true)
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("n"))), [])
        XCTAssertEqual(state.message?.text, "Nothing was changed.")
        _ = AppUpdate.update(&state, .keyPressed(.character("d")))
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("y"))), [.removeAccount(url: "https://news.example/api/greader.php")])

        _ = AppUpdate.update(&state, .keyPressed(.escape))
        XCTAssertEqual(state.screen, .subscriptions)
    }

    func testALoginInTheURLAnswersBothQuestions() {
        var state = Fixtures.state(issues: [])
        _ = AppUpdate.update(&state, .keyPressed(.character("s")))
        _ = AppUpdate.update(&state, .keyPressed(.character("A")))
        _ = AppUpdate.update(&state, .keyPressed(.character("a")))
        type("https://reader:pw@news.example/api/greader.php", &state)
        XCTAssertEqual(state.prompt?.shownText, "https://reader:••@news.example/api/greader.php")
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.enter)),
                       [.addAccount(url: "https://news.example/api/greader.php", credentials: Credentials(user: "reader", password: "pw"))])
    }

    func testStarOnTheShelfAsksTheRunnerAndAStarredIssueIsMarked() {
        var starred = Fixtures.issue(8, "Autumn", state: .available)
        starred.isStarred = true
        var state = Fixtures.state(width: 90, height: 24, issues: [Fixtures.issue(7, "Spring", state: .available), starred])
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("*"))), [.toggleStar(issueID: 7)])
        let screen = AppView.render(state, theme: theme).lines()
        let autumn = screen.first { $0.contains("Autumn") } ?? ""
        XCTAssertTrue(autumn.contains("★"), screen.joined(separator: "\n"))
        XCTAssertFalse((screen.first { $0.contains("Spring") } ?? "").contains("★"))
    }
}
