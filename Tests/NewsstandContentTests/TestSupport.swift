import Foundation
import XCTest

/// Finds the shared corpora (`../shared/corpora` next to the package root) and makes scratch folders.
enum TestSupport {
    static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    static var corporaRoot: URL {
        packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpora").standardizedFileURL
    }

    /// The corpus folder at `relativePath`, or an XCTSkip when the corpora are not installed.
    static func corpus(_ relativePath: String) throws -> URL {
        let url = corporaRoot.appendingPathComponent(relativePath)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw XCTSkip("shared test corpus '\(relativePath)' not found at \(url.path)")
        }
        return url
    }

    /// A fresh empty folder that is removed when the test finishes.
    static func scratchFolder(for testCase: XCTestCase) throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("NewsstandContentTests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        testCase.addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }

    /// Every path below `folder`, relative to it, sorted.
    static func listing(of folder: URL) -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: folder.path) else { return [] }
        return enumerator.compactMap { $0 as? String }.sorted()
    }

    /// Runs python3 with `script`; arguments are available as sys.argv[1...].
    static func python(_ script: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script] + arguments
        let errorPipe = Pipe()
        process.standardError = errorPipe
        do {
            try process.run()
        } catch {
            throw XCTSkip("python3 is needed to build test archives: \(error)")
        }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let text = String(decoding: errorPipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            throw XCTSkip("python3 could not build the test archive: \(text)")
        }
    }
}
