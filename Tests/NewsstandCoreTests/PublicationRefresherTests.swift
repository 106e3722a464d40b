import Foundation
import XCTest
@testable import NewsstandCore
import LocalHTTPServer

final class PublicationRefresherTests: XCTestCase {
    private func catalogData(title: String? = "Kettle", names: [String]) throws -> Data {
        let items = names.map { TestSupport.catalogItem($0, content: "issues/\($0).epub", title: "Title of \($0)") }
        if let title { return try TestSupport.xmlPlist(["Title": title, "Issues": items]) }
        return try TestSupport.xmlPlist(items)
    }

    func testSubscribeToTheSampleLibrary() throws {
        let (store, _) = try TestSupport.store(for: self)
        let refresher = PublicationRefresher(store: store)
        let url = TestFiles.sampleLibrary.appendingPathComponent("catalog.plist")
        let publication = try refresher.subscribe(to: url)
        XCTAssertEqual(publication.feedURL, url)
        XCTAssertFalse(publication.title.isEmpty)
        XCTAssertNil(publication.lastError)
        XCTAssertNotNil(publication.lastRefresh)
        let issues = try store.issues(publicationID: publication.id)
        XCTAssertEqual(issues.count, 6)
        XCTAssertEqual(Set(issues.map(\.name)), ["2025-spring", "2025-summer", "2025-autumn", "2025-winter", "2026-spring", "2026-autumn"])
        XCTAssertEqual(issues.first?.name, "2026-autumn", "newest first")
        XCTAssertTrue(issues.allSatisfy { $0.state == .notDownloaded && $0.expectedSHA256 != nil && $0.coverURL?.isFileURL == true })
    }

    func testSubscribeOverHTTPUsesTheCatalogTitle() throws {
        let (store, _) = try TestSupport.store(for: self)
        let server = try TestSupport.server(for: self)
        server.setResource("/kettle/catalog.plist", data: try catalogData(title: "Kettle & Compass", names: ["a", "b"]))
        let url = server.url(for: "/kettle/catalog.plist")
        let publication = try PublicationRefresher(store: store).subscribe(to: url)
        XCTAssertEqual(publication.title, "Kettle & Compass")
        XCTAssertEqual(publication.name, "kettle-compass")
        let issues = try store.issues(publicationID: publication.id)
        XCTAssertEqual(Set(issues.map(\.name)), ["a", "b"])
        XCTAssertEqual(issues.first?.contentURLs.first?.absoluteString.hasPrefix(server.baseURL.absoluteString + "kettle/issues/"), true)
    }

    func testBrokenCatalogIsNotSubscribed() throws {
        let (store, _) = try TestSupport.store(for: self)
        let folder = try TestFiles.scratchFolder(for: self)
        let server = try TestSupport.server(for: self)
        let refresher = PublicationRefresher(store: store)

        let garbage = folder.appendingPathComponent("catalog.plist")
        try Data("this is not a plist at all".utf8).write(to: garbage)
        XCTAssertThrowsError(try refresher.subscribe(to: garbage)) { XCTAssertTrue("\($0)".contains("not a feed"), "\($0)") }

        var onlyBad = TestSupport.catalogItem("x", content: "x.epub")
        onlyBad["Date"] = nil
        server.setResource("/bad.plist", data: try TestSupport.xmlPlist([onlyBad]))
        XCTAssertThrowsError(try refresher.subscribe(to: server.url(for: "/bad.plist")))
        XCTAssertThrowsError(try refresher.subscribe(to: server.url(for: "/missing.plist"))) { XCTAssertTrue("\($0)".contains("404"), "\($0)") }
        XCTAssertThrowsError(try refresher.subscribe(to: folder.appendingPathComponent("nope.plist")))

        XCTAssertEqual(try store.publications(), [], "nothing is saved for an unusable catalog")
        XCTAssertEqual(try store.allIssues(), [])
    }

    /// A feed that drips a byte a second: the refresh gives up after its timeout (2 s here, 30 s unless told), says the
    /// server sent too little, and keeps the issues it had.
    func testARefreshOfAFeedThatDripsGivesUpAfterTheTimeout() throws {
        let (store, _) = try TestSupport.store(for: self)
        let server = try TestSupport.server(for: self)
        server.setResource("/c.plist", data: try catalogData(names: ["one", "two"]))
        var refresher = PublicationRefresher(store: store)
        XCTAssertEqual(refresher.feedTimeout, 30)
        refresher.feedTimeout = 2
        let publication = try refresher.subscribe(to: server.url(for: "/c.plist"))
        let before = try store.issues(publicationID: publication.id)
        server.setResource("/c.plist", data: try catalogData(names: ["one", "two", "three"])) // changed: not a 304
        var plan = FaultPlan()
        plan.slowDrip = true
        server.faults = plan
        let started = Date()
        let outcome = refresher.refresh(publication)
        let elapsed = Date().timeIntervalSince(started)
        XCTAssertEqual(outcome.problem, "Kettle: 127.0.0.1 sent less than 1 KB/s for 2 s")
        XCTAssertGreaterThanOrEqual(elapsed, 1.8)
        XCTAssertLessThan(elapsed, 6, "at the timeout, not at the minute-long deadline")
        XCTAssertEqual(try store.issues(publicationID: publication.id), before, "nothing lost")
    }

    func testFailedRefreshKeepsPreviousIssuesAndRecordsTheError() throws {
        let (store, _) = try TestSupport.store(for: self)
        let server = try TestSupport.server(for: self)
        server.setResource("/c.plist", data: try catalogData(names: ["one", "two"]))
        let refresher = PublicationRefresher(store: store)
        let publication = try refresher.subscribe(to: server.url(for: "/c.plist"))
        let before = try store.issues(publicationID: publication.id)
        try store.setState(.available, issueID: before[0].id)
        let stateBefore = try store.issues(publicationID: publication.id)

        server.setResource("/c.plist", data: Data("<html>maintenance</html>".utf8), contentType: "text/html")
        let outcome = refresher.refresh(publication)
        XCTAssertEqual(outcome.newIssueNames, [])
        let problem = try XCTUnwrap(outcome.problem)
        XCTAssertTrue(problem.contains("not a feed"), problem)
        XCTAssertEqual(try store.issues(publicationID: publication.id), stateBefore, "issues and states untouched")
        let after = try XCTUnwrap(try store.publication(id: publication.id))
        XCTAssertEqual(after.lastError, problem)
        XCTAssertEqual(after.title, "Kettle")

        server.faults = { var plan = FaultPlan(); plan.failFirstRequests = (1, 503, nil); return plan }()
        let unavailable = refresher.refresh(publication)
        XCTAssertTrue(unavailable.problem?.contains("503") == true, "\(String(describing: unavailable.problem))")
        XCTAssertEqual(try store.issues(publicationID: publication.id).count, 2)

        // Once the catalog is fine again, the error is cleared.
        server.setResource("/c.plist", data: try catalogData(names: ["one", "two"]))
        let recovered = refresher.refresh(publication)
        XCTAssertNil(recovered.problem)
        XCTAssertNil(try store.publication(id: publication.id)?.lastError)
    }

    func testNewIssuesAreReported() throws {
        let (store, _) = try TestSupport.store(for: self)
        let server = try TestSupport.server(for: self)
        server.setResource("/c.plist", data: try catalogData(names: ["one", "two"]))
        let refresher = PublicationRefresher(store: store)
        let publication = try refresher.subscribe(to: server.url(for: "/c.plist"))

        let unchanged = refresher.refresh(publication)
        XCTAssertEqual(unchanged.newIssueNames, [])
        XCTAssertEqual(unchanged.issueCount, 2)

        server.setResource("/c.plist", data: try catalogData(title: "Kettle Renamed", names: ["three", "one", "two", "four"]))
        let outcome = refresher.refresh(publication)
        XCTAssertEqual(outcome.publicationID, publication.id)
        XCTAssertEqual(outcome.newIssueNames.sorted(), ["four", "three"])
        XCTAssertEqual(outcome.issueCount, 4)
        XCTAssertNil(outcome.problem)
        XCTAssertEqual(try store.publication(id: publication.id)?.title, "Kettle Renamed")
    }

    func testSkippedEntriesAreRecordedAsAProblem() throws {
        let (store, _) = try TestSupport.store(for: self)
        let server = try TestSupport.server(for: self)
        var bad = TestSupport.catalogItem("broken", content: "b.epub")
        bad["Content"] = "javascript:alert(1)"
        server.setResource("/c.plist", data: try TestSupport.xmlPlist([TestSupport.catalogItem("fine", content: "f.epub"), bad]))
        let publication = try PublicationRefresher(store: store).subscribe(to: server.url(for: "/c.plist"))
        XCTAssertEqual(try store.issues(publicationID: publication.id).map(\.name), ["fine"])
        let lastError = try XCTUnwrap(publication.lastError)
        XCTAssertTrue(lastError.contains("broken") && lastError.contains("1 of 2"), lastError)
    }

    func testOneBadPublicationDoesNotAffectAnother() throws {
        let (store, _) = try TestSupport.store(for: self)
        let server = try TestSupport.server(for: self)
        server.setResource("/good.plist", data: try catalogData(title: "Good", names: ["g1"]))
        server.setResource("/bad.plist", data: try catalogData(title: "Bad", names: ["b1", "b2"]))
        let refresher = PublicationRefresher(store: store)
        let good = try refresher.subscribe(to: server.url(for: "/good.plist"))
        let bad = try refresher.subscribe(to: server.url(for: "/bad.plist"))

        server.removeResource("/bad.plist")
        server.setResource("/good.plist", data: try catalogData(title: "Good", names: ["g1", "g2"]))
        let outcomes = [bad, good].map { refresher.refresh($0) }
        XCTAssertNotNil(outcomes[0].problem)
        XCTAssertEqual(outcomes[1].newIssueNames, ["g2"])
        XCTAssertNil(outcomes[1].problem)
        XCTAssertEqual(try store.issues(publicationID: good.id).count, 2)
        XCTAssertEqual(try store.issues(publicationID: bad.id).count, 2)
        XCTAssertNil(try store.publication(id: good.id)?.lastError)
        XCTAssertNotNil(try store.publication(id: bad.id)?.lastError)
    }

    func testFallbackTitles() {
        XCTAssertEqual(PublicationRefresher.fallbackTitle(for: URL(string: "https://mags.example.com/lantern.plist")!), "lantern")
        XCTAssertEqual(PublicationRefresher.fallbackTitle(for: URL(string: "https://mags.example.com/x/catalog.plist")!), "mags.example.com")
    }
}
