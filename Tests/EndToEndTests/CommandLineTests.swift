import Foundation
import LocalHTTPServer
import XCTest

/// The command line as scripts use it: exit statuses, JSON, plain text.
final class CommandLineTests: EndToEndTestCase {

    func testFirstRunSubscribesTheSampleAndListsItAsJSON() throws {
        let result = try TestEnvironment.run(["list", "--json"], environment: TestEnvironment.environment(home: home, sample: true))
        XCTAssertEqual(result.status, 0, result.errors)
        let rows = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String: Any]])
        XCTAssertEqual(rows.count, 6)
        XCTAssertEqual(rows.first?["publication"] as? String, "kettle-compass")
        XCTAssertEqual(rows.first?["name"] as? String, "2026-autumn")
        XCTAssertEqual(rows.first?["date"] as? String, "2026-09-22T12:00:00Z")
        XCTAssertEqual(rows.first?["state"] as? String, "none")
        XCTAssertNotNil(rows.first?["progress"] as? Double)
        XCTAssertTrue(FileManager.default.fileExists(atPath: home.appendingPathComponent(".local/share/newsstand/library.sqlite").path),
                      "the library lives under XDG_DATA_HOME's default")
    }

    func testDownloadThenReadPlainText() throws {
        let environment = TestEnvironment.environment(home: home, sample: true)
        let download = try TestEnvironment.run(["download", "2025-autumn"], environment: environment)
        XCTAssertEqual(download.status, 0, download.errors)
        XCTAssertTrue(download.errors.contains("100%"), download.errors)
        let read = try TestEnvironment.run(["read", "2025-autumn", "--plain", "--article", "1", "--width", "50"], environment: environment)
        XCTAssertEqual(read.status, 0, read.errors)
        XCTAssertTrue(read.output.contains("金継ぎ"), "wide characters come through")
        XCTAssertFalse(read.output.contains("\u{1B}"), "--plain has no escape sequences")
        for line in read.output.split(separator: "\n") {
            XCTAssertLessThanOrEqual(line.count, 50, "line wider than --width: \(line)")
        }
        let missing = try TestEnvironment.run(["read", "2025-autumn", "--article", "9"], environment: environment)
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.errors.contains("there is no article 9"), missing.errors)
    }

    func testFailedDownloadExitsNonZeroAndKeepsTheReason() throws {
        let server = try startSampleServer()
        let catalog = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><array>
            <dict><key>Name</key><string>gone</string><key>Title</key><string>Gone</string>
            <key>Date</key><date>2026-01-01T00:00:00Z</date><key>Content</key><string>issues/missing.epub</string></dict>
            </array></plist>
            """
        server.setResource("/broken.plist", data: Data(catalog.utf8))
        let environment = TestEnvironment.environment(home: home)
        XCTAssertEqual(try TestEnvironment.run(["subscribe", server.url(for: "broken.plist").absoluteString], environment: environment).status, 0)
        let download = try TestEnvironment.run(["download", "gone"], environment: environment)
        XCTAssertEqual(download.status, 1)
        XCTAssertTrue(download.errors.contains("404"), download.errors)
        let listed = try TestEnvironment.run(["list", "--json"], environment: environment)
        let rows = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(listed.output.utf8)) as? [[String: Any]])
        XCTAssertEqual(rows.first?["state"] as? String, "failed")
        XCTAssertTrue((rows.first?["failure"] as? String ?? "").contains("404"))
    }

    func testSubscribingToSomethingThatIsNotACatalogSavesNothing() throws {
        let environment = TestEnvironment.environment(home: home)
        let junk = home.appendingPathComponent("junk.plist")
        try Data("this is not a property list".utf8).write(to: junk)
        let result = try TestEnvironment.run(["subscribe", junk.path], environment: environment)
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.errors.contains("not a feed"), result.errors)
        XCTAssertEqual(try TestEnvironment.run(["list", "--json"], environment: environment).output.trimmingCharacters(in: .whitespacesAndNewlines), "[\n\n]")
    }

    func testUnsubscribeRemovesThePublicationAndItsFiles() throws {
        let environment = TestEnvironment.environment(home: home, sample: true)
        XCTAssertEqual(try TestEnvironment.run(["download", "2025-spring"], environment: environment).status, 0)
        let issues = home.appendingPathComponent(".local/share/newsstand/issues/kettle-compass")
        XCTAssertTrue(FileManager.default.fileExists(atPath: issues.path))
        let result = try TestEnvironment.run(["unsubscribe", "kettle-compass"], environment: environment)
        XCTAssertEqual(result.status, 0, result.errors)
        XCTAssertFalse(FileManager.default.fileExists(atPath: issues.path))
        XCTAssertTrue(try TestEnvironment.run(["list"], environment: environment).output.contains("No issues"), "the sample is not re-added")
    }

    func testExportThenImportMovesSubscriptionsToAnotherLibrary() throws {
        let first = TestEnvironment.environment(home: home, sample: true)
        let exported = try TestEnvironment.run(["export"], environment: first)
        XCTAssertEqual(exported.status, 0, exported.errors)
        XCTAssertTrue(exported.output.contains(#"title="Kettle &amp; Compass""#), exported.output)
        let file = home.appendingPathComponent("subscriptions.opml")
        try Data(exported.output.utf8).write(to: file)

        let otherHome = try TestEnvironment.temporaryHome()
        defer { try? FileManager.default.removeItem(at: otherHome) }
        let second = TestEnvironment.environment(home: otherHome)
        let imported = try TestEnvironment.run(["import", file.path], environment: second)
        XCTAssertEqual(imported.status, 0, imported.errors)
        XCTAssertEqual(imported.output, "Imported 1 subscription.\n")
        XCTAssertEqual(try TestEnvironment.run(["import", file.path], environment: second).output, "Imported 0 subscriptions; 1 already subscribed.\n")
        let rows = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(try TestEnvironment.run(["list", "--json"], environment: second).output.utf8)) as? [[String: Any]])
        XCTAssertEqual(rows.count, 6)
    }

    func testUsageErrorsHelpAndVersion() throws {
        let environment = TestEnvironment.environment(home: home)
        let unknown = try TestEnvironment.run(["frobnicate"], environment: environment)
        XCTAssertEqual(unknown.status, 2)
        XCTAssertTrue(unknown.errors.contains("unknown command 'frobnicate'"))
        let help = try TestEnvironment.run(["--help"], environment: environment)
        XCTAssertEqual(help.status, 0)
        for command in ["subscribe URL", "unsubscribe PUBLICATION", "list [--json]", "download ISSUE", "read ISSUE"] {
            XCTAssertTrue(help.output.contains(command), "help lacks \(command)")
        }
        XCTAssertTrue(try TestEnvironment.run(["--version"], environment: environment).output.hasPrefix("newsstand "))
        XCTAssertEqual(try TestEnvironment.run(["read"], environment: environment).status, 2)
        let notATerminal = try TestEnvironment.run([], environment: environment)
        XCTAssertEqual(notATerminal.status, 1)
        XCTAssertTrue(notATerminal.errors.contains("needs a terminal"))
    }
}
