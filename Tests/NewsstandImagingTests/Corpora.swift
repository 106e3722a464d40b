import Foundation
import NewsstandTestSupport
import XCTest

/// Lists image files in the shared corpora.
enum Corpora {
    /// The corpus folder at `relativePath`, or a skip (a failure in CI) saying where it was looked for.
    static func folder(_ relativePath: String) throws -> URL {
        try TestFiles.corpus(relativePath)
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
