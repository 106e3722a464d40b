import Foundation
import LocalHTTPServer
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

    /// A server on 127.0.0.1 serving `SampleLibrary/`, stopped when the test ends.
    func startSampleServer() throws -> LocalHTTPServer {
        let server = LocalHTTPServer(root: TestEnvironment.sampleLibrary)
        try server.start()
        addTeardownBlock { server.stop() }
        return server
    }
}
