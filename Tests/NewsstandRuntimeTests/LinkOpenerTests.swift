import Foundation
import XCTest
import NewsstandTestSupport
import NewsstandUI
@testable import NewsstandRuntime

/// `o N` hands the link to the system opener found on PATH: here a stand-in `xdg-open` script that
/// writes down what it was given, so the real lookup and the real process start are what is tested.
final class LinkOpenerTests: XCTestCase {
    func testTheOpenerOnPathIsStartedWithTheLinkAndNothingWaitsForIt() throws {
        let folder = try TestFiles.scratchFolder(for: self)
        let bin = folder.appendingPathComponent("bin", isDirectory: true)
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let record = folder.appendingPathComponent("opened.txt")
        let script = bin.appendingPathComponent("xdg-open")
        try Data("#!/bin/sh\nprintf '%s\\n' \"$@\" > '\(record.path)'\n".utf8).write(to: script)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        let notExecutable = folder.appendingPathComponent("plain", isDirectory: true)
        try FileManager.default.createDirectory(at: notExecutable, withIntermediateDirectories: true)
        try Data("not a program".utf8).write(to: notExecutable.appendingPathComponent("xdg-open"))

        let opener = try XCTUnwrap(ReaderWork.opener(path: "\(notExecutable.path)::\(bin.path):/usr/bin"),
                                   "found past an empty entry and a file that is not executable")
        XCTAssertEqual(opener.standardizedFileURL.path, script.standardizedFileURL.path)
        let link = try XCTUnwrap(URL(string: "https://example.com/a%20b?q=1&r=2"))
        try ReaderWork.open(link, with: opener)
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: record.path) || (try? String(contentsOf: record, encoding: .utf8))?.isEmpty != false {
            guard Date() < deadline else { return XCTFail("the opener was never started") }
            Thread.sleep(forTimeInterval: 0.02)
        }
        XCTAssertEqual(try String(contentsOf: record, encoding: .utf8), "https://example.com/a%20b?q=1&r=2\n", "one argument, exactly the URL")
    }

    func testNoOpenerOnPathIsReportedAsMissing() throws {
        let empty = try TestFiles.scratchFolder(for: self)
        XCTAssertNil(ReaderWork.opener(path: empty.path))
        XCTAssertNil(ReaderWork.opener(path: ""))
    }
}
