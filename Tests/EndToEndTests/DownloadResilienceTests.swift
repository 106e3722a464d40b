import Foundation
import LocalHTTPServer
import NewsstandCore
import NewsstandTestSupport
import XCTest

/// `newsstand download` killed at random moments, and run against a full disk: the library survives both.
final class DownloadResilienceTests: EndToEndTestCase {

    private var dataDirectory: URL { home.appendingPathComponent(".local/share/newsstand") }

    private func listed(_ environment: [String: String]) throws -> [String: [String: Any]] {
        let result = try TestEnvironment.run(["list", "--json"], environment: environment)
        XCTAssertEqual(result.status, 0, result.errors)
        let rows = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String: Any]])
        return Dictionary(uniqueKeysWithValues: rows.map { ($0["name"] as? String ?? "", $0) })
    }

    func testKillingTheDownloaderAtRandomMomentsNeverDamagesTheLibrary() throws {
        let server = try startSampleServer()
        server.bytesPerSecond = 20_000 // per response; the four issues take several seconds
        let environment = TestEnvironment.environment(home: home)
        let subscribe = try TestEnvironment.run(["subscribe", server.url(for: "catalog.plist").absoluteString], environment: environment)
        XCTAssertEqual(subscribe.status, 0, subscribe.errors)
        let names = ["2025-autumn", "2025-spring", "2025-summer", "2025-winter"]

        var random = SeededRandom(seed: 0x6E_65_77_73)
        var kills = 0
        var states: [String] = []
        let errorsFile = home.appendingPathComponent("stderr.txt")
        _ = FileManager.default.createFile(atPath: errorsFile.path, contents: nil)
        let errors = try FileHandle(forWritingTo: errorsFile)
        defer { try? errors.close() }
        while kills < 20 {
            let child = try TestEnvironment.start(["download"] + names, environment: environment, errors: errors)
            let deadline = Date(timeIntervalSinceNow: Double.random(in: 0.05...0.5, using: &random))
            while child.isRunning && Date() < deadline { usleep(5_000) }
            if child.isRunning {
                kill(child.processIdentifier, SIGKILL)
                kills += 1
            }
            child.waitUntilExit()
            if !child.isRunning && child.terminationReason == .exit && child.terminationStatus == 0 { break } // all done early
            states.append(try listed(environment).values.compactMap { $0["state"] as? String }.sorted().joined(separator: ","))
        }
        XCTAssertGreaterThanOrEqual(kills, 15, "the downloads were still running for most of the kills")
        XCTAssertTrue(states.contains { $0.contains("downloading") }, "kills landed in the middle of transfers: \(states)")

        let final = try TestEnvironment.run(["download"] + names, environment: environment)
        XCTAssertEqual(final.status, 0, final.errors)

        let rows = try listed(environment)
        for name in names {
            XCTAssertEqual(rows[name]?["state"] as? String, "available", "\(name): \(rows[name] ?? [:])")
            let read = try TestEnvironment.run(["read", name, "--plain"], environment: environment)
            XCTAssertEqual(read.status, 0, "\(name): \(read.errors)")
            XCTAssertFalse(read.output.isEmpty)
        }
        let resumed = server.requestLog.filter { record in
            guard let range = record.range, range.hasPrefix("bytes="), let start = Int(range.dropFirst(6).dropLast()) else { return false }
            return start > 0
        }
        XCTAssertFalse(resumed.isEmpty, "at least one download continued with a Range")
        let messages = (try String(contentsOf: errorsFile, encoding: .utf8)) + final.errors
        XCTAssertTrue(messages.contains(": resumed at "), "the command says when it resumes")
        XCTAssertEqual((try? FileManager.default.contentsOfDirectory(atPath: dataDirectory.appendingPathComponent("partial").path)) ?? [], [],
                       "no partial files are left once everything is installed")
        let store = try LibraryStore(file: dataDirectory.appendingPathComponent("library.sqlite"))
        defer { store.close() }
        XCTAssertEqual(try store.integrityCheck(), ["ok"])
        XCTAssertEqual(try store.allIssues().filter { $0.state == .available }.count, names.count)
    }

    func testAFullDiskFailsClearlyAndLeavesTheLibraryIntact() throws {
        let environment = TestEnvironment.environment(home: home, sample: true)
        let first = try TestEnvironment.run(["download", "2025-autumn"], environment: environment)
        XCTAssertEqual(first.status, 0, first.errors)

        // Files may not grow past 64 KB in the child; 2026-autumn is 146 KB. bash counts ulimit -f in KiB.
        let shell = URL(fileURLWithPath: FileManager.default.isExecutableFile(atPath: "/bin/bash") ? "/bin/bash" : "/bin/sh")
        let blocks = shell.path == "/bin/bash" ? 64 : 128
        let full = try TestEnvironment.run(executable: shell, ["-c", "ulimit -f \(blocks); exec \"$0\" \"$@\"",
                                                                try TestEnvironment.binary().path, "download", "2026-autumn"],
                                           environment: environment)
        XCTAssertEqual(full.status, 1, full.errors)
        XCTAssertTrue(full.errors.contains("the disk is full"), full.errors)

        let rows = try listed(environment)
        XCTAssertEqual(rows["2025-autumn"]?["state"] as? String, "available", "the other issue is unaffected")
        XCTAssertEqual(rows["2026-autumn"]?["state"] as? String, "failed")
        XCTAssertEqual(rows["2026-autumn"]?["failure"] as? String, "the disk is full")
        XCTAssertEqual(try TestEnvironment.run(["read", "2025-autumn", "--plain"], environment: environment).status, 0)
        XCTAssertEqual((try? FileManager.default.contentsOfDirectory(atPath: dataDirectory.appendingPathComponent("partial").path)) ?? [], [])
        let store = try LibraryStore(file: dataDirectory.appendingPathComponent("library.sqlite"))
        defer { store.close() }
        XCTAssertEqual(try store.integrityCheck(), ["ok"])
    }
}
