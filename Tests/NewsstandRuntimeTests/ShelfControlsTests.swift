import Foundation
import XCTest
import NewsstandCore
import NewsstandUI
@testable import NewsstandRuntime

/// The shelf's small controls over a real library, read a window at a time: `o` sorts, `f` filters, `N` marks read
/// or unread, `X` deletes a download (asking first). Library effects are carried out at once by `LibraryLoader.settle`.
final class ShelfControlsTests: XCTestCase {
    private static let count = 300
    private static let day = 86_400.0

    /// 300 issues, `i` days old: titled out of date order (`Item NNN`, NNN = 7i mod 300); every tenth downloaded
    /// (from the fourth), the newer half arrived NEW, every fifteenth opened (from the second).
    private func makeLibrary() throws -> (TemporaryLibrary, Publication) {
        let library = try TemporaryLibrary(for: self)
        let publication = try library.store.addPublication(title: "Mixed", feedURL: URL(string: "https://example.com/feed")!)
        let entries = (0..<Self.count).map { i in
            CatalogEntry(name: "i\(i)", title: String(format: "Item %03d", (i * 7) % Self.count), date: Date(timeIntervalSince1970: 1_800_000_000 - Double(i) * Self.day),
                         coverURL: nil, contentURLs: [URL(string: "https://example.com/\(i).epub")!])
        }
        try library.store.upsertIssues(Array(entries[(Self.count / 2)...]), publicationID: publication.id)
        try library.store.upsertIssues(Array(entries[..<(Self.count / 2)]), publicationID: publication.id, markingNewArrivals: true)
        for issue in try library.store.issues(publicationID: publication.id) {
            let i = Int(issue.name.dropFirst())!
            if i % 10 == 3 { try library.store.setState(.available, issueID: issue.id) }
            if i % 15 == 1 { try library.store.markOpened(issueID: issue.id) }
        }
        return (library, publication)
    }

    private func launched(_ library: TemporaryLibrary) throws -> (AppState, LibraryLoader) {
        let loader = LibraryLoader(store: library.store)
        var state = AppState(width: 100, height: 40)
        try loader.settle([.loadLibrary], into: &state)
        return (state, loader)
    }

    @discardableResult
    private func press(_ key: Key, _ state: inout AppState, _ loader: LibraryLoader) throws -> [Effect] {
        try loader.settle(AppUpdate.update(&state, .keyPressed(key)), into: &state)
    }

    /// Every issue of the shelf as the cursor walks it from the top, one row at a time (each read through its window).
    private func walk(_ state: inout AppState, _ loader: LibraryLoader) throws -> [Issue] {
        try press(.home, &state, loader)
        var seen: [Issue] = []
        for index in 0..<state.currentIssueCount {
            XCTAssertEqual(state.shelfCursor.selection, index)
            seen.append(try XCTUnwrap(state.selectedIssueValue, "row \(index) is in its window"))
            try press(.down, &state, loader)
        }
        return seen
    }

    func testSortAndFilterWalkTheShelfInTheirOrderReadingWindowsOnly() throws {
        let (library, publication) = try makeLibrary()
        var (state, loader) = try launched(library)
        let all = try library.store.issues(publicationID: publication.id)
        XCTAssertEqual(try walk(&state, loader).map(\.id), all.map(\.id), "newest first")

        try press(.character("o"), &state, loader)
        XCTAssertEqual(state.message?.text, "Oldest first · every issue")
        XCTAssertEqual(try walk(&state, loader).map(\.id), all.reversed().map(\.id))
        XCTAssertTrue(AppView.render(state, theme: .fallback).lines().last?.contains("oldest first") == true)

        try press(.character("o"), &state, loader)
        XCTAssertEqual(try walk(&state, loader).map(\.title), (0..<Self.count).map { String(format: "Item %03d", $0) }, "by title")
        XCTAssertLessThan(state.library.windows.values.reduce(0) { $0 + $1.issues.count }, Self.count / 2, "windows, not the shelf")

        try press(.character("f"), &state, loader)
        XCTAssertEqual(state.message?.text, "By title · downloaded issues")
        let downloaded = try walk(&state, loader)
        XCTAssertEqual(downloaded.count, Self.count / 10)
        XCTAssertTrue(downloaded.allSatisfy { $0.state == .available })
        XCTAssertEqual(downloaded.map(\.title), downloaded.map(\.title).sorted())

        try press(.character("f"), &state, loader)
        let new = try walk(&state, loader)
        XCTAssertEqual(new.map(\.id).sorted(), all.filter(\.isNew).map(\.id).sorted())
        try press(.character("f"), &state, loader)
        let unread = try walk(&state, loader)
        XCTAssertEqual(unread.count, Self.count - Self.count / 15)
        XCTAssertTrue(unread.allSatisfy { $0.openedAt == nil })
        try press(.character("f"), &state, loader)
        try press(.character("o"), &state, loader)
        XCTAssertEqual(state.library.view, .standard, "round to newest first, every issue")
        XCTAssertEqual(state.currentIssueCount, Self.count)
    }

    func testTheOrderAndFilterAreSavedToBeRememberedNextTime() throws {
        let (library, _) = try makeLibrary()
        var (state, loader) = try launched(library)
        let sorted = try press(.character("o"), &state, loader)
        XCTAssertTrue(sorted.contains(.saveSetting(key: AppState.shelfOrderSetting, value: "oldest")), "\(sorted)")
        XCTAssertTrue(sorted.contains(.saveSetting(key: AppState.shelfFilterSetting, value: "all")), "\(sorted)")
        let filtered = try press(.character("f"), &state, loader)
        XCTAssertTrue(filtered.contains(.saveSetting(key: AppState.shelfFilterSetting, value: "downloaded")), "\(filtered)")
    }

    func testMarkingReadAndUnreadMovesNEWAndReadingAndTheUnreadView() throws {
        let (library, _) = try makeLibrary()
        var (state, loader) = try launched(library)
        let first = try XCTUnwrap(state.selectedIssueValue)
        XCTAssertTrue(first.isNew)
        let effects = try press(.character("N"), &state, loader)
        XCTAssertEqual(effects, [.markRead(issueID: first.id, read: true)])
        try library.store.setRead(true, issueID: first.id)
        try loader.settle([.loadLibrary], into: &state)
        XCTAssertFalse(try XCTUnwrap(state.selectedIssueValue).isNew)

        // The issue being read, marked unread, is no longer READING.
        try library.store.markOpened(issueID: first.id)
        try loader.settle([.loadLibrary], into: &state)
        XCTAssertEqual(state.library.readingIssue?.id, first.id)
        XCTAssertEqual(try press(.character("N"), &state, loader), [.markRead(issueID: first.id, read: false)])
        XCTAssertNil(state.library.readingIssue)
        try library.store.setRead(false, issueID: first.id)
        try loader.settle([.loadLibrary], into: &state)
        XCTAssertTrue(try XCTUnwrap(state.selectedIssueValue).isNew, "NEW again")
        XCTAssertNil(state.library.readingIssue)

        // In the unread view, an issue marked read leaves it when the library is read again.
        for _ in 0..<3 { try press(.character("f"), &state, loader) }
        XCTAssertEqual(state.library.view.filter, .unread)
        let before = state.currentIssueCount
        let selected = try XCTUnwrap(state.selectedIssueValue)
        try press(.character("N"), &state, loader)
        try library.store.setRead(true, issueID: selected.id)
        try loader.settle([.loadLibrary], into: &state)
        XCTAssertEqual(state.currentIssueCount, before - 1)
        XCTAssertNotEqual(state.selectedIssueValue?.id, selected.id)
    }

    func testXAsksThenDeletesTheDownloadAndKeepsTheIssue() throws {
        let (library, publication) = try makeLibrary()
        var (state, loader) = try launched(library)
        XCTAssertNotEqual(state.selectedIssueValue?.state, .available)
        try press(.down, &state, loader)
        XCTAssertEqual(try press(.character("X"), &state, loader), [])
        XCTAssertTrue(state.message?.text.contains("is not downloaded") == true, "\(String(describing: state.message))")

        try press(.character("f"), &state, loader)  // downloaded issues
        let issue = try XCTUnwrap(state.selectedIssueValue)
        XCTAssertEqual(issue.state, .available)
        let folder = library.paths.folder(for: issue, of: publication)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("text".utf8).write(to: folder.appendingPathComponent("issue.epub"))

        try press(.character("X"), &state, loader)
        XCTAssertTrue(state.prompt?.label.hasPrefix("Delete the downloaded file of \(issue.title)?") == true)
        XCTAssertEqual(try press(.character("n"), &state, loader), [])
        XCTAssertEqual(state.message?.text, "Nothing was deleted.")
        try press(.character("X"), &state, loader)
        XCTAssertEqual(try press(.character("y"), &state, loader), [.deleteDownload(issueID: issue.id)])

        // What the runtime does for it.
        let messages = MessageInbox()
        let runner = EffectRunner(store: library.store, paths: library.paths, configuration: Configuration()) { messages.append($0) }
        runner.perform(.deleteDownload(issueID: issue.id))
        let deadline = Date().addingTimeInterval(10)
        while messages.reports.isEmpty, Date() < deadline { usleep(10_000) }
        XCTAssertTrue(messages.reports.first?.text.contains("stays on the shelf") == true, "\(messages.reports)")
        XCTAssertEqual(messages.happenings, [.downloadDeleted(title: issue.title)])
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.path))
        XCTAssertEqual(try library.store.issue(id: issue.id)?.state, .notDownloaded, "kept, to download again")
    }
}
