import Foundation
import NewsstandTestSupport
import XCTest
@testable import NewsstandCore

/// A private file is replaced whole, readable by its owner alone, with no temporary file left; when it cannot be, the
/// error names the place and the old file stays as it was.
final class PrivateFileTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = try TestFiles.scratchFolder(for: self)
    }

    func testReplacesTheFileWholeAndPrivately() throws {
        let file = folder.appendingPathComponent("kept")
        try Data("old and longer than the new".utf8).write(to: file)
        chmod(file.path, 0o644)
        for durable in [false, true] {
            let bytes = Array("new \(durable)".utf8) + Array(repeating: UInt8(ascii: "x"), count: 200_000)
            try PrivateFile.replace(file, with: bytes, durable: durable)
            XCTAssertEqual(try [UInt8](Data(contentsOf: file)), bytes)
            var info = stat()
            XCTAssertEqual(stat(file.path, &info), 0)
            XCTAssertEqual(info.st_mode & 0o777, 0o600, "owner only")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["kept"], "no temporary file left")
    }

    func testAFileThatCannotBeReplacedIsLeftAsItWas() throws {
        let missing = folder.appendingPathComponent("no such folder/kept")
        XCTAssertThrowsError(try PrivateFile.replace(missing, with: [1, 2, 3], durable: true)) { error in
            XCTAssertEqual("\(error)", "cannot write in \(missing.deletingLastPathComponent().path): No such file or directory")
        }
        // A folder (not empty) where the file goes: the rename fails and the folder and its contents stay.
        let occupied = folder.appendingPathComponent("occupied")
        try FileManager.default.createDirectory(at: occupied, withIntermediateDirectories: true)
        try Data("inside".utf8).write(to: occupied.appendingPathComponent("inside"))
        XCTAssertThrowsError(try PrivateFile.replace(occupied, with: [1, 2, 3], durable: false)) { error in
            XCTAssertTrue("\(error)".hasPrefix("cannot replace \(occupied.path): "), "\(error)")
        }
        XCTAssertEqual(try String(contentsOf: occupied.appendingPathComponent("inside"), encoding: .utf8), "inside")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["occupied"], "no temporary file left")
    }
}
