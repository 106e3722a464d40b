import Foundation
import XCTest
@testable import NewsstandTerminal

/// Inside tmux the start-up questions are only sent when tmux lets them through: asked of tmux itself, here a
/// stand-in `tmux` on a private PATH that prints what `show-options -Apv allow-passthrough` would.
final class TmuxPassthroughCheckTests: XCTestCase {
    private func path(answering value: String, status: Int32 = 0) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tmux-stand-in-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        let script = folder.appendingPathComponent("tmux")
        let arguments = folder.appendingPathComponent("arguments")
        try "#!/bin/sh\necho \"$@\" > '\(arguments.path)'\necho '\(value)'\nexit \(status)\n".write(to: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        return folder.path
    }

    func testPassthroughOnOrAllLetsTheQuestionsThrough() throws {
        XCTAssertTrue(TerminalQuery.tmuxAllowsPassthrough(path: try path(answering: "on")))
        XCTAssertTrue(TerminalQuery.tmuxAllowsPassthrough(path: try path(answering: "all")))
        let folder = try path(answering: "on")
        _ = TerminalQuery.tmuxAllowsPassthrough(path: folder)
        XCTAssertEqual(try String(contentsOfFile: folder + "/arguments", encoding: .utf8), "show-options -Apv allow-passthrough\n")
    }

    func testPassthroughOffAFailureOrNoTmuxAsksNothing() throws {
        XCTAssertFalse(TerminalQuery.tmuxAllowsPassthrough(path: try path(answering: "off")))
        XCTAssertFalse(TerminalQuery.tmuxAllowsPassthrough(path: try path(answering: "on", status: 1)))
        XCTAssertFalse(TerminalQuery.tmuxAllowsPassthrough(path: "/nonexistent-folder"))
    }
}
