import Foundation
import LocalHTTPServer
import NewsstandTestSupport
import XCTest

/// What every end-to-end test starts from: an empty HOME of its own (removed afterwards), and, when asked,
/// the sample library served on 127.0.0.1 (stopped afterwards).
class EndToEndTestCase: XCTestCase {
    var home: URL!

    override func setUpWithError() throws {
        try super.setUpWithError()
        let home = try TestEnvironment.temporaryHome()
        self.home = home
        addTeardownBlock { try? FileManager.default.removeItem(at: home) }
    }

    /// A file's size; 0 when there is no such file (the library's write-ahead log, kept empty between runs).
    static func fileSize(_ url: URL) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int) ?? 0
    }

    /// A server on 127.0.0.1 serving `SampleLibrary/`, stopped when the test ends.
    func startSampleServer() throws -> LocalHTTPServer {
        let server = LocalHTTPServer(root: TestEnvironment.sampleLibrary)
        try server.start()
        addTeardownBlock { server.stop() }
        return server
    }

    /// Skips the test when poppler-utils (pdftotext) is not installed.
    func requirePDFTools() throws {
        guard ["/usr/bin/pdftotext", "/usr/local/bin/pdftotext"].contains(where: FileManager.default.isExecutableFile(atPath:)) else {
            throw TestRequirement.absent("pdftotext (poppler-utils) is not installed; PDF reading skipped")
        }
    }

    /// Subscribes to a publication whose one issue, `four-pages`, is a 4-page PDF from the shared corpus, and downloads it.
    func subscribeToPDFIssue(environment: [String: String]) throws {
        let pdf = try TestFiles.corpus("pdf/py-pdf-sample-files/004-pdflatex-4-pages/pdflatex-4-pages.pdf")
        // A local catalog reaches only files below its folder: the PDF is copied beside it.
        let copy = home.appendingPathComponent("four-pages.pdf")
        try FileManager.default.copyItem(at: pdf, to: copy)
        let catalog = home.appendingPathComponent("pdf-catalog.plist")
        try Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>Title</key><string>Paper Weekly</string><key>Issues</key><array>
            <dict><key>Name</key><string>four-pages</string><key>Title</key><string>Four Pages</string>
            <key>Date</key><date>2026-01-01T00:00:00Z</date><key>Content</key><string>four-pages.pdf</string></dict>
            </array></dict></plist>
            """.utf8).write(to: catalog)
        XCTAssertEqual(try TestEnvironment.run(["subscribe", catalog.path], environment: environment).status, 0)
        let download = try TestEnvironment.run(["download", "four-pages"], environment: environment)
        XCTAssertEqual(download.status, 0, download.errors)
    }
}
