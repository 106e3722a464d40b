import Foundation
import XCTest

/// The one way a test says it cannot run. Something optional that is absent (a program the tests use, the
/// shared corpora beside the package) skips the test and names what is missing — except under
/// `NEWSSTAND_NO_SKIPS=1` (set by `.ci/run`, where everything is installed), where it fails. Something that
/// broke (a server that did not start, a tool that failed, a render that gave nothing) always fails.
public enum TestRequirement {
    /// The environment variable under which a skip is a failure.
    public static let noSkipsVariable = "NEWSSTAND_NO_SKIPS"

    /// Whether skips fail this run (`NEWSSTAND_NO_SKIPS` set to anything but empty or `0`).
    public static var skipsFail: Bool {
        let value = ProcessInfo.processInfo.environment[noSkipsVariable] ?? ""
        return !value.isEmpty && value != "0"
    }

    /// `what` (a program, a corpus) is not there: an XCTSkip saying so, or a failure under `NEWSSTAND_NO_SKIPS`.
    public static func absent(_ what: String) -> Error {
        skipsFail ? TestSetupFailure("\(what) (\(noSkipsVariable) is set, so this is a failure, not a skip)") : XCTSkip(what)
    }

    /// Something the test needs broke: always a failure, never a skip.
    public static func broken(_ what: String) -> Error {
        TestSetupFailure(what)
    }

    /// The full path of `program` on PATH (or in /usr/bin, /usr/local/bin), or nil.
    public static func which(_ program: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let folders = path.split(separator: ":").map(String.init) + ["/usr/bin", "/usr/local/bin", "/bin"]
        return folders.map { "\($0)/\(program)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// The path of `program`, or the `absent` error naming it and the package that brings it.
    public static func program(_ program: String, package: String) throws -> String {
        guard let path = which(program) else { throw absent("\(program) is not installed (Debian package \(package); `make test` installs it)") }
        return path
    }
}

/// A test's set-up broke: thrown from a test method, XCTest records it as a failure with this description.
public struct TestSetupFailure: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
