import Foundation
import LocalHTTPServer
import NewsstandTestSupport
import XCTest

/// `newsstand sync` against a real server whose catalog changes between runs.
final class SyncEndToEndTests: EndToEndTestCase {
    var server: LocalHTTPServer!

    override func setUpWithError() throws {
        try super.setUpWithError()
        server = try startSampleServer()
    }

    /// A catalog of some sample issues, served at /weekly.plist.
    func publish(_ names: [String]) {
        let items = names.enumerated().map { index, name in
            "<dict><key>Name</key><string>\(name)</string><key>Title</key><string>Issue \(name)</string>" +
            "<key>Date</key><date>2026-0\(index + 1)-01T00:00:00Z</date><key>Content</key><string>issues/\(name).epub</string></dict>"
        }
        let plist = #"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict><key>Title</key><string>Weekly</string><key>Issues</key><array>"#
            + items.joined() + "</array></dict></plist>"
        server.setResource("/weekly.plist", data: Data(plist.utf8), contentType: "application/xml")
    }

    func rows(_ environment: [String: String]) throws -> [String: [String: Any]] {
        let output = try TestEnvironment.run(["list", "--json"], environment: environment).output
        let array = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]])
        // Keyed by "publication/name": names may repeat across publications.
        return Dictionary(uniqueKeysWithValues: array.map { ("\($0["publication"] as? String ?? "")/\($0["name"] as? String ?? "")", $0) })
    }

    func testNewIssuesArriveDownloadMarkedNewAndOldOnesMakeRoom() throws {
        let environment = TestEnvironment.environment(home: home)
        publish(["2025-spring"])
        let subscribed = try TestEnvironment.run(["subscribe", server.url(for: "weekly.plist").absoluteString, "--auto-download", "all", "--keep", "1"],
                                                 environment: environment)
        XCTAssertEqual(subscribed.status, 0, subscribed.errors)
        XCTAssertEqual(try rows(environment)["weekly/2025-spring"]?["new"] as? Bool, false, "the first catalog is not new")

        var sync = try TestEnvironment.run(["sync"], environment: environment)
        XCTAssertEqual(sync.status, 0, sync.errors)
        XCTAssertEqual(sync.output, "Weekly: up to date\n")
        XCTAssertEqual(try rows(environment)["weekly/2025-spring"]?["state"] as? String, "none", "nothing arrived, nothing to download")

        XCTAssertEqual(try TestEnvironment.run(["download", "2025-spring"], environment: environment).status, 0)
        publish(["2025-spring", "2025-summer"])
        sync = try TestEnvironment.run(["sync"], environment: environment)
        XCTAssertEqual(sync.status, 0, sync.errors)
        XCTAssertTrue(sync.output.hasPrefix("Weekly: 1 new issue; 2025-summer downloaded\n"), sync.output)
        XCTAssertTrue(sync.output.contains("Removed to keep within limits: 2025-spring"), sync.output)
        let after = try rows(environment)
        XCTAssertEqual(after["weekly/2025-summer"]?["state"] as? String, "available")
        XCTAssertEqual(after["weekly/2025-summer"]?["new"] as? Bool, true)
        XCTAssertEqual(after["weekly/2025-spring"]?["state"] as? String, "none", "keep 1: the older download made room")

        // Reading clears NEW; a second sync brings nothing and requests the catalog again.
        XCTAssertEqual(try TestEnvironment.run(["read", "2025-summer", "--plain", "--article", "1"], environment: environment).status, 0)
        XCTAssertEqual(try rows(environment)["weekly/2025-summer"]?["new"] as? Bool, false)
    }

    func testNotifyProgramRunsAfterASyncThatBroughtNewIssuesOnly() throws {
        let bin = home.appendingPathComponent("bin", isDirectory: true)
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let record = home.appendingPathComponent("notified")
        let notifier = bin.appendingPathComponent("notify-stand-in")
        try Data("#!/bin/sh\nprintf '%s\\n' \"$@\" > '\(record.path)'\ncat >> '\(record.path)'\n".utf8).write(to: notifier)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: notifier.path)
        let config = home.appendingPathComponent(".config/newsstand", isDirectory: true)
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try "notify-program notify-stand-in Newsstand\n".write(to: config.appendingPathComponent("config"), atomically: true, encoding: .utf8)
        var environment = TestEnvironment.environment(home: home)
        environment["PATH"] = bin.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")

        publish(["2025-spring"])
        XCTAssertEqual(try TestEnvironment.run(["subscribe", server.url(for: "weekly.plist").absoluteString], environment: environment).status, 0)
        XCTAssertEqual(try TestEnvironment.run(["sync"], environment: environment).status, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: record.path), "nothing new, no notice")

        publish(["2025-spring", "2025-summer", "2025-autumn"])
        let sync = try TestEnvironment.run(["sync", "--quiet"], environment: environment)
        XCTAssertEqual(sync.status, 0, sync.errors)
        let notified = try String(contentsOf: record, encoding: .utf8)
        XCTAssertTrue(notified.hasPrefix("Newsstand\n2 new issues\nWeekly: Issue 2025-"), notified)
        XCTAssertTrue(notified.contains(#""name":"2025-summer""#) && notified.contains(#""publication":"weekly""#), notified)

        // A notifier that fails is named on stderr; the sync itself still succeeds.
        try "notify-program no-such-notifier\n".write(to: config.appendingPathComponent("config"), atomically: true, encoding: .utf8)
        publish(["2025-spring", "2025-summer", "2025-autumn", "2025-winter"])
        let failed = try TestEnvironment.run(["sync", "--quiet"], environment: environment)
        XCTAssertEqual(failed.status, 0, failed.errors)
        XCTAssertEqual(failed.errors, "newsstand: notify-program 'no-such-notifier' is not installed\n")
    }

    func testABrokenFeedFailsOnlyItsOwnSubscription() throws {
        let environment = TestEnvironment.environment(home: home, sample: true)
        publish(["2025-spring"])
        XCTAssertEqual(try TestEnvironment.run(["subscribe", server.url(for: "weekly.plist").absoluteString], environment: environment).status, 0)
        server.setResource("/weekly.plist", data: Data("<html>gone</html>".utf8), contentType: "text/html")
        let sync = try TestEnvironment.run(["sync"], environment: environment)
        XCTAssertEqual(sync.status, 1)
        XCTAssertTrue(sync.output.contains("Kettle & Compass: up to date"), sync.output)
        XCTAssertTrue(sync.output.contains("Weekly: not a feed: expected RSS, Atom, OPDS or a property-list catalog"), sync.output)
        XCTAssertTrue(sync.errors.contains("1 feed problem"), sync.errors)
        XCTAssertNotNil(try rows(environment)["weekly/2025-spring"], "the last good issues are kept")
        let subscriptions = try TestEnvironment.run(["subscriptions", "--json"], environment: environment)
        let list = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(subscriptions.output.utf8)) as? [[String: Any]])
        XCTAssertEqual(list.count, 2)
        XCTAssertTrue((list.first { $0["title"] as? String == "Weekly" }?["last_error"] as? String ?? "").contains("not a feed"))
    }

    func testTheOpenShelfNoticesIssuesASyncAdded() throws {
        let environment = TestEnvironment.environment(home: home)
        publish(["2025-spring"])
        XCTAssertEqual(try TestEnvironment.run(["subscribe", server.url(for: "weekly.plist").absoluteString], environment: environment).status, 0)
        var shelfEnvironment = environment
        shelfEnvironment["XDG_CONFIG_HOME"] = home.appendingPathComponent("config").path
        let session = try TmuxSession(command: try TestEnvironment.binary().path, environment: shelfEnvironment)
        try session.waitFor(text: "Issue 2025-spring")
        publish(["2025-spring", "2026-autumn"])
        XCTAssertEqual(try TestEnvironment.run(["sync"], environment: environment).status, 0)
        let screen = try session.waitFor(text: "Issue 2026-autumn")
        XCTAssertTrue(screen.contains("Weekly (1 new)"), screen)
        try session.send("q")
        session.waitForExit()
    }

    func testManagingSubscriptionsFromTheKeyboard() throws {
        publish(["2025-spring"])
        let environment = TestEnvironment.environment(home: home, sample: true)
        XCTAssertEqual(try TestEnvironment.run(["download", "2025-autumn"], environment: environment).status, 0)
        let session = try TmuxSession(command: try TestEnvironment.binary().path, width: 110, height: 30, environment: environment)
        try session.waitFor(text: "TAP TO")
        try session.send("s")
        try session.waitFor(text: "SUBSCRIPTIONS")
        try session.send("a")
        try session.send("-l", server.url(for: "weekly.plist").absoluteString)
        try session.send("Enter")
        let added = try session.waitFor(text: "Subscribed to Weekly.")
        XCTAssertTrue(added.contains("plist · auto-download none · keep all"), added)

        // Unsubscribe from the sample, keeping its downloaded issue.
        try session.send("g", "d")
        try session.waitFor(text: "keep its downloaded issues?")
        try session.send("y")
        try session.waitFor(text: "unsubscribed; downloaded issues kept")
        try session.send("q", "q")
        session.waitForExit()
        let rows = try rows(environment)
        XCTAssertEqual(rows["kettle-compass/2025-autumn"]?["state"] as? String, "available", "the kept issue is still readable")
        XCTAssertNil(rows["kettle-compass/2025-spring"], "issues that were not downloaded are gone")
        XCTAssertNotNil(rows["weekly/2025-spring"])
        let sync = try TestEnvironment.run(["sync"], environment: environment)
        XCTAssertEqual(sync.output, "Weekly: up to date\n", "an unsubscribed publication is not refreshed")
    }

    func testBrowsingAnOPDSCatalogFromTheSubscriptionsScreen() throws {
        let navigation = try TestFiles.corpus("opds/nypl-opds-feed-parser/navigation.xml")
        let environment = TestEnvironment.environment(home: home)
        XCTAssertEqual(try TestEnvironment.run(["subscribe", navigation.path], environment: environment).status, 0)
        let session = try TmuxSession(command: try TestEnvironment.binary().path, width: 100, height: 30, environment: environment)
        try session.waitFor(text: "Test Catalog Root")
        try session.send("s")
        try session.waitFor(text: "SUBSCRIPTIONS")
        try session.send("B")
        let catalog = try session.waitFor(text: "▸ First Acquisition feed")
        XCTAssertTrue(catalog.contains("CATALOG · Test Catalog Root"), catalog)
        try session.send("Enter")
        try session.waitFor(text: "This feed cannot be read") // the corpus holds the root only; the page it links to is missing
        try session.send("Escape")
        try session.waitFor(text: "▸ First Acquisition feed")
        try session.send("Escape", "Escape", "q")
        session.waitForExit()
    }
}
