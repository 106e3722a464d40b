import Foundation
import XCTest
import NewsstandContent
import NewsstandCore
import NewsstandImaging
import NewsstandTestSupport
@testable import NewsstandUI

/// A comic book in the reader: each page a picture fitted to the window, one page per screen, turned
/// by the page keys; a page that cannot be drawn says why in its place; a resize draws it again.
final class ComicReaderTests: XCTestCase {
    let theme = Theme.fallback

    static func comic(pages: Int = 3) -> EPUBBook {
        let pages = (1...pages).map { number in
            ComicPage(number: number, file: URL(fileURLWithPath: "/issue/p\(number).png"), path: "p\(number).png", label: number == 1 ? "Front cover" : nil)
        }
        return IssueContent.book(ComicBook(title: "Harbour #3: Lights", pages: pages))
    }

    /// The comic open on its contents, in a window of `width` × `height`.
    func contents(width: Int = 40, height: Int = 12, pages: Int = 3) -> AppState {
        var state = Fixtures.state(width: width, height: height, issues: [Fixtures.issue(7, "Lights", state: .available)])
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.enter)), [.openIssue(issueID: 7)])
        _ = AppUpdate.update(&state, .issueOpened(issueID: 7, .success(Self.comic(pages: pages)), resumeAt: nil))
        XCTAssertEqual(state.screen, .contents)
        return state
    }

    func key(_ key: Key, _ state: inout AppState) -> [Effect] { AppUpdate.update(&state, .keyPressed(key)) }

    func render(_ page: Int, columns: Int = 38, rows: Int = 9) -> Effect {
        .renderPage(issueID: 7, articleIndex: page, columns: columns, rows: rows, mode: .ascii, background: .dark)
    }

    func testAPageIsAPictureFittedToTheWindowWithItsTitleBelow() {
        var state = contents()
        XCTAssertTrue(AppView.render(state, theme: theme).lines().contains { $0.contains("1  Page 1: Front cover") })
        // Enter loads the page and draws its picture at the body's size less a margin: 38 × 9 cells in a 40 × 12 window.
        XCTAssertEqual(key(.enter, &state), [.loadArticle(issueID: 7, articleIndex: 0), render(0)])
        XCTAssertEqual(AppView.render(state, theme: theme).lines()[2], "  Drawing the page…")
        let loaded = AppUpdate.update(&state, .articleLoaded(issueID: 7, articleIndex: 0, .success([.heading(level: 2, text: "Page 1: Front cover"),
                                                                                                     .image(source: URL(fileURLWithPath: "/issue/p1.png"), alt: "p1.png")])))
        XCTAssertEqual(loaded, [.saveReadingPosition(issueID: 7, ReadingPosition(articleIndex: 0, blockIndex: 0))],
                       "the place is saved; the page's picture line is not asked for as an article picture")

        _ = AppUpdate.update(&state, .pageRendered(issueID: 7, articleIndex: 0, .success(Fixtures.art("#", columns: 6, rows: 9))))
        let lines = AppView.render(state, theme: theme).lines()
        XCTAssertEqual(Array(lines.dropFirst()), [
            "                 ######",
            "                 ######",
            "                 ######",
            "                 ######",
            "                 ######",
            "                 ######",
            "                 ######",
            "                 ######",
            "                 ######",
            "          Page 1: Front cover",
            lines[11],
        ])
        XCTAssertTrue(lines[11].hasSuffix(" page 1/3"), lines[11])
        XCTAssertTrue(lines[11].contains("→ next"), lines[11])
    }

    func testThePageKeysTurnPagesAndSayWhenThereAreNoMore() {
        var state = contents()
        _ = key(.enter, &state)
        for turn in [Key.character(" "), .pageDown, .right, .character("l"), .down, .character("j")] {
            var reset = state
            XCTAssertEqual(key(turn, &reset), [.loadArticle(issueID: 7, articleIndex: 1), render(1)], "\(turn) shows the next page")
            XCTAssertEqual(reset.reader?.articleIndex, 1)
            XCTAssertEqual(ArticleScreen.positionText(reset.reader!, in: reset.body), "page 2/3")
        }
        XCTAssertEqual(key(.end, &state), [.loadArticle(issueID: 7, articleIndex: 2), render(2)])
        XCTAssertEqual(key(.character(" "), &state), [])
        XCTAssertEqual(state.message, StatusMessage("This is the last page."))
        for back in [Key.character("b"), .pageUp, .left, .character("h"), .up, .character("k")] {
            var reset = state
            XCTAssertEqual(key(back, &reset), [.loadArticle(issueID: 7, articleIndex: 1), render(1)], "\(back) shows the previous page")
        }
        XCTAssertEqual(key(.character("g"), &state), [.loadArticle(issueID: 7, articleIndex: 0), render(0)])
        XCTAssertEqual(key(.left, &state), [])
        XCTAssertEqual(state.message, StatusMessage("This is the first page."))
        XCTAssertEqual(key(.character("P"), &state), [])
        XCTAssertEqual(state.message, StatusMessage("The pages of a comic book are pictures already."))

        // A page drawn late, after the reader turned past it, is not shown on the next page.
        _ = key(.character(" "), &state)
        _ = AppUpdate.update(&state, .pageRendered(issueID: 7, articleIndex: 0, .success(Fixtures.art("#", columns: 6, rows: 9))))
        XCTAssertNil(state.reader?.pagePicture)
        _ = AppUpdate.update(&state, .articleLoaded(issueID: 7, articleIndex: 1, .success([.heading(level: 2, text: "Page 2")])))
        XCTAssertEqual(key(.character("t"), &state), [.saveReadingPosition(issueID: 7, ReadingPosition(articleIndex: 1, blockIndex: 0))],
                       "t goes to the contents, saving the place")
        XCTAssertEqual(state.screen, .contents)
        XCTAssertTrue(AppView.render(state, theme: theme).lines().contains { $0.contains("▸   2  Page 2") })
    }

    func testAPageThatCannotBeDrawnSaysWhyInItsPlaceAndTheOthersStillRead() {
        var state = contents()
        _ = key(.enter, &state)
        _ = AppUpdate.update(&state, .pageRendered(issueID: 7, articleIndex: 0,
                                                   .failure(ReaderFailure("the picture cannot be drawn: not a PNG or JPEG image"))))
        let lines = AppView.render(state, theme: theme).lines()
        XCTAssertEqual(Array(lines[2...4]), ["  This page cannot be shown: the", "  picture cannot be drawn: not a PNG", "  or JPEG image"])
        XCTAssertEqual(lines[10], "          Page 1: Front cover")
        XCTAssertEqual(state.reader?.showsPagePicture, true)
        XCTAssertNil(state.message, "said in place of the picture, not as an error line")
        XCTAssertEqual(key(.character(" "), &state), [.loadArticle(issueID: 7, articleIndex: 1), render(1)])
        XCTAssertNil(state.reader?.pageFailure)
        _ = AppUpdate.update(&state, .pageRendered(issueID: 7, articleIndex: 1, .success(Fixtures.art("%", columns: 6, rows: 9))))
        XCTAssertEqual(AppView.render(state, theme: theme).lines()[1], "                 %%%%%%")
    }

    func testAResizeDrawsThePageAgainAtTheNewSize() {
        var state = contents()
        _ = key(.enter, &state)
        _ = AppUpdate.update(&state, .pageRendered(issueID: 7, articleIndex: 0, .success(Fixtures.art("#", columns: 38, rows: 9))))
        XCTAssertEqual(AppUpdate.update(&state, .resized(width: 40, height: 12)), [], "the same size keeps the page drawn")
        XCTAssertEqual(AppUpdate.update(&state, .resized(width: 60, height: 20)).filter { if case .renderPage = $0 { true } else { false } },
                       [render(0, columns: 58, rows: 17)])
        XCTAssertNil(state.reader?.pagePicture)
        XCTAssertEqual(AppView.render(state, theme: theme).lines()[2], "  Drawing the page…")
    }
}
