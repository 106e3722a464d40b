import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Shared machinery for the benchmark cases: a monotonic clock, child processes, peak memory,
/// temporary folders, locating the repository's resources, and the aligned result table.

// MARK: Clock

/// `CLOCK_MONOTONIC`, in nanoseconds. It is system-wide on Linux, so a timestamp taken in the
/// parent just before spawning and one taken in the child are directly comparable.
enum MonotonicClock {
    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// Runs `body` and returns its result and how long it took, in seconds.
    static func measure<T>(_ body: () throws -> T) rethrows -> (T, Double) {
        let start = now()
        let result = try body()
        return (result, seconds(from: start, to: now()))
    }

    static func seconds(from start: UInt64, to end: UInt64) -> Double {
        Double(Int64(bitPattern: end &- start)) / 1e9
    }
}

// MARK: Child processes

/// Runs programs with `posix_spawn` and collects their standard output.
enum ChildProcess {
    struct Outcome {
        /// `MonotonicClock.now()` taken immediately before `posix_spawn`.
        let spawnedAt: UInt64
        /// `MonotonicClock.now()` once the child has exited.
        let exitedAt: UInt64
        let status: Int32
        let output: String
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// This program's own executable, so it can re-invoke itself for the child cases.
    static var currentExecutable: String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        if count > 0 { return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) }
        return CommandLine.arguments[0]
    }

    /// Spawns `executable` with `arguments`, standard output to a pipe, standard error inherited
    /// (or discarded with `quiet`), standard input inherited (or `standardInput`), waits for it, and returns what it printed.
    static func run(_ executable: String, _ arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment,
                    quiet: Bool = false, standardInput: Int32? = nil) throws -> Outcome {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw Failure(description: "pipe failed: errno \(errno)") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO)
        posix_spawn_file_actions_addclose(&actions, fds[0])
        posix_spawn_file_actions_addclose(&actions, fds[1])
        if quiet { posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0) }
        if let standardInput { posix_spawn_file_actions_adddup2(&actions, standardInput, STDIN_FILENO) }

        let spawned: (pid: pid_t, spawnedAt: UInt64)
        do {
            spawned = try spawn(executable, arguments, environment: environment, actions: &actions, searchingPath: true)
        } catch {
            close(fds[0])
            close(fds[1])
            throw error
        }
        let (pid, spawnedAt) = spawned
        close(fds[1])
        let output = FileHandle(fileDescriptor: fds[0], closeOnDealloc: true).readDataToEndOfFile()
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let exitedAt = MonotonicClock.now()
        return Outcome(spawnedAt: spawnedAt, exitedAt: exitedAt, status: exitStatus(status), output: String(decoding: output, as: UTF8.self))
    }

    /// A `waitpid` status as a shell gives it: the exit code, or 128 plus the signal that ended the process
    /// (`WEXITSTATUS` and `WIFEXITED` are macros Swift cannot call).
    static func exitStatus(_ status: Int32) -> Int32 {
        (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }

    /// Starts `executable arguments` with exactly `environment` and the file actions given (`posix_spawnp`, which looks
    /// the program up on `PATH`, with `searchingPath`). Returns its pid and `MonotonicClock.now()` taken just before
    /// the spawn; the caller waits for it.
    static func spawn(_ executable: String, _ arguments: [String], environment: [String: String],
                      actions: inout posix_spawn_file_actions_t, searchingPath: Bool = false) throws -> (pid: pid_t, spawnedAt: UInt64) {
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let spawnedAt = MonotonicClock.now()
        let result = searchingPath ? posix_spawnp(&pid, executable, &actions, nil, argv, envp)
                                   : posix_spawn(&pid, executable, &actions, nil, argv, envp)
        guard result == 0 else { throw Failure(description: "cannot start \(executable): \(String(cString: strerror(result)))") }
        return (pid, spawnedAt)
    }

    /// Whether `name` is an executable on `PATH` (what `command -v` answers).
    static func which(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }
}

// MARK: Memory

/// Peak resident memory of this process or another one, from `/proc/…/status`.
enum ProcessMemory {
    /// `VmHWM` (the resident set's high-water mark) in bytes, or nil where `/proc` is missing.
    static func peakResidentBytes() -> Int? {
        peakResidentBytes(statusFile: "/proc/self/status")
    }

    /// `VmRSS` of this process in bytes, or nil where `/proc` is missing.
    static func residentBytes() -> Int? {
        statusField("VmRSS:", statusFile: "/proc/self/status")
    }

    /// Resets this process's `VmHWM` to its current resident size (`/proc/self/clear_refs`, Linux 4.0
    /// and later); false where that is not possible, and the high-water mark then covers the whole run.
    @discardableResult
    static func resetPeakResident() -> Bool {
        guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
        defer { try? handle.close() }
        return (try? handle.write(contentsOf: Data("5".utf8))) != nil
    }

    /// `VmHWM` of process `pid` in bytes, or nil when it has gone (or `/proc` is missing).
    static func peakResidentBytes(of pid: pid_t) -> Int? {
        peakResidentBytes(statusFile: "/proc/\(pid)/status")
    }

    private static func peakResidentBytes(statusFile: String) -> Int? {
        statusField("VmHWM:", statusFile: statusFile)
    }

    private static func statusField(_ name: String, statusFile: String) -> Int? {
        guard let status = try? String(contentsOfFile: statusFile, encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix(name) {
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            if fields.count >= 2, let kilobytes = Int(fields[1]) { return kilobytes * 1024 }
        }
        return nil
    }
}

// MARK: Files

/// A folder under the system temporary directory, removed by `remove()`.
struct TemporaryFolder {
    let url: URL

    init(prefix: String) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}

/// Finds folders that ship in the repository (`SampleLibrary`, `Themes`): an environment variable,
/// then the current directory and its parents, then the folders above the executable (`.build/release/…`).
enum RepositoryResources {
    static func locate(_ name: String, variable: String, marker: String) -> URL? {
        let environment = ProcessInfo.processInfo.environment
        if let value = environment[variable], !value.isEmpty { return URL(fileURLWithPath: value, isDirectory: true) }
        var starts = [URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)]
        starts.append(URL(fileURLWithPath: ChildProcess.currentExecutable).deletingLastPathComponent())
        for start in starts {
            var folder = start.standardizedFileURL
            for _ in 0..<6 {
                let candidate = folder.appendingPathComponent(name, isDirectory: true)
                if FileManager.default.fileExists(atPath: candidate.appendingPathComponent(marker).path) { return candidate }
                folder = folder.deletingLastPathComponent()
            }
        }
        return nil
    }

    static var sampleLibrary: URL? { locate("SampleLibrary", variable: "NEWSSTAND_SAMPLE_LIBRARY", marker: "catalog.plist") }
    static var themes: URL? { locate("Themes", variable: "NEWSSTAND_THEMES", marker: "dark.theme") }
    /// The shared real-world corpora beside the repository (`../shared/corpora`), when present.
    static var corpora: URL? { locate("shared/corpora", variable: "NEWSSTAND_CORPORA", marker: "README.md") }
}

// MARK: Output

/// Formats figures with their units.
enum Format {
    static func duration(_ seconds: Double) -> String {
        if seconds >= 1 { return String(format: "%.2f s", seconds) }
        if seconds >= 0.001 { return String(format: "%.2f ms", seconds * 1e3) }
        return String(format: "%.1f µs", seconds * 1e6)
    }

    static func microseconds(_ seconds: Double) -> String {
        String(format: "%.1f µs", seconds * 1e6)
    }

    static func milliseconds(_ seconds: Double) -> String {
        String(format: "%.2f ms", seconds * 1e3)
    }

    static func megabytes(_ bytes: Double) -> String {
        String(format: "%.1f MB", bytes / 1_048_576)
    }

    static func count(_ value: Int) -> String {
        let digits = String(value)
        var result = ""
        for (index, character) in digits.reversed().enumerated() {
            if index > 0 && index % 3 == 0 && character != "-" { result.append(",") }
            result.append(character)
        }
        return String(result.reversed())
    }

    static func ratio(_ value: Double) -> String {
        String(format: "%.2f×", value)
    }
}

/// A titled table of results, one case per row: the first column left-aligned, the figures
/// right-aligned, the last column (notes) left-aligned. Printed as soon as its section is done.
struct ResultTable {
    static let columns = ["case", "runs", "median", "p99", "max", "notes"]

    let title: String
    private(set) var rows: [[String]] = []
    private(set) var footnotes: [String] = []

    init(title: String) {
        self.title = title
    }

    mutating func add(_ name: String, runs: Int?, median: String, p99: String = "-", max: String = "-", notes: String = "") {
        rows.append([name, runs.map(Format.count) ?? "-", median, p99, max, notes])
    }

    /// A row built from timing statistics, in one unit chosen by `format`.
    mutating func add(_ name: String, _ statistics: Statistics, format: (Double) -> String = Format.duration,
                      showP99: Bool = false, notes: String = "") {
        add(name, runs: statistics.count, median: format(statistics.median),
            p99: showP99 ? format(statistics.percentile(99)) : "-", max: format(statistics.max), notes: notes)
    }

    mutating func note(_ text: String) {
        footnotes.append(text)
    }

    func rendered() -> String {
        let all = [Self.columns] + rows
        let widths = Self.columns.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        var lines = [title]
        for (index, row) in all.enumerated() {
            var cells: [String] = []
            for (column, cell) in row.enumerated() {
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                let isLeft = column == 0 || column == row.count - 1
                cells.append(isLeft ? cell + padding : padding + cell)
            }
            lines.append(("  " + cells.joined(separator: "  ")).replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression))
            if index == 0 {
                lines.append("  " + widths.map { String(repeating: "-", count: $0) }.joined(separator: "  "))
            }
        }
        lines += footnotes.map { "  * " + $0 }
        return lines.joined(separator: "\n")
    }

    func print() {
        Swift.print(rendered() + "\n")
        fflush(nil)
    }
}

/// Progress lines go to standard error, so standard output holds only the tables.
func progress(_ text: String) {
    fflush(nil)
    FileHandle.standardError.write(Data("… \(text)\n".utf8))
}

// MARK: Running

/// Chooses the cases from the command line and runs them in order.
enum BenchmarkRunner {
    enum Case: String, CaseIterable {
        case shelf, launch, startup, covers, fidelity, pictures, feeds, reader, cbz, sync, accounts, progressSync, downloads, catalog, articles
    }

    static let usage = "usage: newsstand-bench [shelf] [launch] [startup] [covers] [fidelity] [pictures] [feeds] [reader] [cbz] [sync] "
        + "[accounts [--feeds N] [--items N]] [progress-sync] [downloads] [catalog] [articles]"

    static func run(arguments: [String]) throws {
        var selected: [Case] = []
        var accounts = AccountBenchmark()
        var remaining = arguments[...]
        /// The number after an option (`--feeds 100`).
        func count(after option: String) throws -> Int {
            guard let text = remaining.popFirst(), let value = Int(text), value > 0 else {
                throw ChildProcess.Failure(description: "\(option) needs a number above 0\n\(usage)")
            }
            return value
        }
        while let argument = remaining.popFirst() {
            switch argument {
            case "shelf": selected.append(.shelf)
            case "launch": selected.append(.launch)
            case "startup": selected.append(.startup)
            case "covers": selected.append(.covers)
            case "fidelity": selected.append(.fidelity)
            case "pictures": selected.append(.pictures)
            case "feeds": selected.append(.feeds)
            case "reader": selected.append(.reader)
            case "cbz": selected.append(.cbz)
            case "sync": selected.append(.sync)
            case "accounts": selected.append(.accounts)
            case "--feeds": accounts.feedCount = try count(after: argument)
            case "--items": accounts.itemsPerFeed = try count(after: argument)
            case "progress-sync": selected.append(.progressSync)
            case "--downloads", "downloads": selected.append(.downloads)
            case "catalog": selected.append(.catalog)
            case "articles": selected.append(.articles)
            case "-h", "--help":
                print(usage)
                return
            default:
                throw ChildProcess.Failure(description: "unknown argument '\(argument)'\n\(usage)")
            }
        }
        // With nothing named, every case.
        if selected.isEmpty { selected = Case.allCases.filter { $0 != .fidelity && $0 != .startup } } // covers has the fidelity table, launch the start-up rows
        let cases = Case.allCases.filter(selected.contains)

        printHeader()
        let (_, total) = try MonotonicClock.measure {
            for benchmark in cases {
                switch benchmark {
                case .shelf: try ShelfBenchmark().run()
                case .launch: try LaunchBenchmark().run()
                case .startup: try LaunchBenchmark.runStartupRows()
                case .covers: try CoverBenchmark().run()
                case .fidelity: try CoverBenchmark(fidelityOnly: true).run()
                case .pictures: try PictureProtocolBenchmark().run()
                case .feeds: try FeedBenchmark().run()
                case .reader: try ReaderBenchmark().run()
                case .cbz: try ComicBookBenchmark().run()
                case .sync: try SyncBenchmark().run()
                case .accounts: try accounts.run()
                case .progressSync: try ProgressSyncBenchmark().run()
                case .downloads: try DownloadBenchmark().run()
                case .catalog: try CatalogBenchmark().run()
                case .articles: try ArticleBenchmark().run()
                }
            }
        }
        print("Total \(Format.duration(total)).")
    }

    private static func printHeader() {
        var system = utsname()
        uname(&system)
        let release = withUnsafeBytes(of: &system.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        #if DEBUG
        let build = "debug build (use -c release for real figures)"
        #else
        let build = "release build"
        #endif
        print("newsstand-bench — \(build), \(ProcessInfo.processInfo.activeProcessorCount) CPUs, Linux \(release)\n")
    }
}
