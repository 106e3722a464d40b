import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Rows of case `launch` about start-up itself, apart from the library:
///
/// - spawn → `main`: `newsstand --version` (it prints and exits as soon as `main` runs) against a statically
///   linked Swift program that imports Foundation and prints one line (compiled here with `swiftc
///   -static-executable`), each spawned and waited for `runs` times: what loading the program costs before any
///   of its code runs (the dynamic loader, its shared libraries and relocations).
/// - the terminal's questions: `newsstand` on a pseudo-terminal this benchmark plays the terminal of, answering
///   the start-up questions (kitty query, cell size, XTVERSION, OSC 11 background, DA1) at once with a dark
///   background, timed from spawn to the first complete shelf in its output; with `--theme auto` (the
///   background asked for and used) and `--theme dark` (the same questions, the answer unused), so their
///   difference is what following the background costs when the terminal answers; with no answer, the
///   start-up window it then waits out; and with text covers (`--cover-mode ascii`), where `--theme auto` asks only
///   for the background and `--theme dark` asks nothing: what asking for the background costs at all.
struct StartupRows {
    var runs = 20
    /// Launches a pseudo-terminal row takes (each to its first complete shelf).
    var terminalRuns = 20
    /// Less than this is "adds nothing" for the background question (issue #21): below the run-to-run spread here.
    static let nothingMeasurable = 0.001

    static let helloSource = """
        import Foundation
        print("hello from \\(ProcessInfo.processInfo.processIdentifier)")
        """

    func add(to table: inout ResultTable, newsstand: URL, folder: URL) {
        // spawn → main.
        var hello: URL?
        if let swiftc = ChildProcess.which("swiftc") {
            let source = folder.appendingPathComponent("hello.swift"), executable = folder.appendingPathComponent("hello-static")
            progress("swiftc -static-executable hello.swift (the start-up floor)")
            if (try? Data(Self.helloSource.utf8).write(to: source)) != nil,
               let outcome = try? ChildProcess.run(swiftc, ["-O", "-static-executable", "-o", executable.path, source.path], quiet: true),
               outcome.status == 0 {
                hello = executable
            } else {
                table.note("the static Swift hello could not be built with \(swiftc) -static-executable; no start-up floor")
            }
        } else {
            table.note("swiftc is not on PATH; no static Swift hello to compare start-up with")
        }
        progress("spawn → exit: newsstand --version\(hello == nil ? "" : " and the static Swift hello"), \(runs) each, taking turns")
        var ours: [Double] = [], floor: [Double] = []
        for round in 0...runs {
            if let outcome = try? ChildProcess.run(newsstand.path, ["--version"], quiet: true), round > 0 {
                ours.append(MonotonicClock.seconds(from: outcome.spawnedAt, to: outcome.exitedAt))
            }
            if let hello, let outcome = try? ChildProcess.run(hello.path, [], quiet: true), round > 0 {
                floor.append(MonotonicClock.seconds(from: outcome.spawnedAt, to: outcome.exitedAt))
            }
        }
        if !floor.isEmpty { table.add("spawn → exit, static Swift hello (Foundation)", Statistics(floor), notes: "swiftc -O -static-executable; the floor") }
        if !ours.isEmpty { table.add("spawn → main, newsstand --version", Statistics(ours), notes: "prints its version in main and exits") }
        if !floor.isEmpty, !ours.isEmpty {
            table.add("  newsstand --version / static hello", runs: nil, median: Format.ratio(Statistics(ours).median / Statistics(floor).median),
                      notes: "ratio of medians: loading before main")
        }

        // The terminal's questions, answered or not.
        guard let sample = RepositoryResources.sampleLibrary else {
            return table.note("SampleLibrary not found: no pseudo-terminal rows")
        }
        let home = folder.appendingPathComponent("startup-home")
        try? FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        var environment = FirstFrame.environment(root: home)
        environment["NEWSSTAND_SAMPLE_LIBRARY"] = sample.path
        environment["TERM"] = "xterm-256color"
        environment["LANG"] = "C.UTF-8"
        environment["PATH"] = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let answers = Array("\u{1B}P>|XTerm(379)\u{1B}\\\u{1B}]11;rgb:0000/0000/0000\u{1B}\\\u{1B}[?64;1;2;6;22c".utf8)
        let cases: [(String, [String], [UInt8]?)] = [
            ("pty, answered at once: spawn → shelf, --theme auto", ["--theme", "auto"], answers),
            ("pty, answered at once: spawn → shelf, --theme dark", ["--theme", "dark"], answers),
            ("pty, no answer: spawn → shelf, --theme auto", ["--theme", "auto"], nil),
            ("pty, answered at once: text covers, --theme auto", ["--theme", "auto", "--cover-mode", "ascii"], answers),
            ("pty, nothing asked: text covers, --theme dark", ["--theme", "dark", "--cover-mode", "ascii"], answers),
        ]
        progress("newsstand on a pseudo-terminal answering its questions: \(cases.count) ways, 1 warm-up + \(terminalRuns) each, taking turns")
        var samples = [[Double]](repeating: [], count: cases.count)
        for round in 0...terminalRuns {
            for (index, (_, arguments, answer)) in cases.enumerated() {
                if let seconds = try? Self.launchOnPseudoTerminal(newsstand, arguments, environment: environment, answers: answer), round > 0 {
                    samples[index].append(seconds)
                }
            }
        }
        for ((name, _, _), times) in zip(cases, samples) where !times.isEmpty {
            table.add(name, Statistics(times), notes: name.contains("no answer") ? "waits out the start-up window (0.25 s)" : "")
        }
        if !samples[0].isEmpty, !samples[1].isEmpty {
            let difference = Statistics(samples[0]).median - Statistics(samples[1]).median
            table.add("  auto − dark, answered", runs: nil, median: Format.duration(difference),
                      notes: "what following the background costs when the terminal answers (same questions, one more answer read)")
        }
        if !samples[3].isEmpty, !samples[4].isEmpty {
            // With text covers the terminal is asked only for its background (auto), or not at all (dark).
            let difference = Statistics(samples[3]).median - Statistics(samples[4]).median
            table.add("  asking for the background, answered", runs: nil, median: Format.duration(difference),
                      notes: "text covers: auto (asks only that) − dark (asks nothing); target under \(Format.duration(Self.nothingMeasurable)) "
                        + "(adds nothing): \(difference < Self.nothingMeasurable ? "met" : "NOT met")")
        }
    }

    struct Failure: Error {}

    /// Spawns `executable arguments` on a new pseudo-terminal (100 × 30), answers its questions with `answers`
    /// as soon as DA1 is asked (nil: never), and returns seconds from spawn until its output holds a complete
    /// shelf ("TAP TO DOWNLOAD"); then ends it with SIGTERM.
    static func launchOnPseudoTerminal(_ executable: URL, _ arguments: [String], environment: [String: String], answers: [UInt8]?) throws -> Double {
        // posix_openpt and ptsname do not import from Glibc: /dev/ptmx, then TIOCSPTLCK (unlock) and TIOCGPTN (its number).
        let primary = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        guard primary >= 0 else { throw Failure() }
        defer { close(primary) }
        var unlock: Int32 = 0, number: UInt32 = 0
        guard ioctl(primary, 0x4004_5431, &unlock) == 0, ioctl(primary, 0x8004_5430, &number) == 0 else { throw Failure() }
        var size = winsize(ws_row: 30, ws_col: 100, ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(primary, UInt(TIOCSWINSZ), &size)
        let secondary = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
        guard secondary >= 0 else { throw Failure() }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for target in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] { posix_spawn_file_actions_adddup2(&actions, secondary, target) }
        posix_spawn_file_actions_addclose(&actions, primary)
        let spawned = try? ChildProcess.spawn(executable.path, arguments, environment: environment, actions: &actions)
        close(secondary)
        guard let (pid, spawnedAt) = spawned else { throw Failure() }
        defer {
            kill(pid, SIGTERM)
            var buffer = [UInt8](repeating: 0, count: 65_536)
            var status: Int32 = 0
            // Keep reading so the program can write its goodbye, then reap it.
            for _ in 0..<100 where waitpid(pid, &status, WNOHANG) == 0 {
                var poller = pollfd(fd: primary, events: Int16(POLLIN), revents: 0)
                if poll(&poller, 1, 20) > 0 { _ = buffer.withUnsafeMutableBytes { read(primary, $0.baseAddress, $0.count) } }
            }
            if waitpid(pid, &status, WNOHANG) == 0 { kill(pid, SIGKILL); waitpid(pid, &status, 0) }
        }
        var output: [UInt8] = []
        var answered = false
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let marker = Array("TAP TO DOWNLOAD".utf8), question = Array("\u{1B}[c".utf8)
        let deadline = MonotonicClock.now() + 20_000_000_000
        while MonotonicClock.now() < deadline {
            var poller = pollfd(fd: primary, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 100) > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { read(primary, $0.baseAddress, $0.count) }
            guard count > 0 else { throw Failure() }
            let searchFrom = max(0, output.count - marker.count)
            output += buffer[0..<count]
            if !answered, let answers, contains(output, question, from: max(0, searchFrom - question.count)) {
                answered = true
                _ = answers.withUnsafeBytes { write(primary, $0.baseAddress, $0.count) }
            }
            if contains(output, marker, from: searchFrom) { return MonotonicClock.seconds(from: spawnedAt, to: MonotonicClock.now()) }
        }
        throw Failure()
    }

    private static func contains(_ bytes: [UInt8], _ wanted: [UInt8], from start: Int) -> Bool {
        guard bytes.count >= wanted.count else { return false }
        return (start...(bytes.count - wanted.count)).contains { bytes[$0..<($0 + wanted.count)].elementsEqual(wanted) }
    }
}
