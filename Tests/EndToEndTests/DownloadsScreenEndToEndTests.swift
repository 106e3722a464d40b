import Foundation
import LocalHTTPServer
import XCTest

/// The downloads screen driven through tmux, and the shelf and `newsstand download` sharing one library.
final class DownloadsScreenEndToEndTests: EndToEndTestCase {
    var server: LocalHTTPServer!
    var environment: [String: String]!

    override func setUpWithError() throws {
        try super.setUpWithError()
        server = try startSampleServer()
        environment = TestEnvironment.environment(home: home)
        let subscribed = try TestEnvironment.run(["subscribe", server.url(for: "catalog.plist").absoluteString], environment: environment)
        XCTAssertEqual(subscribed.status, 0, subscribed.errors)
    }

    /// Bytes in the library's partial downloads.
    private var partialBytes: Int {
        let folder = home.appendingPathComponent(".local/share/newsstand/partial")
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".part") }.reduce(0) { total, name in
            total + ((try? FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(name).path)[.size] as? Int) ?? 0)
        }
    }

    private var issueRequests: [RequestRecord] { server.requestLog.filter { $0.path == "/issues/2026-autumn.epub" && $0.method == "GET" } }

    func testPauseAndResumeFromTheDownloadsScreen() throws {
        server.bytesPerSecond = 20_000 // 146 KB: about seven seconds
        let session = try TmuxSession(command: try TestEnvironment.binary().path, width: 100, height: 32, environment: environment)
        try session.waitFor(text: "TAP TO DOWNLOAD")
        XCTAssertTrue(try session.screen().contains("D downloads"), "the shelf offers the downloads screen")
        try session.send("Enter")
        try session.waitFor("a progress bar") { $0.range(of: #"━*─+ +\d{1,2}%"#, options: .regularExpression) != nil }
        try session.send("D")
        try session.waitFor("the running download") { $0.contains("DOWNLOADS") && $0.contains("Maps & Margins") && $0.contains("DOWNLOADING") && $0.contains("KB/s") }

        try session.send("p")
        let paused = try session.waitFor(text: "PAUSED")
        XCTAssertTrue(paused.contains("Paused “Maps & Margins”; p resumes it."), paused)
        Thread.sleep(forTimeInterval: 0.5) // the stopped response is logged when its connection closes
        let requestsWhenPaused = issueRequests.count
        let bytesWhenPaused = partialBytes
        XCTAssertGreaterThan(bytesWhenPaused, 0, "the partial download is kept")
        Thread.sleep(forTimeInterval: 1.5)
        // (The catalog's own refresh, two seconds after launch, may come in meanwhile: only the issue counts.)
        XCTAssertEqual(issueRequests.count, requestsWhenPaused, "nothing is asked of the server for the issue while paused")
        XCTAssertEqual(partialBytes, bytesWhenPaused, "and nothing more arrives")
        XCTAssertEqual(issueRequests.count, 1)

        server.bytesPerSecond = 100_000
        try session.send("p")
        try session.waitFor("the resumed download to finish", timeout: 30) { $0.contains("Nothing is downloading") }
        let requests = issueRequests
        XCTAssertEqual(requests.count, 2)
        XCTAssertEqual(requests.last?.status, 206)
        XCTAssertEqual(requests.last?.range, "bytes=\(bytesWhenPaused)-", "the resumed request continues where the pause left off")

        try session.send("q")
        try session.waitFor(text: "TAP TO READ")
        try session.send("q")
        session.waitForExit()
    }

    func testTheCommandLineWaitsForTheShelfsDownloadOfTheSameIssue() throws {
        server.bytesPerSecond = 20_000
        let session = try TmuxSession(command: try TestEnvironment.binary().path, width: 100, height: 32, environment: environment)
        try session.waitFor(text: "TAP TO DOWNLOAD")
        try session.send("Enter")
        try session.waitFor("a progress bar") { $0.range(of: #"━*─+ +\d{1,2}%"#, options: .regularExpression) != nil }

        let errorsFile = home.appendingPathComponent("stderr.txt")
        _ = FileManager.default.createFile(atPath: errorsFile.path, contents: nil)
        let errors = try FileHandle(forWritingTo: errorsFile)
        defer { try? errors.close() }
        let command = try TestEnvironment.start(["download", "2026-autumn"], environment: environment, errors: errors)
        let deadline = Date(timeIntervalSinceNow: 10)
        var said = ""
        while Date() < deadline && !said.contains("being downloaded by another Newsstand process") {
            usleep(100_000)
            said = (try? String(contentsOf: errorsFile, encoding: .utf8)) ?? ""
        }
        XCTAssertTrue(said.contains("Maps & Margins: being downloaded by another Newsstand process; waiting for it"), said)
        XCTAssertTrue(command.isRunning, "the command waits rather than fetching the issue too")

        try session.waitFor("the shelf's download to finish", timeout: 30) { $0.contains("TAP TO READ") }
        let finished = Date(timeIntervalSinceNow: 15)
        while command.isRunning && Date() < finished { usleep(100_000) }
        XCTAssertFalse(command.isRunning, "the command finishes once the shelf's download is done")
        command.waitUntilExit()
        XCTAssertEqual(command.terminationStatus, 0)
        XCTAssertEqual(issueRequests.count, 1, "the issue was fetched once: \(issueRequests.map { "\($0.status) \($0.range ?? "")" })")
        try session.send("q")
        session.waitForExit()
    }
}
