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
        // A local catalog at the root of the file system: the covers in the sample library and in scratch folders
        // are all below its folder (`DocumentOrigin`).
        let publication = try store.addPublication(title: "Covers", feedURL: URL(fileURLWithPath: "/covers.plist"))
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
        XCTAssertEqual(server.settledLog().count, 1, "a duplicate request does not fetch twice")
    }

    // MARK: Scheduling under fast scrolling

    /// A solid-colour PNG, so the art's colours say which cover it was drawn from.
    private func solidCover(_ color: RGBColor, width: Int = 60, height: Int = 80) throws -> Data {
        try ImageEncoder.png(RasterImage(width: width, height: height, red: color.red, green: color.green, blue: color.blue, alpha: 255))
    }

    private func distinctColor(_ index: Int) -> RGBColor {
        RGBColor(red: UInt8(20 + (index * 37) % 220), green: UInt8(20 + (index * 71) % 220), blue: UInt8(20 + (index * 113) % 220))
    }

    private func isColor(_ color: RGBColor?, _ expected: RGBColor) -> Bool {
        guard let color else { return false }
        return abs(Int(color.red) - Int(expected.red)) <= 2 && abs(Int(color.green) - Int(expected.green)) <= 2
            && abs(Int(color.blue) - Int(expected.blue)) <= 2
    }

    func testFastScrollingDeliversEveryIssueItsOwnCover() throws {
        let harness = try makeHarness()
        let server = try TestSupport.server(for: self)
        let folder = try TestFiles.scratchFolder(for: self)
        var issues: [Issue] = []
        var colors: [Int64: RGBColor] = [:]
        for index in 0..<40 {
            let color = distinctColor(index)
            let data = try solidCover(color)
            let url: URL
            if index.isMultiple(of: 2) {
                server.setResource("/covers/\(index).png", data: data, contentType: "image/png")
                url = server.url(for: "/covers/\(index).png")
            } else {
                url = folder.appendingPathComponent("\(index).png")
                try data.write(to: url)
            }
            let issue = try harness.addIssue("issue-\(index)", cover: url)
            issues.append(issue)
            colors[issue.id] = color
        }
        let modes: [CoverArtMode] = [.asciiColor, .blocks]
        func window(_ start: Int, step: Int) -> [CoverArtRequest] {
            (start..<min(issues.count, start + 6)).map { i in
                CoverArtRequest(issueID: issues[i].id, columns: 8 + (step % 3), rows: 4 + (i % 2),
                                background: step.isMultiple(of: 5) ? .light : .dark, mode: modes[(i + step) % 2])
            }
        }
        // Scroll down and up again quickly, dropping what went out of view each time.
        var step = 0
        for start in Array(0...34) + Array((0...34).reversed()) + Array(stride(from: 0, through: 34, by: 3)) {
            let visible = window(start, step: step)
            harness.service.request(visible)
            harness.service.keepOnly(Set(visible))
            step += 1
        }
        let finalWindow = window(10, step: 1000)
        harness.service.request(finalWindow)
        harness.service.keepOnly(Set(finalWindow))
        XCTAssertTrue(harness.events.wait { events in
            Set(finalWindow).isSubset(of: Set(events.compactMap { if case .rendered(let r, _) = $0 { r } else { nil } }))
        }, "the rows in view at the end are all drawn")

        let events = harness.events.all
        XCTAssertGreaterThan(events.count, finalWindow.count)
        for event in events {
            guard case .rendered(let request, let art) = event else { XCTFail("unexpected \(event)"); continue }
            let expected = try XCTUnwrap(colors[request.issueID])
            XCTAssertEqual(art.columns, request.columns)
            XCTAssertEqual(art.rows, request.rows)
            let painted = art.foreground.compactMap { $0 } + (request.mode == .blocks ? art.background.compactMap { $0 } : [])
            XCTAssertFalse(painted.isEmpty)
            XCTAssertTrue(painted.allSatisfy { isColor($0, expected) },
                          "issue \(request.issueID) (\(request.mode)) drew another issue's colours: \(Set(painted)) instead of \(expected)")
        }
    }

    func testNewestRequestsGoFirstAndDroppedOnesNeverStart() throws {
        let (store, paths) = try TestSupport.store(for: self)
        // Local, so its covers in a scratch folder may be read (`DocumentOrigin`); its http ones may be too.
        let publication = try store.addPublication(title: "Order", feedURL: URL(fileURLWithPath: "/order.plist"))
        let events = EventLog<CoverArtEvent>()
        let service = CoverArtService(store: store, cacheDirectory: paths.coverCacheDirectory, concurrency: 1) { events.append($0) }
        let server = try TestSupport.server(for: self)
        // About 40 KB of noise at 50 KB/s: holds the only worker for most of a second.
        var noise = [UInt8](repeating: 255, count: 100 * 100 * 4)
        var seed: UInt32 = 12345
        for i in noise.indices where i % 4 != 3 { seed = seed &* 1_103_515_245 &+ 12345; noise[i] = UInt8(truncatingIfNeeded: seed >> 16) }
        server.setResource("/slow.png", data: try ImageEncoder.png(RasterImage(width: 100, height: 100, pixels: noise)), contentType: "image/png")
        server.bytesPerSecond = 50_000
        let folder = try TestFiles.scratchFolder(for: self)
        func issue(_ name: String, _ url: URL) throws -> Issue {
            try XCTUnwrap(try store.upsertIssues([TestSupport.entry(name, cover: url)], publicationID: publication.id).first { $0.name == name })
        }
        let slow = try issue("slow", server.url(for: "/slow.png"))
        var fast: [Issue] = []
        for index in 0..<5 {
            let url = folder.appendingPathComponent("\(index).png")
            try solidCover(distinctColor(index)).write(to: url)
            fast.append(try issue("fast-\(index)", url))
        }
        func request(_ issue: Issue) -> CoverArtRequest { CoverArtRequest(issueID: issue.id, columns: 6, rows: 4, mode: .blocks) }

        service.request([request(slow)])
        Thread.sleep(forTimeInterval: 0.2)
        service.request([request(fast[0]), request(fast[1])])      // older
        service.request([request(fast[2]), request(fast[3])])      // newer: goes first, in order
        service.request([request(fast[4])])                        // newest
        service.keepOnly([request(slow), request(fast[0]), request(fast[2]), request(fast[3]), request(fast[4])]) // fast-1 scrolled away
        XCTAssertTrue(events.wait { $0.count >= 5 })
        Thread.sleep(forTimeInterval: 0.3)
        let order = events.all.map { event -> Int64 in
            if case .rendered(let r, _) = event { return r.issueID }
            return -1
        }
        XCTAssertEqual(order, [slow.id, fast[4].id, fast[2].id, fast[3].id, fast[0].id], "newest first; fast-1 dropped")
    }

    // MARK: Cover file validation

    func testCoverFileIsRevalidatedWithItsETagAndRefetchedWhenItChanges() throws {
        let harness = try makeHarness()
        let server = try TestSupport.server(for: self)
        let red = RGBColor(red: 220, green: 10, blue: 10), blue = RGBColor(red: 10, green: 10, blue: 220)
        server.setResource("/cover.png", data: try solidCover(red), contentType: "image/png")
        let issue = try harness.addIssue("validated", cover: server.url(for: "/cover.png"))
        let request = CoverArtRequest(issueID: issue.id, columns: 6, rows: 4, mode: .blocks)

        func render(with service: CoverArtService, _ events: EventLog<CoverArtEvent>, _ request: CoverArtRequest) throws -> TextArt {
            let before = events.all.count
            service.request([request])
            XCTAssertTrue(events.wait { $0.count > before })
            guard case .rendered(let answered, let art)? = events.all.last else { throw TestRequirement.broken("the cover was not rendered: \(events.all)") }
            XCTAssertEqual(answered, request)
            return art
        }
        func newService() -> (CoverArtService, EventLog<CoverArtEvent>) {
            let events = EventLog<CoverArtEvent>()
            return (CoverArtService(store: harness.store, cacheDirectory: harness.paths.coverCacheDirectory) { events.append($0) }, events)
        }

        // First run: fetched once, even for a second size.
        var art = try render(with: harness.service, harness.events, request)
        XCTAssertTrue(isColor(art.foreground(column: 3, row: 2), red))
        _ = try render(with: harness.service, harness.events, CoverArtRequest(issueID: issue.id, columns: 9, rows: 5, mode: .asciiColor))
        XCTAssertEqual(server.log(atLeast: 1).map(\.status), [200])
        XCTAssertNil(server.settledLog()[0].headers["if-none-match"])
        let validators = try String(contentsOf: harness.paths.coverCacheDirectory.appendingPathComponent("\(issue.id)-cover.png.validators"), encoding: .utf8)
        XCTAssertTrue(validators.contains("etag \""), validators)

        // Next run: revalidated with If-None-Match, 304, the cached file is used.
        let (second, secondEvents) = newService()
        art = try render(with: second, secondEvents, request)
        XCTAssertTrue(isColor(art.foreground(column: 3, row: 2), red))
        XCTAssertEqual(server.log(atLeast: 2).count, 2)
        XCTAssertEqual(server.settledLog().last?.status, 304)
        XCTAssertNotNil(server.settledLog().last?.headers["if-none-match"])
        XCTAssertNotNil(server.settledLog().last?.headers["if-modified-since"])

        // The publisher replaces the cover: the next run's revalidation gets the new file.
        server.setResource("/cover.png", data: try solidCover(blue), contentType: "image/png")
        let (third, thirdEvents) = newService()
        art = try render(with: third, thirdEvents, request)
        XCTAssertTrue(isColor(art.foreground(column: 3, row: 2), blue), "\(String(describing: art.foreground(column: 3, row: 2)))")
        XCTAssertEqual(server.log(atLeast: 3).map(\.status), [200, 304, 200])

        // A later run that cannot reach the server still draws the cached cover.
        server.stop()
        let (fourth, fourthEvents) = newService()
        art = try render(with: fourth, fourthEvents, CoverArtRequest(issueID: issue.id, columns: 7, rows: 4, mode: .blocks))
        XCTAssertTrue(isColor(art.foreground(column: 3, row: 2), blue))
    }

    func testCoverOlderThanTheIntervalIsRevalidatedWithinARun() throws {
        let (store, paths) = try TestSupport.store(for: self)
        let publication = try store.addPublication(title: "Stale", feedURL: URL(string: "https://example.com/s.plist")!)
        let server = try TestSupport.server(for: self)
        server.setResource("/c.png", data: try solidCover(.white), contentType: "image/png")
        let issue = try XCTUnwrap(try store.upsertIssues([TestSupport.entry("stale", cover: server.url(for: "/c.png"))], publicationID: publication.id).first)
        let events = EventLog<CoverArtEvent>()
        let service = CoverArtService(store: store, cacheDirectory: paths.coverCacheDirectory, revalidationInterval: 0) { events.append($0) }
        for (index, columns) in [5, 6, 7].enumerated() {
            service.request([CoverArtRequest(issueID: issue.id, columns: columns, rows: 3)])
            XCTAssertTrue(events.wait { $0.count > index })
        }
        XCTAssertEqual(server.log(atLeast: 3).map(\.status), [200, 304, 304])
    }
}
