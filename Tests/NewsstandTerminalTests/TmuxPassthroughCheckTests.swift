import Foundation
import XCTest
@testable import NewsstandTerminal

/// Inside tmux the start-up questions are only sent when tmux lets them through: asked of tmux itself, here a
/// stand-in `tmux` on a private PATH that prints what `show-options -Apv allow-passthrough` would. The question is
/// started early (`TmuxPassthroughCheck.init`) and its answer read later.
final class TmuxPassthroughCheckTests: XCTestCase {
    private func allows(path: String, tmux: String = "/tmp/tmux-0/default,1,0") -> Bool {
        TmuxPassthroughCheck(environment: ["TMUX": tmux, "PATH": path]).allowsPassthrough
    }

    private func path(answering value: String, status: Int32 = 0, delay: Int = 0) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tmux-stand-in-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        let script = folder.appendingPathComponent("tmux")
        let arguments = folder.appendingPathComponent("arguments")
        try "#!/bin/sh\necho \"$@\" > '\(arguments.path)'\nsleep \(delay)\necho '\(value)'\nexit \(status)\n".write(to: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        return folder.path
    }

    func testPassthroughOnOrAllLetsTheQuestionsThrough() throws {
        XCTAssertTrue(allows(path: try path(answering: "on")))
        XCTAssertTrue(allows(path: try path(answering: "all")))
        let folder = try path(answering: "on")
        let check = TmuxPassthroughCheck(environment: ["TMUX": "x", "PATH": folder])
        XCTAssertTrue(check.allowsPassthrough)
        XCTAssertTrue(check.allowsPassthrough, "asked once, answered again")
        XCTAssertEqual(try String(contentsOfFile: folder + "/arguments", encoding: .utf8), "show-options -Apv allow-passthrough\n")
    }

    func testPassthroughOffAFailureOrNoTmuxAsksNothing() throws {
        XCTAssertFalse(allows(path: try path(answering: "off")))
        XCTAssertFalse(allows(path: try path(answering: "on", status: 1)))
        XCTAssertFalse(allows(path: "/nonexistent-folder"))
        let outside = try path(answering: "on")
        XCTAssertFalse(allows(path: outside, tmux: ""), "outside tmux nothing is asked")
        XCTAssertFalse(FileManager.default.fileExists(atPath: outside + "/arguments"))
    }

    func testATmuxThatDoesNotAnswerIsWaitedForAtMostASecond() throws {
        let started = Date()
        XCTAssertFalse(allows(path: try path(answering: "on", delay: 5)))
        XCTAssertLessThan(Date().timeIntervalSince(started), 3)
    }

    func testTheQuestionRunsWhileTheProgramDoesOtherWork() throws {
        let folder = try path(answering: "on", delay: 1)
        let started = Date()
        let check = TmuxPassthroughCheck(environment: ["TMUX": "x", "PATH": folder])
        XCTAssertLessThan(Date().timeIntervalSince(started), 0.5, "starting it does not wait for tmux")
        Thread.sleep(forTimeInterval: 1.5)
        XCTAssertTrue(check.allowsPassthrough)
        XCTAssertLessThan(Date().timeIntervalSince(started), 2.2, "the answer came while the program slept (asked after, it would take 2.5 s)")
    }
}
