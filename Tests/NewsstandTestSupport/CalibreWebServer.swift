import Foundation
import XCTest

/// A real calibre-web (PyPI's `calibreweb`, which `make test` installs into `.build/test-venv`) on 127.0.0.1: a
/// second OPDS server beside calibre's own, serving a calibre library built with `calibredb add`. Its OPDS feeds
/// (`/opds`) ask for a login (HTTP Basic) as the `admin` user.
///
/// calibre-web keeps its settings in its own database (`app.db`). `cps -p app.db -s admin:PASSWORD` makes that
/// database (with the admin user, then given `password`) and exits; the library's folder and the port are then
/// written into its `settings` row, and the server started on them. Everything it writes is in a scratch folder;
/// each step is bounded in time, and a step that fails or overruns fails the test.
public final class CalibreWebServer {
    public let port: UInt16
    public let folder: URL
    /// The admin's password (calibre-web's rules: upper and lower case, a digit, a sign, eight or more).
    public let password = "Newsstand-Test-9"
    public let user = "admin"
    private let process: Process

    /// The OPDS root (a navigation feed).
    public var opdsRoot: URL { URL(string: "http://127.0.0.1:\(port)/opds")! }
    /// Its "Recently added Books" acquisition feed.
    public var newestFeed: URL { URL(string: "http://127.0.0.1:\(port)/opds/new")! }

    /// Where `make test` installs calibre-web.
    public static var environmentFolder: URL { TestFiles.packageRoot.appendingPathComponent(".build/test-venv", isDirectory: true) }

    /// Builds a library of `books` and starts calibre-web on it; skips the test when calibre-web or calibre is not
    /// installed (a failure under NEWSSTAND_NO_SKIPS), fails it when either does not work.
    public init(for testCase: XCTestCase, books: [URL]) throws {
        let bin = Self.environmentFolder.appendingPathComponent("bin", isDirectory: true)
        let cps = bin.appendingPathComponent("cps"), python = bin.appendingPathComponent("python3")
        guard FileManager.default.isExecutableFile(atPath: cps.path) else {
            throw TestRequirement.absent("calibre-web is not installed in \(Self.environmentFolder.path) (`make test` installs PyPI's calibreweb there)")
        }
        guard let calibredb = CalibreServer.program("calibredb") else {
            throw TestRequirement.absent("calibredb is not installed (Debian's calibre package; `make test` installs it)")
        }
        folder = try TestFiles.scratchFolder(for: testCase)
        let home = folder.appendingPathComponent("home", isDirectory: true), settings = folder.appendingPathComponent("settings", isDirectory: true)
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: settings, withIntermediateDirectories: true)
        let environment = ["HOME": home.path, "QT_QPA_PLATFORM": "offscreen", "PATH": "\(bin.path):/usr/bin:/bin", "LANG": "C.UTF-8",
                           "CALIBRE_NO_SI_DANGER_DANGER": "1"]
        let library = folder.appendingPathComponent("library", isDirectory: true)
        try CalibreServer.runToEnd(calibredb, ["add", "--library-path", library.path] + books.map(\.path), environment: environment,
                                   retryWhilePrinting: "Another calibre program")
        guard let port = LocalPort.free() else { throw TestRequirement.broken("cannot find a free port for calibre-web") }
        self.port = port
        let appDB = settings.appendingPathComponent("app.db"), driveDB = settings.appendingPathComponent("gdrive.db")
        let log = folder.appendingPathComponent("calibre-web.log")
        // Makes app.db with the admin user and a settings row, sets the admin's password and exits.
        try Self.run(cps, ["-p", appDB.path, "-g", driveDB.path, "-s", "\(user):\(password)"], environment: environment,
                     log: log, timeout: 120, what: "calibre-web's first run (making its settings database)")
        try Self.run(python, ["-c", """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            changed = db.execute("UPDATE settings SET config_calibre_dir = ?, config_port = ?", (sys.argv[2], int(sys.argv[3]))).rowcount
            db.commit()
            sys.exit(0 if changed == 1 else 3)
            """, appDB.path, library.path, String(port)], environment: environment, log: log, timeout: 30,
                     what: "writing the library and the port into calibre-web's settings")
        process = try ServerProcess.start(cps, ["-p", appDB.path, "-g", driveDB.path, "-i", "127.0.0.1", "-o", log.path], environment: environment,
                                          port: port, timeout: 120, for: testCase) { TestRequirement.broken("calibre-web: \($0): \(Self.tail(of: log))") }
    }

    /// Runs a step to its end within `timeout` seconds (killed after), its output appended to `log`; fails saying `what`.
    private static func run(_ executable: URL, _ arguments: [String], environment: [String: String], log: URL, timeout: TimeInterval,
                            what: String) throws {
        if !FileManager.default.fileExists(atPath: log.path) { _ = FileManager.default.createFile(atPath: log.path, contents: nil) }
        let output = try FileHandle(forWritingTo: log)
        defer { try? output.close() }
        output.seekToEndOfFile()
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning {
            if Date() >= deadline {
                process.terminate()
                process.waitUntilExit()
                throw TestRequirement.broken("\(what) took longer than \(Int(timeout)) s: \(tail(of: log))")
            }
            Thread.sleep(forTimeInterval: 0.1)
        }
        guard process.terminationStatus == 0 else {
            throw TestRequirement.broken("\(what) failed (exit \(process.terminationStatus)): \(tail(of: log))")
        }
    }

    /// The end of what calibre-web wrote, for a failure's message.
    private static func tail(of log: URL) -> String {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return String(text.suffix(1_500)).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
