@_exported import FreshRSSHarness
import Foundation
import XCTest

/// The tests' way to start a ``FreshRSSServer`` (FreshRSSHarness, which the benchmark shares; re-exported here with
/// ``LocalPort`` so every test target sees them through NewsstandTestSupport).
extension FreshRSSServer {
    /// Starts a FreshRSS of its own for `testCase` in its scratch folder, stopped when the test ends. Skips the test
    /// when PHP is not installed (`make test` installs it) or the shared source is missing.
    public convenience init(for testCase: XCTestCase) throws {
        if let reason = Self.unavailableReason { throw TestRequirement.absent(reason) }
        try self.init(in: try TestFiles.scratchFolder(for: testCase))
        testCase.addTeardownBlock { [self] in stop() }
    }
}
