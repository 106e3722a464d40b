import Foundation
import XCTest
import NewsstandContent
import NewsstandCore
import NewsstandTestSupport
import NewsstandUI
@testable import NewsstandRuntime

/// Quitting is the runner's job: the last reading position is on disk before `.quit` returns.
final class QuitTests: XCTestCase {
    func testQuittingRightAfterAMoveSavesThePosition() throws {
        let library = try TemporaryLibrary(for: self)
        let (paths, store) = (library.paths, library.store)
        let publication = try store.addPublication(title: "Kettle", feedURL: URL(string: "https://example.com/feed")!)
        let issue = try XCTUnwrap(try store.upsertIssues([CatalogEntry(name: "one", title: "One", date: Date(),
                                                                      contentURLs: [URL(string: "https://example.com/one.epub")!])],
                                                         publicationID: publication.id).first)
        try store.setState(.available, issueID: issue.id)
        let runner = EffectRunner(store: store, paths: paths) { _ in }

        var state = AppState(width: 60, height: 20)
        state.screens = [.shelf, .reader(ReaderScreen(issueID: issue.id))]
        let book = EPUBBook(title: "One", creator: nil, language: nil, version: "3.0",
                            articles: [EPUBArticle(title: "Only", file: paths.dataDirectory.appendingPathComponent("a.xhtml"), mediaType: "application/xhtml+xml")],
                            tableOfContents: [], coverImage: nil)
        _ = AppUpdate.update(&state, .issueOpened(issueID: issue.id, .success(book), resumeAt: ReadingPosition(articleIndex: 0, blockIndex: 0)))
        let blocks = (1...300).map { TextBlock.paragraph("Paragraph \($0) of a long article, long enough to wrap onto a second line here.") }
        runner.perform(AppUpdate.update(&state, .articleLoaded(issueID: issue.id, articleIndex: 0, .success(blocks))))
        for _ in 0..<200 { runner.perform(AppUpdate.update(&state, .keyPressed(.down))) }
        let last = try XCTUnwrap(state.reader?.position)
        let effects = AppUpdate.update(&state, .keyPressed(.control("c")))
        XCTAssertEqual(effects, [.saveReadingPosition(issueID: issue.id, last), .quit])
        runner.perform(effects)
        // Nothing waits here: when `.quit` has been carried out, the last of the 200 saves is on disk.
        XCTAssertEqual(try store.readingPosition(issueID: issue.id), last)
        XCTAssertGreaterThan(last.blockIndex, 50)
    }
}
