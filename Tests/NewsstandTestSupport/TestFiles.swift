import Foundation
import XCTest

/// Files every test target needs: the package's sample library, the shared real-world corpora
/// (`../shared/corpora` beside the package), scratch folders, and small file builders.
public enum TestFiles {
    /// The package root (three levels above this file).
    public static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `SampleLibrary/` in the package.
    public static var sampleLibrary: URL { packageRoot.appendingPathComponent("SampleLibrary", isDirectory: true) }

    /// `../shared/corpora` next to the package root.
    public static var corporaRoot: URL {
        packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpora", isDirectory: true).standardizedFileURL
    }

    /// A file or folder in the shared corpora; when absent, a skip saying where it was looked for (a failure in CI).
    public static func corpus(_ relativePath: String) throws -> URL {
        let url = corporaRoot.appendingPathComponent(relativePath)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw TestRequirement.absent("shared test corpus '\(relativePath)' not found at \(url.path)")
        }
        return url
    }

    /// A fresh empty folder, removed when the test finishes.
    public static func scratchFolder(for testCase: XCTestCase) throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(type(of: testCase))-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        testCase.addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }

    /// Every path below `folder`, relative to it, sorted.
    public static func listing(of folder: URL) -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: folder.path) else { return [] }
        return enumerator.compactMap { $0 as? String }.sorted()
    }

    /// Deterministic pseudo-random bytes, so slices can be compared.
    public static func pseudoRandomData(count: Int, seed: UInt64 = 0x9E37_79B9_7F4A_7C15) -> Data {
        var state = seed
        var bytes = [UInt8](repeating: 0, count: count)
        for index in 0..<count {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            bytes[index] = UInt8(truncatingIfNeeded: state >> 33)
        }
        return Data(bytes)
    }

    /// Runs python3 with `script` (arguments in sys.argv[1...]), for building hostile archives; skips when python3 is missing (fails in CI).
    public static func python(_ script: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script] + arguments
        let errorPipe = Pipe()
        process.standardError = errorPipe
        do {
            try process.run()
        } catch {
            throw TestRequirement.absent("python3 is needed to build test archives (Debian package python3): \(error)")
        }
        let errors = errorPipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw TestRequirement.broken("python3 could not build the test archive: \(String(decoding: errors, as: UTF8.self))")
        }
    }
}
