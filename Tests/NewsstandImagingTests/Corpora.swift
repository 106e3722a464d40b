import Foundation
import XCTest

/// Finds the shared test corpora at `../shared/corpora` relative to the package root.
enum Corpora {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent() // NewsstandImagingTests
        .deletingLastPathComponent() // Tests
        .deletingLastPathComponent() // package root

    static let root = packageRoot.deletingLastPathComponent()
        .appendingPathComponent("shared/corpora").standardizedFileURL

    /// The corpus folder at `relativePath`, or an XCTSkip explaining where it was looked for.
    static func folder(_ relativePath: String) throws -> URL {
        let url = root.appendingPathComponent(relativePath)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw XCTSkip("test corpora not found at \(url.path) (expected ../shared/corpora next to the package root)")
        }
        return url
    }

    static func files(in folder: URL, withExtension ext: String) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension.lowercased() == ext }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    /// Every file under `folder`, recursively, with the given extension.
    static func allFiles(under folder: URL, withExtension ext: String) -> [URL] {
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return [] }
        var result: [URL] = []
        for case let url as URL in walker where url.pathExtension.lowercased() == ext {
            result.append(url)
        }
        return result.sorted { $0.path < $1.path }
    }
}
