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
