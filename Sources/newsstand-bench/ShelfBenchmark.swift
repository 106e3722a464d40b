import Foundation
import NewsstandCore
import NewsstandRuntime
import NewsstandUI

/// Case 1, the shelf at scale: libraries of 1,000 × 50 and 10 × 50 issues, the time from process start to
/// the first complete shelf frame (measured in fresh child processes), the redraw after a keypress, and peak memory.
struct ShelfBenchmark {
    var childRuns = 10
    var keypresses = 1000
    var width = 120
    var height = 40
    /// The libraries measured: the same figures should come out for both.
    var sizes: [(publications: Int, issues: Int)] = [(1_000, 50), (10, 50)]

    func run() throws {
        for size in sizes {
            try run(LibraryGenerator(publicationCount: size.publications, issuesPerPublication: size.issues, batchSize: 50))
        }
    }

    private func run(_ generator: LibraryGenerator) throws {
        let folder = try TemporaryFolder(prefix: "newsstand-bench-shelf")
        defer { folder.remove() }
        let environment = FirstFrame.environment(root: folder.url)
        let paths = LibraryPaths.fromEnvironment(environment)

        var table = ResultTable(title: "Shelf at scale: \(Format.count(generator.publicationCount * generator.issuesPerPublication)) issues in \(generator.publicationCount) publications, \(width)×\(height) cells")

        progress("generating the library in \(folder.url.path)")
        let (summary, generationTime) = try MonotonicClock.measure { try generator.generate(into: paths) }
        table.add("generate library", runs: 1, median: Format.duration(generationTime),
                  notes: "\(summary.publications) × \(generator.issuesPerPublication) issues, upsertIssues in batches of \(generator.batchSize), \(Format.count(summary.stateChanges)) state changes; \(Format.megabytes(Double(summary.databaseBytes))) database")

        try measureCompletion(environment: environment, paths: paths, into: &table)

        // A baseline: the cost of starting this executable at all (exec, dynamic linking, Swift runtime).
        progress("starting \(childRuns) empty child processes")
        let executable = ChildProcess.currentExecutable
        var emptyStarts: [Double] = []
        for _ in 0..<childRuns {
            let outcome = try ChildProcess.run(executable, ["--child-noop"])
            let report = try ChildReport(outcome)
            emptyStarts.append(MonotonicClock.seconds(from: outcome.spawnedAt, to: report.mainEnteredAt))
        }

        progress("starting \(childRuns) child processes to the first frame")
        var reports: [ChildReport] = []
        var toFirstFrame: [Double] = []
        for _ in 0..<childRuns {
            let outcome = try ChildProcess.run(executable, ["--child-first-frame", folder.url.path, String(width), String(height)])
            let report = try ChildReport(outcome, reportsFrame: true)
            reports.append(report)
            toFirstFrame.append(MonotonicClock.seconds(from: outcome.spawnedAt, to: report.frameReadyAt))
        }
        table.add("process start → first shelf frame", Statistics(toFirstFrame), format: Format.milliseconds,
                  notes: "fresh child each run; spawn → frame ready (BufferDiff done)")
        table.add("  start → main (exec + runtime)", Statistics(reports.map(\.startToMain)), format: Format.milliseconds,
                  notes: "spawn → first line of main")
        for phase in FirstFrame.Phase.allCases {
            table.add("  " + phase.label, Statistics(reports.map { $0.phases[phase] ?? 0 }), format: Format.milliseconds, notes: phase.detail)
        }
        table.add("empty child process (baseline)", Statistics(emptyStarts), format: Format.milliseconds,
                  notes: "spawn → main of `newsstand-bench --child-noop`")
        let fullChanges = reports.first?.changes ?? 0
        table.add("  cells drawn in first frame", runs: childRuns, median: Format.count(fullChanges), notes: "BufferDiff against nil")

        // Redraw after a keypress, in this process with the same library.
        progress("timing \(keypresses) keypresses")
        let redraw = try KeypressRun(keypresses: keypresses, width: width, height: height).run(environment: environment)
        table.add("redraw after a keypress", Statistics(redraw.times), format: Format.microseconds, showP99: true,
                  notes: "update + render + BufferDiff vs previous frame; mean \(String(format: "%.0f", redraw.meanChanges)) changed cells (↓/↑, PgDn, Tab)")
        for (stage, detail) in [("update", "AppUpdate.update"), ("render", "AppView.render"), ("diff", "BufferDiff.changes")] {
            if let times = redraw.stages[stage] {
                table.add("  " + detail, Statistics(times), format: Format.microseconds, showP99: true)
            }
        }
        for (label, times) in redraw.byKey.sorted(by: { $0.key < $1.key }) {
            table.add("  key " + label, Statistics(times), format: Format.microseconds, showP99: true)
        }

        table.add("peak RSS, child after first frame", Statistics(reports.map { Double($0.peakResidentBytes) }), format: Format.megabytes,
                  notes: "VmHWM of each child")
        if let peak = ProcessMemory.peakResidentBytes() {
            table.add("peak RSS, this process after keypresses", runs: 1, median: Format.megabytes(Double(peak)),
                      notes: "VmHWM; includes generating the library")
        }
        table.note("start → frame is CLOCK_MONOTONIC just before posix_spawn in the parent to CLOCK_MONOTONIC in the child once the frame's BufferDiff is computed (what the app does before its first draw, minus ncurses).")
        table.print()
    }
}

extension ShelfBenchmark {
    /// Tab completion of issue names on this library, as a shell runs it at each Tab: the whole
    /// `newsstand __names issues -- PREFIX` process (the release binary beside this one), spawn to exit, for a
    /// few prefixes; and the query alone, in this process. Goal: under 50 ms at 50,000 issues.
    func measureCompletion(environment: [String: String], paths: LibraryPaths, into table: inout ResultTable) throws {
        let newsstand = LaunchBenchmark.newsstandExecutable.path
        guard FileManager.default.isExecutableFile(atPath: newsstand) else {
            table.note("completion: \(newsstand) is not built (make bench builds it); not measured.")
            return
        }
        let store = try LibraryStore(file: paths.databaseFile)
        defer { store.close() }
        let publication = try store.publicationNameCandidates(startingWith: "", limit: 1).first ?? ""
        let handle = try store.issueNameCandidates(startingWith: "", limit: 1).first ?? ""
        let cases: [(prefix: String, what: String)] = [
            ("", "nothing typed: the first names"),
            (String(handle.prefix(max(1, handle.count - 2))), "part of an issue's name"),
            ("\(publication)/", "one publication's issues"),
            ("zzz", "no name starts so"),
        ]
        progress("timing completion of issue names (\(childRuns) processes a prefix)")
        for (prefix, what) in cases {
            var times: [Double] = []
            var printed = 0
            for _ in 0..<childRuns {
                let outcome = try ChildProcess.run(newsstand, ["__names", "issues", "--", prefix], environment: environment)
                guard outcome.status == 0 else { throw ChildProcess.Failure(description: "newsstand __names failed: \(outcome.output)") }
                times.append(MonotonicClock.seconds(from: outcome.spawnedAt, to: outcome.exitedAt))
                printed = outcome.output.split(separator: "\n").count
            }
            table.add("complete issue names “\(prefix)”", Statistics(times), format: Format.milliseconds,
                      notes: "newsstand __names process, spawn → exit; \(what), \(printed) names")
            var queries: [Double] = []
            for _ in 0..<100 {
                queries.append(try MonotonicClock.measure { _ = try store.issueNameCandidates(startingWith: prefix, limit: 200) }.1)
            }
            table.add("  the query alone", Statistics(queries), format: Format.microseconds, notes: "issueNameCandidates in this process")
        }
    }
}

/// What a child process reports on its one line of output: `key=value` pairs.
struct ChildReport {
    let mainEnteredAt: UInt64
    let frameReadyAt: UInt64
    let peakResidentBytes: Int
    let changes: Int
    let phases: [FirstFrame.Phase: Double]
    let spawnedAt: UInt64

    var startToMain: Double { MonotonicClock.seconds(from: spawnedAt, to: mainEnteredAt) }

    /// The report in `outcome`'s output. With `reportsFrame`, a child that never reported its frame (`ready`) fails,
    /// rather than passing off spawn → main as spawn → frame.
    init(_ outcome: ChildProcess.Outcome, reportsFrame: Bool = false) throws {
        guard outcome.status == 0 else { throw ChildProcess.Failure(description: "the child process failed (status \(outcome.status)): \(outcome.output)") }
        var values: [String: String] = [:]
        for pair in outcome.output.split(whereSeparator: \.isWhitespace) {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { values[String(parts[0])] = String(parts[1]) }
        }
        guard let main = values["main"].flatMap(UInt64.init) else {
            throw ChildProcess.Failure(description: "the child process printed no report: \(outcome.output)")
        }
        spawnedAt = outcome.spawnedAt
        mainEnteredAt = main
        if reportsFrame {
            guard let ready = values["ready"].flatMap(UInt64.init) else {
                throw ChildProcess.Failure(description: "the child process reported no frame: \(outcome.output)")
            }
            frameReadyAt = ready
        } else {
            frameReadyAt = main
        }
        peakResidentBytes = values["hwm"].flatMap(Int.init) ?? 0
        changes = values["changes"].flatMap(Int.init) ?? 0
        var phases: [FirstFrame.Phase: Double] = [:]
        for phase in FirstFrame.Phase.allCases {
            if let nanoseconds = values[phase.rawValue].flatMap(UInt64.init) { phases[phase] = Double(nanoseconds) / 1e9 }
        }
        self.phases = phases
    }
}

/// What the app does before its first draw, minus ncurses: open the library, load the theme, read the
/// overview and the first shelf's window, apply them, render the view and diff it against nothing.
enum FirstFrame {
    enum Phase: String, CaseIterable {
        case open, theme, library, render, diff

        var label: String {
            switch self {
            case .open: "open store + config"
            case .theme: "load theme"
            case .library: "overview + first windows"
            case .render: "AppView.render"
            case .diff: "BufferDiff vs nil"
            }
        }

        var detail: String {
            switch self {
            case .open: "XDG folders, config file, LibraryStore(file:) (WAL, schema check)"
            case .theme: "Themes/dark.theme through ThemeLoader, else the fallback theme"
            case .library: "LibraryLoader: publications, counts, reading issue; keyset-paged windows of the shelves in view; applied by AppUpdate"
            case .render: "into a CellBuffer"
            case .diff: "the whole screen"
            }
        }
    }

    struct Result {
        let state: AppState
        let theme: Theme
        let frame: CellBuffer
        let changes: Int
        let phases: [Phase: Double]
    }

    /// XDG variables that put data, config and cache under `root`.
    static func environment(root: URL) -> [String: String] {
        ["XDG_DATA_HOME": root.appendingPathComponent("data").path,
         "XDG_CONFIG_HOME": root.appendingPathComponent("config").path,
         "XDG_CACHE_HOME": root.appendingPathComponent("cache").path,
         "HOME": root.path]
    }

    static func build(environment: [String: String], width: Int, height: Int) throws -> Result {
        var phases: [Phase: Double] = [:]
        func timed<T>(_ phase: Phase, _ body: () throws -> T) rethrows -> T {
            let (value, seconds) = try MonotonicClock.measure(body)
            phases[phase] = seconds
            return value
        }
        let store = try timed(.open) { () throws -> LibraryStore in
            let paths = LibraryPaths.fromEnvironment(environment)
            try paths.createDirectories()
            _ = Configuration.load(from: paths.configFile)
            let store = try LibraryStore(file: paths.databaseFile)
            _ = try store.setting("sample_library_offered")
            return store
        }
        defer { store.close() }
        let theme = timed(.theme) { () -> Theme in
            let paths = LibraryPaths.fromEnvironment(environment)
            let directories = [paths.userThemesDirectory] + (RepositoryResources.themes.map { [$0] } ?? [])
            return (try? ThemeLoader(searchDirectories: directories).load("dark")) ?? .fallback
        }
        let state = try timed(.library) { () throws -> AppState in
            var state = AppState(width: width, height: height)
            state.isLightBackground = theme.isLight
            try LibraryLoader(store: store).settle([.loadLibrary], into: &state, readingUnfinishedDownloads: false)
            return state
        }
        let frame = timed(.render) { AppView.render(state, theme: theme) }
        let changes = timed(.diff) { BufferDiff.changes(from: nil, to: frame) }
        return Result(state: state, theme: theme, frame: frame, changes: changes.count, phases: phases)
    }

    /// The child side of the first-frame case: builds the frame, then prints its report and exits.
    static func runChild(root: String, width: Int, height: Int, mainEnteredAt: UInt64) throws {
        let result = try build(environment: environment(root: URL(fileURLWithPath: root, isDirectory: true)), width: width, height: height)
        let ready = MonotonicClock.now()
        var fields = ["main=\(mainEnteredAt)", "ready=\(ready)", "hwm=\(ProcessMemory.peakResidentBytes() ?? 0)", "changes=\(result.changes)"]
        for phase in Phase.allCases { fields.append("\(phase.rawValue)=\(UInt64((result.phases[phase] ?? 0) * 1e9))") }
        print(fields.joined(separator: " "))
    }
}

/// Key presses applied to a loaded shelf, each timed from the message to the cell changes ready to draw.
struct KeypressRun {
    let keypresses: Int
    let width: Int
    let height: Int

    struct Outcome {
        var times: [Double] = []
        var byKey: [String: [Double]] = [:]
        /// The same presses split into AppUpdate.update, AppView.render and BufferDiff.changes.
        var stages: [String: [Double]] = [:]
        var meanChanges: Double = 0
    }

    /// Mostly ↓ with some ↑ (net progress down the shelf), a PgDn every 20 keys and a Tab to the next publication every 100.
    static func key(at index: Int) -> Key {
        if index % 100 == 99 { return .tab }
        if index % 20 == 10 { return .pageDown }
        return index % 3 == 2 ? .up : .down
    }

    func run(environment: [String: String]) throws -> Outcome {
        let first = try FirstFrame.build(environment: environment, width: width, height: height)
        var state = first.state
        var previous = first.frame
        let store = try LibraryStore(file: LibraryPaths.fromEnvironment(environment).databaseFile)
        defer { store.close() }
        let loader = LibraryLoader(store: store)
        var outcome = Outcome()
        var totalChanges = 0
        for index in 0..<keypresses {
            let key = Self.key(at: index)
            let start = MonotonicClock.now()
            let effects = AppUpdate.update(&state, .keyPressed(key))
            let updated = MonotonicClock.now()
            let frame = AppView.render(state, theme: first.theme)
            let rendered = MonotonicClock.now()
            let changes = BufferDiff.changes(from: previous, to: frame)
            let end = MonotonicClock.now()
            let seconds = MonotonicClock.seconds(from: start, to: end)
            previous = frame
            totalChanges += changes.count
            outcome.times.append(seconds)
            outcome.stages["update", default: []].append(MonotonicClock.seconds(from: start, to: updated))
            outcome.stages["render", default: []].append(MonotonicClock.seconds(from: updated, to: rendered))
            outcome.stages["diff", default: []].append(MonotonicClock.seconds(from: rendered, to: end))
            outcome.byKey[key.label, default: []].append(seconds)
            // What the runtime reads off the UI thread (windows of the shelf) arrives after the frame: not timed.
            if effects.contains(where: { if case .loadIssues = $0 { true } else { false } }) {
                try loader.settle(effects, into: &state)
                previous = AppView.render(state, theme: first.theme)
            }
        }
        outcome.meanChanges = Double(totalChanges) / Double(keypresses)
        return outcome
    }
}
