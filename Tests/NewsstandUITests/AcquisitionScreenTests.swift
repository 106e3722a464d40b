import Foundation
import XCTest
import NewsstandCore
@testable import NewsstandUI

/// Enter on a book in the catalog browser offers its files; Enter on one gets it, or says why not.
final class AcquisitionScreenTests: XCTestCase {
    let theme = Theme.fallback
    let root = URL(string: "https://books.example/opds")!

    private func browsing() -> (AppState, CatalogEntry) {
        var entry = CatalogEntry(name: "urn:book:1", title: "Small Engines", date: Date(timeIntervalSince1970: 1_767_225_600), contentURLs: [])
        entry.acquisitions = [AcquisitionLink(url: URL(string: "https://books.example/shop/1")!, kind: .buy, type: "application/epub+zip"),
                              AcquisitionLink(url: URL(string: "https://books.example/get/PDF/1")!, kind: .acquisition, type: "application/pdf", size: 2 << 20),
                              AcquisitionLink(url: URL(string: "https://books.example/get/EPUB/1")!, kind: .acquisition, type: "application/epub+zip")]
        var state = Fixtures.state(width: 90, height: 20, issues: [])
        var browser = CatalogScreen(url: root)
        browser.pages[0].feed = Feed(format: .opds1, title: "Books", entries: [entry])
        state.screens.append(.catalog(browser))
        return (state, entry)
    }

    func testEnterOnABookOffersItsFilesBestFirstAndGetsTheChosenOne() {
        var (state, entry) = browsing()
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.enter)), [])
        XCTAssertEqual(state.screen, .acquisitions)
        let lines = AppView.render(state, theme: theme).lines()
        XCTAssertEqual(lines[1], "  GET · Small Engines")
        XCTAssertEqual(lines[4], "▌ EPUB · download")
        XCTAssertEqual(lines[5].trimmingCharacters(in: .whitespaces), "PDF · 2 MB · download")
        XCTAssertTrue(lines[6].contains("EPUB · buy: not followed"), lines[6])
        let effects = AppUpdate.update(&state, .keyPressed(.enter))
        XCTAssertEqual(effects, [.acquireTitle(entry, AcquisitionLink.ranked(entry.acquisitions)[0])])
        _ = AppUpdate.update(&state, .titleAcquired(.success("Small Engines")))
        XCTAssertEqual(state.screen, .catalog, "back at the catalog once the download is queued")
        XCTAssertEqual(state.message?.text, "Downloading Small Engines into the Library shelf (D shows the downloads).")
    }

    func testALinkThatBuysSaysSoAndIsNotFollowed() {
        var (state, _) = browsing()
        _ = AppUpdate.update(&state, .keyPressed(.enter))
        _ = AppUpdate.update(&state, .keyPressed(.end))
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.enter)), [])
        XCTAssertEqual(state.message?.text, "A buy link: Newsstand only downloads open-access and plain acquisition links.")
        _ = AppUpdate.update(&state, .keyPressed(.escape))
        XCTAssertEqual(state.screen, .catalog)
    }

    func testXAsksBeforeRemovingATitleInTheLibraryShelfAndBeforeDeletingADownloadElsewhere() {
        let library = Publication(id: 9, name: "library", title: "Library", feedURL: TitleAcquirer.libraryURL, isSubscribed: false)
        var state = Fixtures.state(issues: [Fixtures.issue(1, "Small Engines", state: .available, publicationID: 9)], publications: [library])
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("X"))), [])
        XCTAssertEqual(state.prompt?.label, "Remove Small Engines and its file from the Library shelf? y remove · any other key keeps it")
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("n"))), [])
        XCTAssertEqual(state.message?.text, "Nothing was removed.")
        _ = AppUpdate.update(&state, .keyPressed(.character("X")))
        XCTAssertEqual(AppUpdate.update(&state, .keyPressed(.character("y"))), [.removeTitle(issueID: 1)])

        var subscribed = Fixtures.state(issues: [Fixtures.issue(1, "One", state: .available)])
        XCTAssertEqual(AppUpdate.update(&subscribed, .keyPressed(.character("X"))), [])
        XCTAssertEqual(subscribed.prompt?.label, "Delete the downloaded file of One? It stays on the shelf to download again. y delete · any other key keeps it")
        XCTAssertEqual(AppUpdate.update(&subscribed, .keyPressed(.character("y"))), [.deleteDownload(issueID: 1)])
    }
}
