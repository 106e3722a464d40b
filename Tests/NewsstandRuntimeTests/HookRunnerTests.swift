import Foundation
import XCTest
import NewsstandCore
import NewsstandTestSupport
import NewsstandUI
@testable import NewsstandRuntime

/// The programs the config names (`browser`, `player`, `notify-program`, and xdg-open when none is named), run as real
/// processes: stand-in scripts on a PATH of their own write down the arguments and input they were given.
final class HookRunnerTests: XCTestCase {
    private var bin: URL!
    private var folder: URL!

    override func setUpWithError() throws {
        folder = try TestFiles.scratchFolder(for: self)
        bin = folder.appendingPathComponent("bin", isDirectory: true)
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
    }

    /// A script `name` in the test's bin folder running `body` (sh).
    @discardableResult
    private func script(_ name: String, _ body: String) throws -> URL {
        let script = bin.appendingPathComponent(name)
        try Data("#!/bin/sh\n\(body)\n".utf8).write(to: script)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        return script
    }

    /// A stand-in that writes each argument on a line of `record`, then its input to `record`.input.
    private func recorder(_ name: String) throws -> URL {
        let record = folder.appendingPathComponent("\(name).args")
        try script(name, "printf '%s\\n' \"$@\" > '\(record.path).tmp'; cat > '\(record.path).input'; mv '\(record.path).tmp' '\(record.path)'")
        return record
    }

    private func waitForFile(_ file: URL, timeout: TimeInterval = 10) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        while !FileManager.default.fileExists(atPath: file.path) {
            guard Date() < deadline else { XCTFail("\(file.lastPathComponent) was never written"); return "" }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return try String(contentsOf: file, encoding: .utf8)
    }

    func testTheOpenerOnPathGetsTheLinkAsOneArgument() throws {
        let record = try recorder("xdg-open")
        let notExecutable = folder.appendingPathComponent("plain", isDirectory: true)
        try FileManager.default.createDirectory(at: notExecutable, withIntermediateDirectories: true)
        try Data("not a program".utf8).write(to: notExecutable.appendingPathComponent("xdg-open"))
        let path = "\(notExecutable.path)::\(bin.path):/usr/bin"
        XCTAssertEqual(HookRunner.find("xdg-open", path: path)?.standardizedFileURL.path, bin.appendingPathComponent("xdg-open").standardizedFileURL.path,
                       "found past an empty entry and a file that is not executable")
        let link = "https://example.com/a%20b?q=1&r=$(touch%20x);y"
        XCTAssertNil(HookRunner.run(("xdg-open", [link]), role: "the system opener", wait: .finish(seconds: 10), path: path))
        XCTAssertEqual(try waitForFile(record), link + "\n", "one argument, exactly the URL")
    }

    func testFailuresAreSaidPlainly() throws {
        let empty = try TestFiles.scratchFolder(for: self).path
        XCTAssertEqual(HookRunner.run(("xdg-open", []), role: "the system opener", wait: .watch(seconds: 1), path: empty)?.description,
                       "the system opener 'xdg-open' is not installed")
        try script("grumpy", "echo 'starting' >&2; echo 'grumpy: no display' >&2; exit 3")
        XCTAssertEqual(HookRunner.run(("grumpy", []), role: "the browser", wait: .watch(seconds: 5), path: bin.path)?.description,
                       "the browser 'grumpy' failed (exit status 3): grumpy: no display")
        try script("sleepy", "sleep 30")
        let started = Date()
        XCTAssertEqual(HookRunner.run(("sleepy", []), role: "notify-program", wait: .finish(seconds: 0.5), path: bin.path)?.description,
                       "notify-program 'sleepy' did not finish in 0.5 seconds and was stopped")
        XCTAssertLessThan(Date().timeIntervalSince(started), 5, "stopped, not waited for")
        XCTAssertNil(HookRunner.run(("sleepy", []), role: "the player", wait: .watch(seconds: 0.3), path: bin.path),
                     "a player still playing after the watch is left to play")
    }

    func testNotifyGetsTheSummaryAsArgumentsAndTheIssuesAsJSON() throws {
        let library = try TemporaryLibrary(for: self)
        let publication = try library.store.addPublication(title: "Kettle & Compass", feedURL: URL(string: "https://example.com/feed")!)
        try library.store.upsertIssues([CatalogEntry(name: "urn:1", title: "Maps & Margins", date: Date(timeIntervalSince1970: 1_790_000_000),
                                                     coverURL: nil, contentURLs: [URL(string: "https://example.com/1.epub")!]),
                                        CatalogEntry(name: "b", title: "The Long Table", date: Date(timeIntervalSince1970: 1_780_000_000),
                                                     coverURL: nil, contentURLs: [URL(string: "https://example.com/2.epub")!])],
                                       publicationID: publication.id, markingNewArrivals: true)
        XCTAssertNil(NewIssuesNotice(outcomes: [.init(publicationID: publication.id, issueCount: 2, newIssueNames: [], problem: nil)], store: library.store),
                     "no new issues, no notice")
        let notice = try XCTUnwrap(NewIssuesNotice(outcomes: [.init(publicationID: publication.id, issueCount: 2, newIssueNames: ["urn:1", "b"], problem: nil)],
                                                   store: library.store))
        let record = try recorder("notify")
        let command = try XCTUnwrap(HookCommand("notify --app Newsstand"))
        XCTAssertNil(HookRunner.notify(command, notice, path: bin.path))
        XCTAssertEqual(try waitForFile(record), "--app\nNewsstand\n2 new issues\nKettle & Compass: Maps & Margins, The Long Table\n")
        let input = try String(contentsOf: URL(fileURLWithPath: record.path + ".input"), encoding: .utf8)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(input.utf8)) as? [String: [[String: String]]])
        XCTAssertEqual(json["new_issues"]?.map { $0["title"] }, ["Maps & Margins", "The Long Table"])
        XCTAssertEqual(json["new_issues"]?.first?["publication_title"], "Kettle & Compass")
        XCTAssertEqual(json["new_issues"]?.first?["name"], try library.store.findIssues("urn:1").first?.handle)
        XCTAssertEqual(json["new_issues"]?.first?["date"], "2026-09-21T14:13:20Z")

        // A notifier that ignores its input and exits at once fails nothing (and does not end this process).
        try script("quick", "exit 0")
        XCTAssertNil(HookRunner.notify(try XCTUnwrap(HookCommand("quick")), notice, path: bin.path))
    }

    func testTheRunnerOpensLinksWithTheBrowserAndMediaWithThePlayerAndSaysWhenOneFails() throws {
        let library = try TemporaryLibrary(for: self)
        let browsed = try recorder("browser")
        let played = try recorder("player")
        var configuration = Configuration()
        configuration.browser = HookCommand("\(bin.path)/browser --new-tab %u")
        configuration.player = HookCommand("\(bin.path)/player --file=%f")
        let inbox = MessageInbox()
        let runner = EffectRunner(store: library.store, paths: library.paths, configuration: configuration) { inbox.append($0) }
        runner.perform(.openLink(URL(string: "https://example.com/page?a=1")!))
        XCTAssertEqual(try waitForFile(browsed), "--new-tab\nhttps://example.com/page?a=1\n")
        runner.perform(.playMedia(URL(fileURLWithPath: "/tmp/an episode.mp3")))
        XCTAssertEqual(try waitForFile(played), "--file=/tmp/an episode.mp3\n", "%f is the local file's path")

        configuration.browser = HookCommand("\(bin.path)/missing %u")
        let failing = EffectRunner(store: library.store, paths: library.paths, configuration: configuration) { inbox.append($0) }
        failing.perform(.openLink(URL(string: "https://example.com/")!))
        let deadline = Date().addingTimeInterval(10)
        while inbox.linkFailures.isEmpty, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        XCTAssertEqual(inbox.linkFailures, ["the browser '\(bin.path)/missing' is not installed (browser in the config file)"])
    }
}
