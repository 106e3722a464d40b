import Foundation
import XCTest
import NewsstandCore
import NewsstandUI
@testable import NewsstandRuntime

/// At start the runner reads the shown shelf's window right after the first overview, as the interface will ask for
/// it (`EffectRunner.readShownShelfAhead`), and the interface's own request for that window is then not read again.
/// Only the first overview is followed so; a request that differs is read as always.
final class ShelfReadAheadTests: XCTestCase {
    func testTheShownShelfsWindowFollowsTheFirstOverviewAndIsNotReadAgain() throws {
        let library = try TemporaryLibrary(for: self)
        let publication = try library.store.addPublication(title: "Kettle & Compass", feedURL: URL(string: "https://example.com/feed")!)
        try library.store.upsertIssues((1...40).map {
            CatalogEntry(name: "issue-\($0)", title: "Issue \($0)", date: Date(timeIntervalSince1970: 1_700_000_000 + Double($0) * 86_400),
                         coverURL: nil, contentURLs: [URL(string: "https://example.com/\($0).epub")!])
        }, publicationID: publication.id)
        let inbox = MessageInbox()
        let runner = EffectRunner(store: library.store, paths: library.paths) { inbox.append($0) }
        let start = AppState(width: 100, height: 30)
        runner.readShownShelfAhead { AppUpdate.shownShelfRequest(after: $0, in: start) }
        runner.perform(.loadLibrary)
        let readAhead = try XCTUnwrap(wait(for: inbox, count: 2)?.last)
        guard case .libraryLoaded(let overview) = inbox.all.first, case .issuesReadAhead(let request, let window) = readAhead else {
            return XCTFail("the overview, then the window: \(inbox.all)")
        }
        XCTAssertEqual(request, AppUpdate.shownShelfRequest(after: overview, in: start), "the request the interface will make")
        XCTAssertEqual(request.publicationID, publication.id)
        XCTAssertEqual(window.issues.first?.title, "Issue 40", "newest first, as the shelf shows it")

        // The interface, given the overview, asks for that same window: it is not read again.
        var state = start
        let effects = AppUpdate.update(&state, .libraryLoaded(overview))
        XCTAssertTrue(effects.contains(.loadIssues(request)))
        runner.perform(.loadIssues(request))
        // Asked for again (a later request), it is read; a later overview is not followed by a window.
        runner.perform(.loadIssues(request))
        runner.perform(.loadLibrary)
        let later = try XCTUnwrap(wait(for: inbox, count: 4))
        XCTAssertEqual(later.dropFirst(2).map(Self.kind), ["issuesLoaded", "libraryLoaded"], "\(later.map(Self.kind))")
        usleep(200_000)
        XCTAssertEqual(inbox.all.count, 4, "nothing more: \(inbox.all.map(Self.kind))")
    }

    /// The messages once there are `count` of them (nil after 10 s).
    private func wait(for inbox: MessageInbox, count: Int) -> [Message]? {
        let deadline = Date().addingTimeInterval(10)
        while inbox.all.count < count, Date() < deadline { usleep(5_000) }
        return inbox.all.count >= count ? inbox.all : nil
    }

    private static func kind(_ message: Message) -> String {
        switch message {
        case .libraryLoaded: "libraryLoaded"
        case .issuesLoaded: "issuesLoaded"
        case .issuesReadAhead: "issuesReadAhead"
        default: "\(message)".prefix(30).description
        }
    }
}
