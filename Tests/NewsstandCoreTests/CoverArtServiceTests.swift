import Foundation
import XCTest
@testable import NewsstandCore
import NewsstandImaging

final class CoverArtServiceTests: XCTestCase {
    private struct Harness {
        let store: LibraryStore
        let paths: LibraryPaths
        let publication: Publication
        let events: EventLog<CoverArtEvent>
        let service: CoverArtService

        func addIssue(_ name: String, cover: URL?) throws -> Issue {
            let issues = try store.upsertIssues([TestSupport.entry(name, cover: cover)], publicationID: publication.id)
            return try XCTUnwrap(issues.first { $0.name == name })
        }

        /// Waits until `count` events have arrived in total and returns them.
        func waitForEvents(_ count: Int) -> [CoverArtEvent] {
            XCTAssertTrue(events.wait { $0.count >= count }, "waited for \(count) cover events, got \(events.all.count)")
            return events.all
        }
    }

    private func makeHarness() throws -> Harness {
        let (store, paths) = try TestSupport.store(for: self)
        let publication = try store.addPublication(title: "Covers", feedURL: URL(string: "https://example.com/c.plist")!)
        let events = EventLog<CoverArtEvent>()
        let service = CoverArtService(store: store, cacheDirectory: paths.coverCacheDirectory) { events.append($0) }
        return Harness(store: store, paths: paths, publication: publication, events: events, service: service)
    }

    private func sampleCover(_ name: String) -> URL {
        TestFiles.sampleLibrary.appendingPathComponent("covers/\(name)")
    }

    func testSeveralCoversRenderForTheRequestsTheyAnswer() throws {
        let harness = try makeHarness()
        let covers = ["2025-spring.png", "2025-autumn.jpg", "2025-winter.png", "2026-spring.jpg"]
        var requests: [CoverArtRequest] = []
        for (index, cover) in covers.enumerated() {
            let issue = try harness.addIssue("i\(index)", cover: sampleCover(cover))
            requests.append(CoverArtRequest(issueID: issue.id, columns: 12 + 2 * index, rows: 6 + index,
                                            background: index.isMultiple(of: 2) ? .dark : .light))
        }
        harness.service.request(requests)
        let events = harness.waitForEvents(requests.count)
        XCTAssertEqual(events.count, requests.count)
        var arts: [Int64: TextArt] = [:]
        for event in events {
            guard case .rendered(let request, let art) = event else { XCTFail("\(event)"); continue }
            XCTAssertTrue(requests.contains(request), "answers a request that was made")
            XCTAssertEqual(art.columns, request.columns)
            XCTAssertEqual(art.rows, request.rows)
            XCTAssertEqual(art.lines.count, request.rows)
            XCTAssertEqual(art.foreground.count, request.rows * request.columns)
            arts[request.issueID] = art
        }
        XCTAssertEqual(Set(arts.keys), Set(requests.map(\.issueID)), "every issue got its own answer")
        XCTAssertEqual(Set(arts.values.map(\.lines)).count, covers.count, "different covers draw differently")
        let cached = try FileManager.default.contentsOfDirectory(atPath: harness.paths.coverCacheDirectory.path)
        XCTAssertEqual(cached.filter { !$0.hasSuffix(".validators") }.count, covers.count, "fetched covers are kept in the disk cache")
        XCTAssertEqual(cached.filter { $0.hasSuffix(".validators") }.count, covers.count, "with their validators beside them")
    }

    func testCorruptCoverFailsWithAReason() throws {
        let harness = try makeHarness()
        let folder = try TestFiles.scratchFolder(for: self)
        let corrupt = folder.appendingPathComponent("corrupt.png")
        try TestFiles.pseudoRandomData(count: 4096).write(to: corrupt)
        let truncated = folder.appendingPathComponent("truncated.png")
        try Data(try Data(contentsOf: sampleCover("2025-spring.png")).prefix(300)).write(to: truncated)
        let bad = try harness.addIssue("bad", cover: corrupt)
        let cut = try harness.addIssue("cut", cover: truncated)
        let missing = try harness.addIssue("missing-file", cover: folder.appendingPathComponent("nope.jpg"))
        let none = try harness.addIssue("no-cover", cover: nil)
        let requests = [bad, cut, missing, none].map { CoverArtRequest(issueID: $0.id, columns: 10, rows: 5) }
            + [CoverArtRequest(issueID: 987_654, columns: 10, rows: 5)]
        harness.service.request(requests)
        let events = harness.waitForEvents(requests.count)
        for event in events {
            guard case .failed(let request, let reason) = event else { XCTFail("expected failure: \(event)"); continue }
            XCTAssertTrue(requests.contains(request))
            XCTAssertFalse(reason.isEmpty)
        }
        XCTAssertEqual(Set(events.map { if case .failed(let r, _) = $0 { r.issueID } else { -1 } }), Set(requests.map(\.issueID)))
    }

    func testSecondRequestIsAnsweredFromTheCache() throws {
        let harness = try makeHarness()
        let folder = try TestFiles.scratchFolder(for: self)
        let cover = folder.appendingPathComponent("cover.jpg")
        try FileManager.default.copyItem(at: sampleCover("2025-summer.jpg"), to: cover)
        let issue = try harness.addIssue("cached", cover: cover)
        let request = CoverArtRequest(issueID: issue.id, columns: 20, rows: 10)

        harness.service.request([request])
        guard case .rendered(let answered, let first)? = harness.waitForEvents(1).first else { return XCTFail("\(harness.events.all)") }
        XCTAssertEqual(answered, request)

        // Remove the cover and the disk cache: only the in-memory cache can answer now.
        try FileManager.default.removeItem(at: cover)
        try FileManager.default.removeItem(at: harness.paths.coverCacheDirectory)
        harness.service.request([request])
        let events = harness.waitForEvents(2)
        XCTAssertEqual(events.last, .rendered(request, first))

        // A different size is a different key: it has to fetch, and the file is gone.
        let bigger = CoverArtRequest(issueID: issue.id, columns: 30, rows: 15)
        harness.service.request([bigger])
        guard case .failed(let failed, _)? = harness.waitForEvents(3).last else { return XCTFail("\(harness.events.all)") }
        XCTAssertEqual(failed, bigger)
    }

    func testDiskCacheServesANewServiceWhenTheSourceIsGone() throws {
        let harness = try makeHarness()
        let folder = try TestFiles.scratchFolder(for: self)
        let cover = folder.appendingPathComponent("cover.png")
        try FileManager.default.copyItem(at: sampleCover("2025-winter.png"), to: cover)
        let issue = try harness.addIssue("disk", cover: cover)
        let request = CoverArtRequest(issueID: issue.id, columns: 16, rows: 8)
        harness.service.request([request])
        guard case .rendered(_, let art)? = harness.waitForEvents(1).first else { return XCTFail("\(harness.events.all)") }
        try FileManager.default.removeItem(at: cover)

        let events = EventLog<CoverArtEvent>()
        let fresh = CoverArtService(store: harness.store, cacheDirectory: harness.paths.coverCacheDirectory) { events.append($0) }
        fresh.request([request])
        XCTAssertTrue(events.wait { !$0.isEmpty })
        XCTAssertEqual(events.all.first, .rendered(request, art))
    }

    func testCoversOverHTTP() throws {
        let harness = try makeHarness()
        let server = try TestSupport.server(for: self, root: TestFiles.sampleLibrary)
        let issue = try harness.addIssue("remote", cover: server.url(for: "/covers/2026-autumn.png"))
        let request = CoverArtRequest(issueID: issue.id, columns: 14, rows: 7)
        harness.service.request([request, request])
        guard case .rendered(let answered, let art)? = harness.waitForEvents(1).first else { return XCTFail("\(harness.events.all)") }
        XCTAssertEqual(answered, request)
        XCTAssertEqual(art.columns, 14)
        harness.service.request([request])
        XCTAssertEqual(harness.waitForEvents(2).count, 2)
        XCTAssertEqual(server.requestLog.count, 1, "a duplicate request does not fetch twice")
    }
}
