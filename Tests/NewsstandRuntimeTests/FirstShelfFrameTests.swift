import Foundation
import XCTest
import NewsstandCore
import NewsstandUI
@testable import NewsstandRuntime

/// The first frame worked out ahead (kept at quit for the next start) is the frame a start draws from the runner's
/// first answers, and it follows the library: a change shows in the next one.
final class FirstShelfFrameTests: XCTestCase {
    func testItIsTheFrameAStartDrawsFromTheRunnersFirstAnswers() throws {
        let library = try TemporaryLibrary(for: self)
        let publication = try library.store.addPublication(title: "Kettle & Compass", feedURL: URL(string: "https://example.com/feed")!)
        try library.store.addPublication(title: "Small Engines", feedURL: URL(string: "https://example.com/engines")!)
        try library.store.upsertIssues((1...40).map {
            CatalogEntry(name: "issue-\($0)", title: "Issue \($0)", date: Date(timeIntervalSince1970: 1_700_000_000 + Double($0) * 86_400),
                         coverURL: nil, contentURLs: [URL(string: "https://example.com/\($0).epub")!])
        }, publicationID: publication.id)
        let start = AppState(width: 100, height: 30)
        let loader = LibraryLoader(store: library.store)
        let ahead = try XCTUnwrap(FirstShelfFrame.render(from: start, loader: loader, theme: .fallback))

        // A start: the runner's overview and the shown shelf's window, applied as the interface applies them.
        let inbox = MessageInbox()
        let runner = EffectRunner(store: library.store, paths: library.paths) { inbox.append($0) }
        runner.readShownShelfAhead { AppUpdate.shownShelfRequest(after: $0, in: start) }
        runner.perform(.loadLibrary)
        let deadline = Date().addingTimeInterval(10)
        while inbox.all.count < 2, Date() < deadline { usleep(5_000) }
        var state = start
        for message in inbox.all { _ = AppUpdate.update(&state, message) }
        XCTAssertTrue(state.shared.isShownShelfReady)
        let drawn = AppView.render(state, theme: .fallback)
        XCTAssertEqual(ahead, drawn, "\n\(ahead.lines().joined(separator: "\n"))\n---\n\(drawn.lines().joined(separator: "\n"))")
        XCTAssertTrue(ahead.lines().joined().contains("Issue 40"), "the newest issue first")

        // The library changes: the next frame shows it.
        try library.store.renamePublication(id: publication.id, to: "Kettle and Compass")
        let later = try XCTUnwrap(FirstShelfFrame.render(from: start, loader: loader, theme: .fallback))
        XCTAssertNotEqual(later, ahead)
        XCTAssertTrue(later.lines().joined().contains("Kettle and Compass"))
    }
}
