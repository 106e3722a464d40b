import XCTest
import NewsstandCore
@testable import NewsstandUI

/// The subscriptions screen: managing feeds from the keyboard.
final class SubscriptionsScreenTests: XCTestCase {
    let theme = Theme.fallback

    func state() -> AppState {
        var second = Fixtures.second
        second.autoDownload = .latest
        second.keepNewest = 3
        second.feedFormat = .rss
        second.fullText = .always
        second.lastError = "Other Weekly: not a feed: expected RSS, Atom, OPDS or a property-list catalog"
        var state = Fixtures.state(width: 100, height: 24, issues: [Fixtures.issue(1, "A", state: .available), Fixtures.issue(2, "B", opened: false, publicationID: 2)],
                                   publications: [Fixtures.publication, second])
        _ = AppUpdate.update(&state, .keyPressed(.character("s")))
        return state
    }

    func testScreenListsEachSubscriptionWithPolicyStatusAndCounts() {
        var state = state()
        XCTAssertEqual(state.screen, .subscriptions)
        _ = AppUpdate.update(&state, .keyPressed(.down))
        let lines = AppView.render(state, theme: theme).lines()
        XCTAssertEqual(lines[1], "  SUBSCRIPTIONS")
        XCTAssertEqual(lines[3], "  Kettle & Compass                                  format unknown · auto-download none · keep all")
        XCTAssertEqual(lines[4], "    https://example.com/catalog.plist                                                full text ask",
                       "the config's full-text (ask by default) for a feed without its own")
        XCTAssertTrue(lines[8].hasSuffix("full text always"), lines[8])
        XCTAssertEqual(lines[5], "    not refreshed yet · 0 new, 1 downloaded, 1 issue")
        XCTAssertEqual(lines[7], "▌ Other Weekly                                                 rss · auto-download latest · keep 3")
        XCTAssertTrue(lines[9].hasPrefix("▌   not refreshed yet · 1 new, 0 downloaded, 1 issue  ⚠ Other Weekly: not a feed"), lines[9])
        XCTAssertTrue(lines[23].hasSuffix("2/2"))
    }

    func testPolicyKeysProduceEffects() {
        var state = state()
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("w"))), [.setFullText(publicationID: 1, .always)], "ask (the default) → always")
        state.fullTextDefault = .never
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("w"))), [.setFullText(publicationID: 1, .ask)], "from the config's never")
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("p"))), [.setPolicy(publicationID: 1, autoDownload: .latest, keepNewest: nil)])
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("-"))), [.setPolicy(publicationID: 1, autoDownload: .none, keepNewest: 10)])
        _ = AppUpdate.update(&state, .keyPressed(.down))
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("p"))), [.setPolicy(publicationID: 2, autoDownload: .all, keepNewest: 3)])
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("+"))), [.setPolicy(publicationID: 2, autoDownload: .latest, keepNewest: 4)])
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("w"))), [.setFullText(publicationID: 2, .never)], "always → never")
        XCTAssertEqual(state.message?.text, "Other Weekly: full text never (whole articles only with F).")
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("r"))), [.refreshPublication(publicationID: 2)])
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("u"))), [.refreshPublications])
        XCTAssertTrue(AppUpdate.update(&state, .keyPressed(.enter)).allSatisfy { if case .requestCovers = $0 { true } else { false } })
        XCTAssertEqual(state.screen, .shelf)
        XCTAssertEqual(state.currentPublication?.id, 2, "Enter shows that publication's shelf")
    }

    func testAddingTypesOrPastesAURLWithEditing() {
        var state = state()
        _ = AppUpdate.update(&state, .keyPressed(.character("a")))
        for character in "https://exmple.com/feed" { _ = AppUpdate.update(&state, .keyPressed(.character(character))) }
        for _ in 0..<13 { _ = AppUpdate.update(&state, .keyPressed(.left)) }
        _ = AppUpdate.update(&state, .keyPressed(.character("a")))   // typed into the field, not a command
        XCTAssertEqual(state.prompt?.field.text, "https://example.com/feed")
        XCTAssertTrue(AppView.render(state, theme: theme).lines()[23].hasPrefix(" Feed URL: https://example.com/feed"))
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.enter)), [.subscribe(url: "https://example.com/feed")])
        XCTAssertEqual(state.message?.text, "Checking https://example.com/feed…")
        XCTAssertNil(state.prompt)
        _ = AppUpdate.update(&state, .subscriptionAdded(.failure(ReaderFailure("cannot subscribe to https://example.com/feed: 404"))))
        XCTAssertEqual(state.message, StatusMessage("cannot subscribe to https://example.com/feed: 404", isError: true))
    }

    func testEscapeCancelsAndAnEmptyURLDoesNothing() {
        var state = state()
        _ = AppUpdate.update(&state, .keyPressed(.character("a")))
        _ = AppUpdate.update(&state, .keyPressed(.character("x")))
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.escape)), [])
        XCTAssertNil(state.prompt)
        XCTAssertEqual(state.screen, .subscriptions, "Esc closes the prompt, not the screen")
        _ = AppUpdate.update(&state, .keyPressed(.character("a")))
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.enter)), [])
    }

    func testUnsubscribeAsksWhetherToKeepDownloads() {
        var state = state()
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("d"))), [])
        XCTAssertEqual(AppView.render(state, theme: theme).lines()[23], " Unsubscribe from Kettle & Compass — keep its downloaded issues? y keep · n remove them · Esc cancel")
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("y"))), [.unsubscribe(publicationID: 1, keepDownloads: true)])
        _ = AppUpdate.update(&state, .keyPressed(.character("d")))
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("n"))), [.unsubscribe(publicationID: 1, keepDownloads: false)])
        _ = AppUpdate.update(&state, .keyPressed(.character("d")))
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.escape)), [])
        XCTAssertEqual(state.message?.text, "Nothing was changed.")
    }

    func testRenameStartsFromTheCurrentTitle() {
        var state = state()
        _ = AppUpdate.update(&state, .keyPressed(.character("R")))
        XCTAssertEqual(state.prompt?.field.text, "Kettle & Compass")
        _ = AppUpdate.update(&state, .keyPressed(.control("u")))
        for character in "K&C" { _ = AppUpdate.update(&state, .keyPressed(.character(character))) }
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.enter)), [.renamePublication(publicationID: 1, title: "K&C")])
    }

    func testHeadlinesScreenShowsFeedItemsWithoutIssues() {
        var state = state()
        let headlines = [Headline(title: "Printers strike ends", link: URL(string: "https://example.com/news/1"),
                                  date: Date(timeIntervalSince1970: 1_767_225_600), summary: "The presses roll again on Monday.")]
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("H"))), [.loadHeadlines(publicationID: 1)], "read when shown, not with the library")
        XCTAssertEqual(state.screen, .headlines)
        XCTAssertEqual(AppView.render(state, theme: theme).lines()[3], "  Loading…")
        _ = AppUpdate.update(&state, .headlinesLoaded(publicationID: 1, .success(headlines)))
        let lines = AppView.render(state, theme: theme).lines()
        XCTAssertEqual(Array(lines[1...5]), ["  HEADLINES · Kettle & Compass", "", "▌ Printers strike ends",
                                             "▌   1 January 2026 · https://example.com/news/1", "▌   The presses roll again on Monday."])
        _ = AppUpdate.update(&state, .keyPressed(.escape))
        XCTAssertEqual(state.screen, .subscriptions)
    }
}

final class TextFieldTests: XCTestCase {
    func testEditingKeys() {
        var field = TextField("hello")
        XCTAssertEqual(field.apply(.home), .edited)
        XCTAssertEqual(field.apply(.character(">")), .edited)
        XCTAssertEqual(field.text, ">hello")
        _ = field.apply(.end)
        _ = field.apply(.backspace)
        XCTAssertEqual(field.text, ">hell")
        _ = field.apply(.left)
        _ = field.apply(.control("k"))
        XCTAssertEqual(field.text, ">hel")
        _ = field.apply(.control("u"))
        XCTAssertEqual(field.text, "")
        XCTAssertEqual(field.apply(.backspace), .ignored)
        XCTAssertEqual(field.apply(.character("\u{1B}")), .ignored, "control characters are not typed")
        XCTAssertEqual(field.apply(.enter), .submitted)
        XCTAssertEqual(field.apply(.escape), .cancelled)
    }

    func testLongTextScrollsToKeepTheCursorVisible() {
        var field = TextField(String(repeating: "x", count: 50) + "END")
        var buffer = CellBuffer(width: 20, height: 1)
        field.render(label: "URL: ", in: buffer.area, style: .plain, into: &buffer)
        XCTAssertTrue(buffer.lines()[0].hasSuffix("END"), buffer.lines()[0])
        _ = field.apply(.home)
        field.render(label: "URL: ", in: buffer.area, style: .plain, into: &buffer)
        XCTAssertEqual(buffer.lines()[0], "URL: " + String(repeating: "x", count: 14))
    }
}
