import Foundation
import XCTest
import NewsstandCore
import NewsstandTestSupport

/// A library of its own for a runtime test: XDG-like folders in a scratch folder and an open store,
/// closed and removed when the test ends.
struct TemporaryLibrary {
    let paths: LibraryPaths
    let store: LibraryStore

    init(for testCase: XCTestCase) throws {
        let folder = try TestFiles.scratchFolder(for: testCase)
        paths = LibraryPaths(dataDirectory: folder.appendingPathComponent("data"), configDirectory: folder.appendingPathComponent("config"),
                             cacheDirectory: folder.appendingPathComponent("cache"))
        try paths.createDirectories()
        let store = try LibraryStore(file: paths.databaseFile)
        testCase.addTeardownBlock { store.close() }
        self.store = store
    }
}
