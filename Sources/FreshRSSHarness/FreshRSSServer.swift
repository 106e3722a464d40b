import Foundation
import Synchronization

/// A real FreshRSS (`../shared/servers/freshrss/FreshRSS.tar.gz`) on 127.0.0.1, served by PHP's built-in web server
/// (``workers`` processes answering side by side) with SQLite, for the accounts tests and the `accounts` benchmark (the Google Reader API at ``apiURL``). Each server
/// runs in its own copy of the tree in a scratch folder, so tests never share state; the tree is extracted and
/// installed (users `admin` and ``user``) once per process and copied for each server, which keeps a start under a
/// second. The tests start it with `init(for:)` (NewsstandTestSupport), which skips a test when PHP is absent.
public final class FreshRSSServer {
    public let port: UInt16
    /// The copy of FreshRSS this server runs (its data in `data/`).
    public let folder: URL
    private var process: Process?

    /// The user the tests use, and its API password (FreshRSS's API takes it, not the web password).
    public let user = "reader"
    public let apiPassword = "apipass123"

    /// The Google Reader API's base, as an account is added with.
    public var apiURL: URL { URL(string: "http://127.0.0.1:\(port)/api/greader.php")! }

    /// What is missing for a FreshRSS to run here (PHP, the shared source), in plain words; nil when nothing is.
    public static var unavailableReason: String? {
        if php == nil { return "PHP is not installed (php8.2-cli and its modules; `make test` installs them)" }
        if !FileManager.default.fileExists(atPath: tarball.path) { return "FreshRSS's source not found at \(tarball.path)" }
        return nil
    }

    /// Starts a FreshRSS of its own in `scratch/FreshRSS` (its caller stops it and removes the folder). Throws
    /// ``FreshRSSFailure`` when PHP or the shared source is missing (``unavailableReason``) or it does not start.
    public init(in scratch: URL) throws {
        if let reason = Self.unavailableReason { throw FreshRSSFailure(description: reason) }
        let pristine = try Self.pristineTree.get()
        folder = scratch.appendingPathComponent("FreshRSS", isDirectory: true)
        try Self.run(URL(fileURLWithPath: "/bin/cp"), ["-a", pristine.path, folder.path], in: scratch)
        guard let port = LocalPort.free() else { throw FreshRSSFailure(description: "no free port on 127.0.0.1") }
        self.port = port
        do {
            try start()
        } catch {
            stop()
            throw error
        }
    }

    /// Runs one of FreshRSS's command-line scripts in this server's tree (`cli/import-for-user.php`,
    /// `cli/actualize-user.php`…) to its end, stopped after `timeout` seconds; what it printed. The server may be
    /// running meanwhile (SQLite is shared).
    @discardableResult
    public func runScript(_ script: String, _ arguments: [String], timeout: TimeInterval) throws -> String {
        guard let php = Self.php else { throw FreshRSSFailure(description: "PHP is not installed") }
        return try Self.run(php, [script] + arguments, in: folder, timeout: timeout)
    }

    /// Serves the tree (again, after ``stop()``) on the same port, waiting until it answers.
    public func start() throws {
        guard process == nil, let php = Self.php else { return }
        let process = Process()
        process.executableURL = php
        process.arguments = ["-S", "127.0.0.1:\(port)", "-t", "p"]
        process.currentDirectoryURL = folder
        process.environment = ProcessInfo.processInfo.environment.merging(["PHP_CLI_SERVER_WORKERS": String(Self.workers)]) { $1 }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        self.process = process
        let deadline = Date().addingTimeInterval(20)
        while !LocalPort.isListening(port) {
            guard process.isRunning else { throw FreshRSSFailure(description: "php -S exited with \(process.terminationStatus)") }
            guard Date() < deadline else { throw FreshRSSFailure(description: "FreshRSS did not listen on \(port) within 20 s") }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }

    /// Stops serving (the server is unreachable until ``start()``); its data stays. PHP 8.2's workers outlive their
    /// parent's SIGTERM, so they are stopped first, each by its process id.
    public func stop() {
        guard let process else { return }
        let workers = Self.children(of: process.processIdentifier)
        for worker in workers { kill(worker, SIGTERM) }
        process.terminate()
        process.waitUntilExit()
        self.process = nil
        let deadline = Date().addingTimeInterval(10)
        while LocalPort.isListening(port), Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
    }

    /// Processes serving at once: PHP's built-in server answers one request at a time unless told to fork workers
    /// (`PHP_CLI_SERVER_WORKERS`), where FreshRSS's usual deployments (PHP-FPM, Apache) answer several side by side,
    /// as `LocalHTTPServer` does for the feeds (a thread a connection).
    public static let workers = 4

    /// CPU time the server's processes (PHP and its workers) have used so far, in seconds (in steps of the kernel's
    /// clock tick, 10 ms): what FreshRSS spent answering, for the benchmark.
    public var cpuSeconds: Double {
        guard let process else { return 0 }
        let ticks = ([process.processIdentifier] + Self.children(of: process.processIdentifier)).compactMap { pid in
            Self.statFields(of: pid).flatMap { fields in fields.count > 12 ? (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0) : nil }
        }.reduce(0, +)
        return Double(ticks) / Double(max(1, sysconf(Int32(_SC_CLK_TCK))))
    }

    /// The processes whose parent is `pid` (the server's workers), from `/proc`.
    static func children(of pid: Int32) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { Int32($0) }.filter { candidate in
            guard let fields = statFields(of: candidate), fields.count > 1 else { return false }
            return Int32(fields[1]) == pid
        }
    }

    /// The fields of `/proc/PID/stat` after the program's name (`pid (name) state ppid …`: the name may hold spaces and
    /// parentheses, so they begin after its last `)`): state, parent, … user and system CPU time at 11 and 12.
    private static func statFields(of pid: Int32) -> [Substring]? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let end = stat.lastIndex(of: ")") else { return nil }
        return stat[stat.index(after: end)...].split(separator: " ")
    }

    /// `php` on the PATH Debian gives it.
    public static let php: URL? = ["/usr/bin/php", "/usr/bin/php8.2", "/usr/local/bin/php"].map(URL.init(fileURLWithPath:))
        .first { FileManager.default.isExecutableFile(atPath: $0.path) }

    /// The shared source: `../shared/servers/freshrss/FreshRSS.tar.gz` beside the package (found from this file's
    /// place in the package, as the tests find the package).
    public static var tarball: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("shared/servers/freshrss/FreshRSS.tar.gz").standardizedFileURL
    }

    /// FreshRSS extracted and installed once per process (as `../shared/servers/freshrss/README.md` does it), removed
    /// when the process ends; each server copies it.
    private static let pristineTree: Result<URL, Error> = Result {
        guard FileManager.default.fileExists(atPath: tarball.path) else {
            throw FreshRSSFailure(description: "FreshRSS's source not found at \(tarball.path)")
        }
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("newsstand-freshrss-\(getpid())", isDirectory: true)
        try? FileManager.default.removeItem(at: base)
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        pristineBase = base.path
        atexit { if let base = FreshRSSServer.pristineBase { try? FileManager.default.removeItem(atPath: base) } }
        try run(URL(fileURLWithPath: "/bin/tar"), ["xzf", tarball.path, "-C", base.path], in: base)
        let tree = base.appendingPathComponent("FreshRSS", isDirectory: true)
        guard let program = FreshRSSServer.php else { throw FreshRSSFailure(description: "PHP is not installed") }
        // The base URL only names where the server's own icons are; the API answers on whatever port it runs.
        for arguments in [["cli/prepare.php"],
                          ["cli/do-install.php", "--default-user", "admin", "--auth-type", "form", "--environment", "production",
                           "--base-url", "http://127.0.0.1", "--db-type", "sqlite", "--api-enabled"],
                          ["cli/create-user.php", "--user", "admin", "--password", "adminpass1"],
                          ["cli/create-user.php", "--user", "reader", "--password", "readerpass1", "--api-password", "apipass123"]] {
            try run(program, arguments, in: tree)
        }
        return tree
    }
    nonisolated(unsafe) private static var pristineBase: String?

    /// Runs a program to its end and returns what it printed; a failure carries the end of it.
    @discardableResult
    private static func run(_ executable: URL, _ arguments: [String], in directory: URL, timeout: TimeInterval? = nil) throws -> String {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.standardInput = FileHandle.nullDevice
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let watch = Watch()
        if let timeout {
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { [process] in
                guard process.isRunning else { return }
                watch.fired = true
                process.terminate()
            }
        }
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        if watch.fired {
            throw FreshRSSFailure(description: "\(executable.lastPathComponent) \(arguments.first ?? "") was stopped after \(Int(timeout ?? 0)) s")
        }
        guard process.terminationStatus == 0 else {
            let tail = String(decoding: printed.suffix(2_000), as: UTF8.self)
            throw FreshRSSFailure(description: "\(executable.lastPathComponent) \(arguments.first ?? "") exited with \(process.terminationStatus): \(tail)")
        }
        return String(decoding: printed, as: UTF8.self)
    }
}

/// Whether a program's time ran out (set from the timer's thread).
private final class Watch: Sendable {
    private let value = Atomic(false)
    var fired: Bool {
        get { value.load(ordering: .sequentiallyConsistent) }
        set { value.store(newValue, ordering: .sequentiallyConsistent) }
    }
}

/// Why a FreshRSS server could not be set up.
public struct FreshRSSFailure: Error, CustomStringConvertible {
    public let description: String

    public init(description: String) {
        self.description = description
    }
}
