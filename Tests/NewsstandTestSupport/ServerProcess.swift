import Foundation
import XCTest

/// A server program a test runs on 127.0.0.1 (calibre's content server, calibre-web): started with its output set
/// aside, stopped when the test ends, and waited for until it listens on its port.
enum ServerProcess {
    /// Starts `executable` and waits up to `timeout` seconds for `port` to take connections. When it exits first or
    /// does not listen in time, throws what `failure` makes of the reason (in plain words, naming the program).
    static func start(_ executable: URL, _ arguments: [String], environment: [String: String], port: UInt16, timeout: TimeInterval,
                      for testCase: XCTestCase, failure: (String) -> Error) throws -> Process {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        testCase.addTeardownBlock {
            process.terminate()
            process.waitUntilExit()
        }
        let name = executable.lastPathComponent
        let deadline = Date().addingTimeInterval(timeout)
        while !LocalPort.isListening(port) {
            guard process.isRunning else { throw failure("\(name) exited with \(process.terminationStatus)") }
            guard Date() < deadline else { throw failure("\(name) did not listen on \(port) within \(Int(timeout)) s") }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return process
    }
}
