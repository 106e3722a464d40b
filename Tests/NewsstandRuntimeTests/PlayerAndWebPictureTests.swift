import Foundation
import XCTest
import LocalHTTPServer
import NewsstandCore
import NewsstandImaging
import NewsstandTestSupport
import NewsstandUI
@testable import NewsstandRuntime

/// The runner's part in feed items (issue 12): an episode's file handed to the configured player as one
/// argument, and a feed article's web pictures fetched within their limit and drawn.
final class PlayerAndWebPictureTests: XCTestCase {
    private let inbox = MessageInbox()

    private func wait(until description: String, _ condition: () -> Bool) {
        let deadline = Date().addingTimeInterval(15)
        while !condition() {
            guard Date() < deadline else { return XCTFail("timed out waiting until \(description)") }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }

    func testThePlayerIsStartedWithTheURLAsOneArgumentWithoutAShell() throws {
        let library = try TemporaryLibrary(for: self)
        let folder = try TestFiles.scratchFolder(for: self)
        let record = folder.appendingPathComponent("played.txt")
        let script = folder.appendingPathComponent("player")
        try Data("#!/bin/sh\nprintf '%s\\n' \"$@\" > '\(record.path)'\n".utf8).write(to: script)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        var configuration = Configuration()
        configuration.player = HookCommand("\(script.path) --no-video %u")
        let inbox = inbox
        let runner = EffectRunner(store: library.store, paths: library.paths, configuration: configuration) { inbox.append($0) }
        let episode = try XCTUnwrap(URL(string: "https://example.com/ep%201.mp3?a=1&b=$(touch%20x);y"))
        runner.perform(.playMedia(episode))
        wait(until: "the player ran") { ((try? String(contentsOf: record, encoding: .utf8)) ?? "").hasSuffix("\n") }
        XCTAssertEqual(try String(contentsOf: record, encoding: .utf8), "--no-video\n\(episode.absoluteString)\n")
    }

    func testAMissingPlayerIsReportedPlainly() throws {
        let library = try TemporaryLibrary(for: self)
        var configuration = Configuration()
        configuration.player = HookCommand("no-such-player-here %u")
        let messages = MessageInbox()
        let runner = EffectRunner(store: library.store, paths: library.paths, configuration: configuration) { messages.append($0) }
        runner.perform(.playMedia(URL(string: "https://example.com/a.mp3")!))
        wait(until: "the failure was reported") { !messages.linkFailures.isEmpty }
        XCTAssertEqual(messages.linkFailures, ["the player 'no-such-player-here' is not installed (player in the config file)"])
    }

    func testWebPicturesAreFetchedAndDrawnAndTooLargeOnesAreNot() throws {
        let library = try TemporaryLibrary(for: self)
        let server = LocalHTTPServer(root: nil)
        try server.start()
        addTeardownBlock { server.stop() }
        let png = try Data(contentsOf: TestFiles.sampleLibrary.appendingPathComponent("covers/2025-spring.png"))
        server.setResource("/pic.png", data: png, contentType: "image/png")
        server.setResource("/huge.png", data: png + Data(count: 9 << 20), contentType: "image/png")
        let messages = MessageInbox()
        let runner = EffectRunner(store: library.store, paths: library.paths) { messages.append($0) }
        let good = PictureRequest(issueID: 0, source: server.url(for: "/pic.png"), columns: 20, rows: 8)
        let huge = PictureRequest(issueID: 0, source: server.url(for: "/huge.png"), columns: 20, rows: 8)
        let local = PictureRequest(issueID: 0, source: URL(fileURLWithPath: "/etc/passwd"), columns: 20, rows: 8)
        runner.perform(.requestWebPictures([good, huge, local]))
        wait(until: "three answers") { messages.pictures.count == 3 }
        let answers = messages.pictures
        XCTAssertEqual(answers.map(\.0), [good, huge, local])
        guard case .success(let art) = answers[0].1 else { return XCTFail("\(answers[0].1)") }
        XCTAssertEqual(art.columns, 20)
        guard case .failure(let tooLarge) = answers[1].1 else { return XCTFail("a 9 MB picture is refused") }
        XCTAssertTrue(tooLarge.reason.contains("cannot be fetched"), tooLarge.reason)
        XCTAssertEqual(answers[2].1, .failure(ReaderFailure("only pictures on the web are fetched for feed articles")))
    }
}
