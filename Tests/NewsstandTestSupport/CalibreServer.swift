import Foundation
import FreshRSSHarness
import XCTest

/// A real calibre content server (Debian's `calibre` package) on 127.0.0.1, for interoperability tests:
/// a library built with `calibredb add`, optionally behind a login (`--enable-auth`), started and stopped
/// by the test. Everything it writes (its HOME, library, user database) is in a scratch folder.
public final class CalibreServer {
    public let port: UInt16
    public let folder: URL
    private let process: Process

    /// The OPDS root (a navigation feed).
    public var opdsRoot: URL { URL(string: "http://127.0.0.1:\(port)/opds")! }
    /// Its "By Newest" acquisition feed.
    public var newestFeed: URL { URL(string: "http://127.0.0.1:\(port)/opds/navcatalog/4f6e6577657374")! }

    /// Builds a library of `books` and starts the server; with `login`, only that user may read it (HTTP Basic,
    /// or Digest with `digest`). Skips the test when calibre is not installed (`make test` installs it; a failure in CI).
    public init(for testCase: XCTestCase, books: [URL], login: (user: String, password: String)? = nil, digest: Bool = false) throws {
        guard let server = Self.program("calibre-server"), let calibredb = Self.program("calibredb") else {
            throw TestRequirement.absent("calibre-server is not installed (Debian's calibre package; `make test` installs it)")
        }
        folder = try TestFiles.scratchFolder(for: testCase)
        let home = folder.appendingPathComponent("home", isDirectory: true)
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        // calibre allows one program that may change a library per user on the whole machine (a lock in /var/lock),
        // so a server of another test, or of another test run, would make `calibredb add` refuse. Each test has its
        // own library: the server is told to skip that lock (calibre's own switch), and `calibredb add`, which
        // has none, waits its turn.
        let environment = ["HOME": home.path, "QT_QPA_PLATFORM": "offscreen", "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8",
                           "CALIBRE_NO_SI_DANGER_DANGER": "1"]
        let library = folder.appendingPathComponent("library", isDirectory: true)
        try Self.runToEnd(calibredb, ["add", "--library-path", library.path] + books.map(\.path), environment: environment,
                          retryWhilePrinting: "Another calibre program")
        var arguments = ["--listen-on", "127.0.0.1", "--disable-use-bonjour"]
        if let login {
            let users = folder.appendingPathComponent("users.sqlite").path
            try Self.runToEnd(server, ["--userdb", users, "--manage-users", "--", "add", login.user, login.password], environment: environment)
            arguments += ["--enable-auth", "--userdb", users, "--auth-mode", digest ? "digest" : "basic"]
        }
        guard let port = LocalPort.free() else { throw CalibreFailure(description: "cannot find a free port") }
        self.port = port
        process = try ServerProcess.start(server, arguments + ["--port", String(port), library.path], environment: environment, port: port,
                                          timeout: 60, for: testCase) { CalibreFailure(description: $0) }
    }

    static func program(_ name: String) -> URL? {
        ["/usr/bin/", "/usr/local/bin/"].map { URL(fileURLWithPath: $0 + name) }.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// Runs a calibre command to its end; a failure carries the end of what it printed, so the test log says why.
    /// `runToEnd`, tried again for up to 30 seconds while a failure prints `busy` (another program holds calibre's lock).
    static func runToEnd(_ executable: URL, _ arguments: [String], environment: [String: String], retryWhilePrinting busy: String) throws {
        let deadline = Date().addingTimeInterval(30)
        while true {
            do {
                return try runToEnd(executable, arguments, environment: environment)
            } catch let failure as CalibreFailure where failure.description.contains(busy) && Date() < deadline {
                usleep(250_000)
            }
        }
    }

    static func runToEnd(_ executable: URL, _ arguments: [String], environment: [String: String]) throws {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let printed = errors.fileHandleForReading.readDataToEndOfFile() // calibre prints little; read before waiting
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let tail = String(decoding: printed.suffix(2_000), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            throw CalibreFailure(description: "\(executable.lastPathComponent) \(arguments.first ?? "") exited with \(process.terminationStatus): \(tail)")
        }
    }
}

/// Why the calibre server could not be set up.
public struct CalibreFailure: Error, CustomStringConvertible {
    public let description: String
}
