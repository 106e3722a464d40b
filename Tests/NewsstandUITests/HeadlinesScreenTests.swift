import Foundation
import XCTest
import NewsstandCore
@testable import NewsstandUI

/// The headlines screen: a podcast's episode names its file, `p` hands it to the player, `o` opens the link.
final class HeadlinesScreenTests: XCTestCase {
    let theme = Theme.fallback
    let episode = Headline(title: "Episode 1", link: URL(string: "https://example.com/ep/1"), summary: "Kettles, part one.",
                           mediaURL: URL(string: "https://example.com/ep1.mp3"), mediaKind: "audio (audio/mpeg)")
    let news = Headline(title: "Printers strike ends")

    private func headlinesState() -> AppState {
        var state = Fixtures.state(width: 90, height: 24, issues: [])
        _ = AppUpdate.update(&state, .keyPressed(.character("s")))
        _ = AppUpdate.update(&state, .keyPressed(.character("H")))
        _ = AppUpdate.update(&state, .headlinesLoaded(publicationID: Fixtures.publication.id, .success([episode, news])))
        return state
    }

    func testAnEpisodeShowsWhatItsFileIsAndPlays() {
        var state = headlinesState()
        let lines = AppView.render(state, theme: theme).lines()
        XCTAssertEqual(lines[4], "▌   ▶ audio (audio/mpeg) (p plays) · https://example.com/ep/1")
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("p"))), [.playMedia(URL(string: "https://example.com/ep1.mp3")!)])
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("o"))), [.openLink(URL(string: "https://example.com/ep/1")!)])
    }

    func testAHeadlineWithoutAFileSaysSoInsteadOfPlaying() {
        var state = headlinesState()
        _ = AppUpdate.update(&state, .keyPressed(.down))
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("p"))), [])
        XCTAssertEqual(state.message?.text, "This headline has no audio or video file to play")
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("o"))), [])
        XCTAssertEqual(state.message?.text, "This headline has no link")
    }

    /// A link or file a feed from the network names on this machine is handed to neither the browser nor the player.
    func testALocalFileNamedByAFeedFromTheNetworkIsNeitherOpenedNorPlayed() {
        var state = Fixtures.state(width: 90, height: 24, issues: [])
        XCTAssertEqual(state.library.publications.first { $0.id == Fixtures.publication.id }?.feedURL.scheme?.hasPrefix("http"), true)
        _ = AppUpdate.update(&state, .keyPressed(.character("s")))
        _ = AppUpdate.update(&state, .keyPressed(.character("H")))
        let local = Headline(title: "Local", link: URL(string: "file:///etc/passwd"), mediaURL: URL(string: "file:///home/me/a.mp3"),
                             mediaKind: "audio (audio/mpeg)")
        _ = AppUpdate.update(&state, .headlinesLoaded(publicationID: Fixtures.publication.id, .success([local])))
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("p"))), [])
        XCTAssertEqual(state.message?.text, "Not played: the feed points to a local file")
        XCTAssertEqual(state.message?.isError, true)
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("o"))), [])
        XCTAssertEqual(state.message?.text, "Not opened: the feed points to a local file")
    }
}

/// Headlines' read and starred states on the headlines screen: NEW and ★ at the right of the title, `N` and `*`
/// marking the selected one at once and asking the runner to keep it, reading one marking it read.
final class HeadlineMarksScreenTests: XCTestCase {
    let theme = Theme.fallback

    private func headline(_ title: String, key: String, new: Bool = false, read: Bool = false, starred: Bool = false) -> Headline {
        var headline = Headline(title: title, link: URL(string: key))
        headline.key = key
        headline.isNew = new
        headline.isRead = read
        headline.isStarred = starred
        return headline
    }

    private func headlinesState(_ items: [Headline]) -> AppState {
        var state = Fixtures.state(width: 90, height: 24, issues: [])
        _ = AppUpdate.update(&state, .keyPressed(.character("s")))
        _ = AppUpdate.update(&state, .keyPressed(.character("H")))
        _ = AppUpdate.update(&state, .headlinesLoaded(publicationID: Fixtures.publication.id, .success(items)))
        return state
    }

    func testNewAndStarredAreMarkedAndNAndStarChangeTheSelectedHeadline() {
        let fresh = headline("Printers strike ends", key: "https://example.com/1", new: true)
        let kept = headline("Ink prices fall", key: "https://example.com/2", read: true, starred: true)
        var state = headlinesState([fresh, kept])
        var lines = AppView.render(state, theme: theme).lines()
        XCTAssertTrue(lines[3].hasPrefix("▌ Printers strike ends"), lines[3])
        XCTAssertTrue(lines[3].hasSuffix(" NEW"), "NEW at the right: \(lines[3])")
        XCTAssertFalse(lines[3].contains("★"))
        XCTAssertTrue(lines[7].contains("Ink prices fall") && lines[7].hasSuffix(" ★"), lines[7])

        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("N"))),
                       [.markHeadlineRead(publicationID: Fixtures.publication.id, key: "https://example.com/1", read: true)])
        XCTAssertEqual(state.message?.text, "Marked “Printers strike ends” read.")
        lines = AppView.render(state, theme: theme).lines()
        XCTAssertFalse(lines[3].contains("NEW"), "read: no longer NEW: \(lines[3])")
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("*"))),
                       [.starHeadline(publicationID: Fixtures.publication.id, key: "https://example.com/1", starred: true)])
        let starredLines = AppView.render(state, theme: theme).lines()
        XCTAssertTrue(starredLines[3].hasSuffix(" ★"), starredLines.joined(separator: "\n"))

        _ = AppUpdate.update(&state, .keyPressed(.down))
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("N"))),
                       [.markHeadlineRead(publicationID: Fixtures.publication.id, key: "https://example.com/2", read: false)])
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("*"))),
                       [.starHeadline(publicationID: Fixtures.publication.id, key: "https://example.com/2", starred: false)])
        XCTAssertEqual(state.message?.text, "Unstarred “Ink prices fall”.")
        XCTAssertFalse(AppView.render(state, theme: theme).lines()[7].contains("★"))
    }

    func testReadingAHeadlineShowsItReadInTheList() {
        var state = headlinesState([headline("Printers strike ends", key: "https://example.com/1", new: true)])
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.enter)), [.loadHeadlineArticle(publicationID: Fixtures.publication.id, index: 0)])
        _ = AppUpdate.update(&state, .headlineArticleLoaded(publicationID: Fixtures.publication.id, index: 0, .success([])))
        _ = AppUpdate.update(&state, .keyPressed(.escape))
        guard case .headlines(let headlines)? = state.screens.last else { return XCTFail("\(state.screens)") }
        XCTAssertEqual(headlines.headlines?.first?.isRead, true)
        XCTAssertEqual(headlines.headlines?.first?.isNew, false)
    }

    func testARefreshReadsTheOpenHeadlinesAgain() {
        var state = headlinesState([headline("Printers strike ends", key: "https://example.com/1", new: true)])
        XCTAssertEqual(AppUpdate.update(&state, .publicationsRefreshed([])), [.loadLibrary, .loadHeadlines(publicationID: Fixtures.publication.id)])
        _ = AppUpdate.update(&state, .headlinesLoaded(publicationID: Fixtures.publication.id,
                                                      .success([headline("Printers strike ends", key: "https://example.com/1", read: true)])))
        XCTAssertFalse(AppView.render(state, theme: theme).lines()[3].contains("NEW"), "read elsewhere: no longer NEW")
        _ = AppUpdate.update(&state, .keyPressed(.escape))
        _ = AppUpdate.update(&state, .keyPressed(.escape))
        XCTAssertEqual(AppUpdate.update(&state, .publicationsRefreshed([])), [.loadLibrary], "no headlines screen open")
    }

    func testTheHelpListsNAndStarOnTheHeadlinesScreen() {
        let rows = KeyMap.bindings.filter { $0.screens.contains(.headlines) }
        XCTAssertTrue(rows.contains { $0.command == .toggleRead && $0.keyLabel == "N" && $0.help.contains("headline") })
        XCTAssertTrue(rows.contains { $0.command == .toggleStar && $0.keyLabel == "*" && $0.help.contains("headline") })
    }
}

/// Subscribing on the subscriptions screen while there are several accounts: the runner asks which, a digit answers.
final class SubscriptionAccountChoiceTests: XCTestCase {
    let accounts = [Account(id: 1, kind: .googleReader, url: URL(string: "http://127.0.0.1:8001/api/greader.php")!, user: "reader"),
                    Account(id: 2, kind: .googleReader, url: URL(string: "https://rss.example/api/greader.php")!, user: "alice")]

    private func asked() -> AppState {
        var state = Fixtures.state(width: 140, height: 24, issues: [])
        _ = AppUpdate.update(&state, .keyPressed(.character("s")))
        _ = AppUpdate.update(&state, .keyPressed(.character("a")))
        for character in "https://user:secret@news.example/feed.xml" { _ = AppUpdate.update(&state, .keyPressed(.character(character))) }
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.enter)), [.subscribe(url: "https://user:secret@news.example/feed.xml")])
        _ = AppUpdate.update(&state, .subscriptionAccountNeeded(url: "https://user:secret@news.example/feed.xml", accounts: accounts))
        return state
    }

    func testADigitChoosesTheAccountAndZeroAFeedOfOnesOwn() {
        var state = asked()
        let line = AppView.render(state, theme: .fallback).lines().last ?? ""
        XCTAssertTrue(line.contains("Subscribe to https://news.example/feed.xml on which account? 1 reader at 127.0.0.1:8001 · 2 alice at rss.example · 0 a feed of your own"), line)
        XCTAssertFalse(line.contains("secret"), "the password in the URL is never shown")
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("2"))),
                       [.subscribe(url: "https://user:secret@news.example/feed.xml", on: .account(url: "https://rss.example/api/greader.php"))])
        XCTAssertNil(state.prompt)
        XCTAssertEqual(state.message?.text, "Subscribing to https://news.example/feed.xml on alice at rss.example…")

        state = asked()
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("0"))), [.subscribe(url: "https://user:secret@news.example/feed.xml", on: .ownFeed)])
        state = asked()
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("3"))), [], "no third account")
        XCTAssertEqual(state.message?.text, "Nothing was subscribed.")
        state = asked()
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.escape)), [])
        XCTAssertNil(state.prompt)
    }
}
