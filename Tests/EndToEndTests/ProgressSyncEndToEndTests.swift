import Foundation
import LocalHTTPServer
import NewsstandTestSupport
import XCTest

/// Progress sync as people use it: two devices (two HOMEs) and one kosync server on 127.0.0.1, the shelf in tmux,
/// `newsstand login --register`, `newsstand position` and `newsstand sync`.
final class ProgressSyncEndToEndTests: EndToEndTestCase {
    private var server: KOSyncServer!

    override func setUpWithError() throws {
        try super.setUpWithError()
        let server = KOSyncServer()
        try server.start()
        addTeardownBlock { server.stop() }
        self.server = server
    }

    /// A device: a HOME of its own whose config turns progress sync on, named `device`.
    private func device(_ device: String) throws -> [String: String] {
        let home = try TestEnvironment.temporaryHome()
        addTeardownBlock { try? FileManager.default.removeItem(at: home) }
        let config = home.appendingPathComponent(".config/newsstand")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try Data("progress-sync \(server.baseURL.absoluteString)\nprogress-sync-device \(device)\n".utf8).write(to: config.appendingPathComponent("config"))
        return TestEnvironment.environment(home: home, sample: true)
    }

    private func run(_ arguments: [String], input: String = "", _ environment: [String: String]) throws -> (status: Int32, output: String, errors: String) {
        try TestEnvironment.run(arguments, input: input, environment: environment)
    }

    func testLoginRegistersAndKeepsOnlyTheKey() throws {
        let laptop = try device("laptop")
        let url = server.baseURL.absoluteString
        let made = try run(["login", url, "--user", "alice", "--password-stdin", "--register"], input: "hunter2\n", laptop)
        XCTAssertEqual(made.status, 0, made.errors)
        XCTAssertEqual(made.output, "Made the account alice at 127.0.0.1:\(server.http.port) and saved its login for progress sync.\n")
        let home = try XCTUnwrap(laptop["HOME"])
        let stored = try String(contentsOfFile: home + "/.local/share/newsstand/credentials", encoding: .utf8)
        XCTAssertFalse(stored.contains("hunter2"), "the password is not stored")
        XCTAssertTrue(stored.contains("kosync x-auth-key\talice\t2ab96390c7dbe3439de74d0c9b0b1767"), stored)
        XCTAssertEqual(try run(["logins"], laptop).output, "127.0.0.1:\(server.http.port)  alice  (progress sync)\n")

        let taken = try run(["login", url, "--user", "alice", "--password-stdin", "--register"], input: "other\n", try device("tablet"))
        XCTAssertEqual(taken.status, 1)
        XCTAssertTrue(taken.errors.contains("the name alice is taken"), taken.errors)
        server.registrationEnabled = false
        let closed = try run(["login", url, "--user", "bob", "--password-stdin", "--register"], input: "x\n", try device("tablet"))
        XCTAssertTrue(closed.errors.contains("registration is off"), closed.errors)
        let wrong = try run(["login", url, "--user", "alice", "--password-stdin"], input: "wrong\n", try device("tablet"))
        XCTAssertEqual(wrong.status, 1)
        XCTAssertTrue(wrong.errors.contains("does not take the login") && wrong.errors.contains("nothing was saved"), wrong.errors)
        XCTAssertFalse(wrong.errors.contains("wrong"), "the password is never shown")
    }

    /// Read into the second article on A and quit; open on B: asked, `y` goes there; read on in B and quit; A's
    /// `newsstand position` shows B's place; `newsstand sync` on A has nothing to send.
    func testTwoDevicesFollowEachOther() throws {
        let a = try device("laptop-a"), b = try device("laptop-b")
        let url = server.baseURL.absoluteString
        XCTAssertEqual(try run(["login", url, "--user", "alice", "--password-stdin", "--register"], input: "hunter2\n", a).status, 0)
        XCTAssertEqual(try run(["login", url, "--user", "alice", "--password-stdin"], input: "hunter2\n", b).status, 0)
        for environment in [a, b] { XCTAssertEqual(try run(["download", "2026-autumn"], environment).status, 0) }

        var session: TmuxSession? = try TmuxSession(command: try TestEnvironment.binary().path, width: 90, height: 30, environment: a)
        try session!.waitFor(text: "TAP TO READ")
        try session!.send("Enter")
        try session!.waitFor(text: "Reading the Years in a Street Tree")
        try session!.send("Enter")
        try session!.waitFor(text: "article 1/3")
        try session!.send("l")
        try session!.waitFor(text: "article 2/3")
        try session!.send("Space")
        usleep(300_000)
        try session!.send("C-c")
        session!.waitForExit()
        session = nil
        let positionA = try run(["position", "2026-autumn", "--json"], a)
        XCTAssertEqual(positionA.status, 0, positionA.errors)
        let afterA = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(positionA.output.utf8)) as? [String: Any])
        let serverA = try XCTUnwrap(afterA["server"] as? [String: Any], positionA.output)
        XCTAssertEqual(serverA["device"] as? String, "laptop-a")
        XCTAssertEqual(serverA["article"] as? Int, 2)
        XCTAssertEqual(serverA["this_device"] as? Bool, true)
        let percentage = try XCTUnwrap(serverA["percentage"] as? Double)
        XCTAssertGreaterThan(percentage, 0.2)

        session = try TmuxSession(command: try TestEnvironment.binary().path, width: 90, height: 30, environment: b)
        try session!.waitFor(text: "TAP TO READ")
        try session!.send("Enter")
        let asked = try session!.waitFor(text: "go there? y/n")
        XCTAssertTrue(asked.contains("laptop-a is at \(Int((percentage * 100).rounded()))%, “"), asked)
        try session!.send("y")
        try session!.waitFor(text: "article 2/3")
        try session!.send("l")
        try session!.waitFor(text: "article 3/3")
        usleep(300_000)
        try session!.send("C-c")
        session!.waitForExit()
        session = nil

        let shown = try run(["position", "2026-autumn"], a)
        XCTAssertEqual(shown.status, 0, shown.errors)
        XCTAssertTrue(shown.output.contains("Here: ") && shown.output.contains("article 2 "), shown.output)
        XCTAssertTrue(shown.output.contains("Server: laptop-b at ") && shown.output.contains("article 3 “"), shown.output)
        let sync = try run(["sync"], a)
        XCTAssertTrue(sync.output.contains("Positions: 0 sent; read since on another device: 2026-autumn: laptop-b is at"), sync.output)
    }

    /// A place written the way KOReader writes it (an XPointer into the second chapter, device Kobo) opens there.
    func testAPlaceWrittenByKOReaderOpensThere() throws {
        let a = try device("laptop")
        XCTAssertEqual(try run(["login", server.baseURL.absoluteString, "--user", "alice", "--password-stdin", "--register"], input: "hunter2\n", a).status, 0)
        XCTAssertEqual(try run(["download", "2026-autumn"], a).status, 0)
        let home = try XCTUnwrap(a["HOME"])
        let stored = try String(contentsOfFile: home + "/.local/share/newsstand/credentials", encoding: .utf8)
        XCTAssertTrue(stored.contains("alice"))
        // The document id is the partial MD5 of the file as downloaded.
        let file = TestEnvironment.sampleLibrary.appendingPathComponent("issues/2026-autumn.epub")
        let document = try partialMD5(file)
        server.store("alice", document: document, progress: "/body/DocFragment[2]/body/p[3]/text().5", percentage: 0.45,
                     device: "Kobo", deviceID: "KOBO-1")
        let session = try TmuxSession(command: try TestEnvironment.binary().path, width: 90, height: 30, environment: a)
        try session.waitFor(text: "TAP TO READ")
        try session.send("Enter")
        let asked = try session.waitFor(text: "go there? y/n")
        XCTAssertTrue(asked.contains("Kobo is at 45%, “"), asked)
        try session.send("y")
        try session.waitFor(text: "article 2/3")
        try session.send("C-c")
        session.waitForExit()
        let shown = try run(["position", "2026-autumn", "--json"], a)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(shown.output.utf8)) as? [String: Any])
        XCTAssertEqual((object["local"] as? [String: Any])?["article"] as? Int, 2)
        XCTAssertEqual((object["local"] as? [String: Any])?["block"] as? Int, 3, "the third paragraph, after the heading, byline and standfirst")
    }

    /// The server going away: reading never waits, the place is kept, and `newsstand sync` sends it later.
    func testAPlaceMadeWhileTheServerIsDownIsSentBySync() throws {
        let a = try device("laptop")
        XCTAssertEqual(try run(["login", server.baseURL.absoluteString, "--user", "alice", "--password-stdin", "--register"], input: "hunter2\n", a).status, 0)
        XCTAssertEqual(try run(["download", "2026-autumn"], a).status, 0)
        server.failure = 503
        let session = try TmuxSession(command: try TestEnvironment.binary().path, width: 90, height: 30, environment: a)
        try session.waitFor(text: "TAP TO READ")
        try session.send("Enter")
        // Said once, plainly, while the issue opens as ever.
        let said = try session.waitFor(text: "kept and sent later")
        XCTAssertTrue(said.contains("Progress sync: the server is not answering (HTTP 503)"), said)
        XCTAssertTrue(said.contains("Reading the Years in a Street Tree"), said)
        try session.send("Enter")
        try session.waitFor(text: "article 1/3")
        try session.send("l")
        try session.waitFor(text: "article 2/3")
        usleep(300_000)
        try session.send("C-c")
        session.waitForExit()
        let document = try partialMD5(TestEnvironment.sampleLibrary.appendingPathComponent("issues/2026-autumn.epub"))
        XCTAssertNil(server.record(user: "alice", document: document))
        server.failure = nil
        let sync = try run(["sync"], a)
        XCTAssertTrue(sync.output.contains("Positions: 1 sent"), sync.output + sync.errors)
        XCTAssertTrue(server.record(user: "alice", document: document)?.progress.hasPrefix("/body/DocFragment[2]/") == true)
    }

    /// KOReader's partial MD5, computed here independently of the program (Python's hashlib through a short script).
    private func partialMD5(_ file: URL) throws -> String {
        let script = "import hashlib,sys\nd=open(sys.argv[1],'rb').read();m=hashlib.md5()\nfor o in [0]+[1024<<(2*i) for i in range(11)]:\n  if o>=len(d): break\n  m.update(d[o:o+1024])\nprint(m.hexdigest())"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", script, file.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        process.waitUntilExit()
        return String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
