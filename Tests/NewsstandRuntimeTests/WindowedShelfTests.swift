import Foundation
import XCTest
@testable import NewsstandCore
import NewsstandUI
@testable import NewsstandRuntime

/// The shelf over a real library of 55,000 issues (1,000 publications of 50, and a first one of 5,000):
/// the interface holds windows, not the library, and the rows drawn are the right ones after scrolling to the
/// end and back, switching publications, issues arriving by sync, and downloads of issues outside the window.
/// Library effects are carried out at once by `LibraryLoader.settle`, as the runtime does off the UI thread.
final class WindowedShelfTests: XCTestCase {
    private struct Library {
        let folder: URL
        let store: LibraryStore
        let big: Publication
        let second: Publication
    }

    nonisolated(unsafe) private static var shared: Result<Library, Error>?
    private static let bigCount = 5_000
    private static let day = 86_400.0
    private static let newest = 1_800_000_000.0

    override class func setUp() {
        super.setUp()
        shared = Result { try buildLibrary() }
    }

    override class func tearDown() {
        if case .success(let library) = shared {
            library.store.close()
            try? FileManager.default.removeItem(at: library.folder)
        }
        shared = nil
        super.tearDown()
    }

    private static func entry(_ name: String, _ title: String, date: Double) -> CatalogEntry {
        CatalogEntry(name: name, title: title, date: Date(timeIntervalSince1970: date), coverURL: nil,
                     contentURLs: [URL(string: "https://example.com/\(name).epub")!])
    }

    private static func buildLibrary() throws -> Library {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("WindowedShelfTests-\(UUID().uuidString)", isDirectory: true)
        let store = try LibraryStore(file: folder.appendingPathComponent("library.sqlite"))
        try store.database.execute("PRAGMA synchronous = OFF") // only to build the fixture quickly
        defer { try? store.database.execute("PRAGMA synchronous = FULL") }
        // "Big 0000" is the newest, "Big 4999" the oldest.
        let big = try store.addPublication(title: "Big Monthly", feedURL: URL(string: "https://example.com/big/feed")!)
        let bigEntries = (0..<bigCount).map { entry("big-\($0)", String(format: "Big %04d", $0), date: newest - Double($0) * day) }
        for start in stride(from: 0, to: bigEntries.count, by: 500) {
            try store.upsertIssues(Array(bigEntries[start..<min(bigEntries.count, start + 500)]), publicationID: big.id)
        }
        var second: Publication?
        for number in 0..<1_000 {
            let publication = try store.addPublication(title: "Weekly \(number)", feedURL: URL(string: "https://example.com/\(number)/feed")!)
            if second == nil { second = publication }
            try store.upsertIssues((0..<50).map { entry("w\(number)-\($0)", "Weekly \(number) #\($0)", date: newest - Double($0) * 7 * day) },
                                   publicationID: publication.id)
        }
        return Library(folder: folder, store: store, big: big, second: try XCTUnwrap(second))
    }

    private var library: Library {
        get throws { try XCTUnwrap(Self.shared, "the shared library was not built").get() }
    }

    /// A launched interface: the overview and the first windows read, as at start-up.
    private func launched(width: Int = 100, height: Int = 30) throws -> (AppState, LibraryLoader) {
        let loader = LibraryLoader(store: try library.store)
        var state = AppState(width: width, height: height)
        try loader.settle([.loadLibrary], into: &state)
        return (state, loader)
    }

    private func press(_ key: Key, _ state: inout AppState, _ loader: LibraryLoader) throws {
        try loader.settle(AppUpdate.update(&state, .keyPressed(key)), into: &state)
    }

    /// The issue titles drawn on the shelf, top to bottom.
    private func drawnTitles(_ state: AppState) -> [String] {
        AppView.render(state, theme: .fallback).lines().compactMap { line in
            line.range(of: #"(Big \d{4}|Big Ancient|Big Arrival|Weekly \d+ #\d+)"#, options: .regularExpression).map { String(line[$0]) }
        }
    }

    /// The big shelf's titles at the indices in view: what must be drawn.
    private func expectedTitles(_ state: AppState) -> [String] {
        state.shelfCursor.visibleRange(count: state.currentIssueCount, page: state.shelfLayout.page).map { String(format: "Big %04d", $0) }
    }

    private func heldIssues(_ state: AppState) -> Int {
        state.library.windows.values.reduce(0) { $0 + $1.issues.count }
    }

    func testTheInterfaceHoldsWindowsNotTheLibrary() throws {
        let (state, _) = try launched()
        XCTAssertEqual(state.library.publications.count, 1_001)
        XCTAssertEqual(state.currentIssueCount, Self.bigCount, "the count comes from SQL")
        XCTAssertEqual(drawnTitles(state), ["Big 0000", "Big 0001", "Big 0002"])
        XCTAssertLessThan(heldIssues(state), 200, "the shown shelf's window and its neighbours' only")
        XCTAssertEqual(Set(state.library.windows.keys).count, 3, "the shown shelf and the two Tab reaches")
        XCTAssertEqual(AppView.render(state, theme: .fallback).lines().last?.hasSuffix("1/5000"), true)
    }

    func testScrollingToTheEndAndBackDrawsTheRightRows() throws {
        var (state, loader) = try launched()
        XCTAssertEqual(state.shelfLayout.visibleItemCount, 3)
        try press(.end, &state, loader)
        XCTAssertEqual(state.shelfCursor.selection, Self.bigCount - 1)
        XCTAssertEqual(drawnTitles(state), ["Big 4997", "Big 4998", "Big 4999"])
        XCTAssertEqual(state.selectedIssueValue?.title, "Big 4999")
        for _ in 0..<30 { try press(.pageUp, &state, loader) }
        XCTAssertEqual(state.shelfCursor.selection, Self.bigCount - 1 - 90)
        XCTAssertEqual(drawnTitles(state), expectedTitles(state))
        XCTAssertEqual(state.selectedIssueValue?.title, "Big 4909")
        for _ in 0..<100 { try press(.down, &state, loader) }
        XCTAssertEqual(state.selectedIssueValue?.title, "Big 4999")
        XCTAssertLessThan(heldIssues(state), 200, "windows move with the cursor; they do not grow")
        try press(.home, &state, loader)
        XCTAssertEqual(drawnTitles(state), ["Big 0000", "Big 0001", "Big 0002"])
        // Down a long way a page and a line at a time: every frame shows the issues at its indices.
        for step in 0..<120 {
            try press(step % 2 == 0 ? .pageDown : .down, &state, loader)
            XCTAssertEqual(drawnTitles(state), expectedTitles(state), "after \(step + 1) presses")
            XCTAssertEqual(state.selectedIssueValue?.title, String(format: "Big %04d", state.shelfCursor.selection))
        }
    }

    func testAKeypressNeverWaitsForTheLibrary() throws {
        var (state, _) = try launched()
        // Without the runtime answering, a jump to the end moves the cursor at once and asks for the rows.
        let effects = AppUpdate.update(&state, .keyPressed(.end))
        XCTAssertEqual(state.shelfCursor.selection, Self.bigCount - 1)
        XCTAssertTrue(effects.contains { if case .loadIssues(let request) = $0 { request.anchor == .last } else { false } }, "\(effects)")
        let lines = AppView.render(state, theme: .fallback).lines()
        XCTAssertTrue(lines.contains { $0.hasPrefix("▌ …") }, "the selected row waits for its issue: \(lines)")
        XCTAssertTrue(lines.last?.contains("5000/5000") == true)
    }

    func testSwitchingPublicationsShowsTheirOwnRowsAndComesBackToTheSamePlace() throws {
        var (state, loader) = try launched()
        for _ in 0..<7 { try press(.down, &state, loader) }
        XCTAssertEqual(state.selectedIssueValue?.title, "Big 0007")
        try press(.tab, &state, loader)
        XCTAssertEqual(state.currentPublication?.id, try library.second.id)
        XCTAssertEqual(drawnTitles(state), ["Weekly 0 #0", "Weekly 0 #1", "Weekly 0 #2"])
        try press(.backTab, &state, loader)
        XCTAssertEqual(state.selectedIssueValue?.title, "Big 0007", "each shelf keeps its cursor")
        // Far away and back: the big shelf's window is dropped, then read again around its selected issue.
        for _ in 0..<5 { try press(.tab, &state, loader) }
        XCTAssertNil(state.library.windows[try library.big.id])
        for _ in 0..<5 { try press(.backTab, &state, loader) }
        XCTAssertEqual(state.selectedIssueValue?.title, "Big 0007")
        XCTAssertTrue(drawnTitles(state).contains("Big 0007"))
        let header = AppView.render(state, theme: .fallback).lines()[0]
        XCTAssertTrue(header.contains("Big Monthly"), header)
    }

    func testAnIssueArrivingInsideTheWindowIsDrawnAndTheSelectionFollowsItsIssue() throws {
        let library = try library
        var (state, loader) = try launched()
        try press(.down, &state, loader)
        XCTAssertEqual(state.selectedIssueValue?.title, "Big 0001")
        try library.store.upsertIssues([Self.entry("arrived", "Big Arrival", date: Self.newest + Self.day)], publicationID: library.big.id,
                                       markingNewArrivals: true)
        addTeardownBlock { _ = try? library.store.database.execute("DELETE FROM issues WHERE name = 'arrived'") }
        try loader.settle([.loadLibrary], into: &state) // as after a sync
        XCTAssertEqual(state.currentIssueCount, Self.bigCount + 1)
        XCTAssertEqual(state.selectedIssueValue?.title, "Big 0001", "the selection stays on its issue")
        XCTAssertEqual(state.shelfCursor.selection, 2)
        try press(.home, &state, loader)
        let lines = AppView.render(state, theme: .fallback).lines()
        XCTAssertTrue(lines.contains { $0.contains("Big Arrival") && $0.contains("NEW") }, lines.joined(separator: "\n"))
        XCTAssertTrue(lines[0].contains("Big Monthly (1 new)"), lines[0])
    }

    func testAnIssueArrivingOutsideTheWindowChangesOnlyTheCount() throws {
        let library = try library
        var (state, loader) = try launched()
        let before = drawnTitles(state)
        try library.store.upsertIssues([Self.entry("ancient", "Big Ancient", date: Self.newest - 20_000 * Self.day)], publicationID: library.big.id)
        addTeardownBlock { _ = try? library.store.database.execute("DELETE FROM issues WHERE name = 'ancient'") }
        try loader.settle([.loadLibrary], into: &state)
        XCTAssertEqual(drawnTitles(state), before)
        XCTAssertTrue(AppView.render(state, theme: .fallback).lines().last?.contains("1/5001") == true)
        try press(.end, &state, loader)
        XCTAssertEqual(drawnTitles(state), ["Big 4998", "Big 4999", "Big Ancient"])
        XCTAssertEqual(state.selectedIssueValue?.title, "Big Ancient")
    }

    func testADownloadOfAnIssueOutsideTheWindowIsNamedAndDrawnWhereItIs() throws {
        let library = try library
        var (state, loader) = try launched()
        let outside = try XCTUnwrap(try library.store.issues(publicationID: library.big.id, before: nil, limit: 1).first)
        XCTAssertNil(state.loadedIssue(id: outside.id), "the oldest issue is far outside the window")
        let drawn = drawnTitles(state)
        try library.store.setState(.downloading, issueID: outside.id, progress: 0) // as the download queue does
        addTeardownBlock { try? library.store.setState(.notDownloaded, issueID: outside.id) }
        let effects = AppUpdate.update(&state, .downloadReported(.progressed(issueID: outside.id, fraction: 0.4, receivedBytes: 400_000,
                                                                             totalBytes: 1_000_000, bytesPerSecond: 100_000)))
        XCTAssertEqual(effects, [.lookUpIssues([outside.id])], "looked up by key to be named")
        try loader.settle(effects, into: &state)
        XCTAssertEqual(drawnTitles(state), drawn, "the shelf's rows do not change")
        try press(.character("D"), &state, loader)
        let downloads = AppView.render(state, theme: .fallback).lines()
        XCTAssertTrue(downloads.contains { $0.contains("Big 4999") && $0.hasSuffix("DOWNLOADING") }, downloads.joined(separator: "\n"))
        XCTAssertTrue(downloads.contains { $0.contains("40%") && $0.contains("0.4 of 1.0 MB") }, downloads.joined(separator: "\n"))
        try press(.escape, &state, loader)
        try press(.end, &state, loader)
        let shelf = AppView.render(state, theme: .fallback).lines()
        XCTAssertTrue(shelf.contains { $0.contains("0.4 of 1.0 MB") }, "the row shows the downloads model's figures: \(shelf.joined(separator: "\n"))")
    }
}
