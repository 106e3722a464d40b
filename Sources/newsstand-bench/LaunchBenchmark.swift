import Foundation
import NewsstandCore

/// Case `launch`: the real `newsstand` program (the release binary beside this one) launched in a real
/// terminal, timed from spawn to its first complete shelf frame, with its peak memory then; beside a
/// minimal ncurses program (the floor: what any curses program pays in the same harness) and newsboat
/// (when installed) reading the same feeds.
///
/// Two libraries: 10 and 1,000 RSS feeds of 50 dated items with enclosures (500 and 50,000 issues), served
/// by `LocalHTTPServer` on 127.0.0.1. Newsstand gets them through `newsstand import FILE.opml` and
/// `newsstand sync --quiet` in a throwaway HOME/XDG tree; newsboat through `newsboat -x reload` into its
/// own cache. Then every program is launched in tmux by `TmuxLaunchHarness`, once to warm up and
/// `runs` times more, the programs taking turns so that a slow moment of the machine is shared out.
///
/// "Complete" means: for Newsstand, the header shows the first publication's tab and the shelf its
/// newest issue with `TAP TO DOWNLOAD` beneath (both read back from the library, in the order the
/// header uses, and checked against what was served); for newsboat, the first feed's title in its
/// feed list; for the floor, its one line. At launch Newsstand also starts its usual background
/// refresh of every feed (answered 304 by the local server); newsboat is configured not to refresh.
/// Each launch ends as a closed terminal ends it (SIGHUP), so each keeps its shelf for the next (`LastShelf`),
/// as in use; the rows "nothing kept" remove it before every launch (a first start, or a library changed since).
/// With `NEWSSTAND_BENCH_SHOW_FRAMES=1`, the frame each program was accepted on is printed to standard error.
struct LaunchBenchmark {
    var runs = 11
    var width = 120
    var height = 40
    var itemsPerFeed = 50
    var feedCounts = [10, 1_000]

    /// Targets for Newsstand, shown beside the figures (never asserted).
    static let targetScaleRatio = 1.5
    /// Issue #21: under twice the minimal ncurses program at both sizes (it was 3× before).
    static let targetFloorRatio = 2.0
    static let targetPeakBytes = 40 * 1_048_576

    private struct Subject {
        let label: String
        let program: TmuxLaunchHarness.Program
        let isComplete: (String) -> Bool
        var beforeLaunch: () -> Void = {}
    }

    func run() throws {
        var table = ResultTable(title: "Launch in a real terminal: tmux \(width)×\(height), spawn → first complete frame; \(itemsPerFeed)-item RSS feeds from 127.0.0.1")
        guard ChildProcess.which("tmux") != nil else {
            table.note("tmux is not installed (make setup installs it); skipped")
            return table.print()
        }
        let newsstand = Self.newsstandExecutable
        guard FileManager.default.isExecutableFile(atPath: newsstand.path) else {
            table.note("\(newsstand.path) not found: build it first with `swift build -c release --product newsstand` (make bench does); skipped")
            return table.print()
        }
        let folder = try TemporaryFolder(prefix: "newsstand-bench-launch")
        defer { folder.remove() }
        let feeds = FeedLibraryServer()
        try feeds.start()
        defer { feeds.stop() }
        let sets = feedCounts.map { feeds.serve(folder: "feeds-\($0)", feedCount: $0, itemsPerFeed: itemsPerFeed) }
        let harness = try TmuxLaunchHarness(folder: folder.url.appendingPathComponent("tmux"), width: width, height: height)
        defer { harness.stop() }

        // The floor.
        var floor: Subject?
        do {
            let (executable, compiler) = try MinimalCursesProgram.build(in: folder.url)
            floor = Subject(label: "minimal ncurses program (\(compiler) -lncursesw)",
                            program: .init(executable: executable, arguments: [MinimalCursesProgram.line],
                                           environment: ["HOME": folder.url.path], workingDirectory: folder.url),
                            isComplete: { $0.contains(MinimalCursesProgram.line) })
        } catch {
            table.note("minimal ncurses program not built: \(error); no floor")
        }

        // Newsstand: import and sync each library with the real binary.
        var newsstandSubjects: [Subject] = []
        for set in sets {
            progress("newsstand import + sync --quiet of \(Format.count(set.feedCount)) feeds (\(Format.count(set.issueCount)) issues)")
            let (subject, row) = try prepareNewsstand(set, executable: newsstand, root: folder.url.appendingPathComponent("newsstand-\(set.feedCount)"))
            newsstandSubjects.append(subject)
            table.add("newsstand import + sync, \(Format.count(set.issueCount)) issues", runs: 1, median: Format.duration(row.total), notes: row.notes)
        }

        // newsboat: the same feeds into its cache.
        var newsboatSubjects: [Subject] = []
        if let newsboat = ChildProcess.which("newsboat") {
            for set in sets {
                progress("newsboat -x reload of \(Format.count(set.feedCount)) feeds")
                let (subject, seconds) = try prepareNewsboat(set, executable: URL(fileURLWithPath: newsboat),
                                                             root: folder.url.appendingPathComponent("newsboat-\(set.feedCount)"))
                newsboatSubjects.append(subject)
                table.add("newsboat -x reload, \(Format.count(set.issueCount)) items", runs: 1, median: Format.duration(seconds),
                          notes: "\(Format.count(set.feedCount)) feeds into a new cache (default reload-threads 1)")
            }
        } else {
            table.note("newsboat is not installed (apt-get install newsboat; make bench installs it): no comparison")
        }

        // The default theme, `auto`, on the smaller library: inside tmux it draws the shelf kept after the last answers while
        // tmux is asked whether the questions may pass.
        let autoTheme = try newsstandSubjects.first.map(Self.autoThemeSubject)

        // The same launches with no shelf kept by the last run (`LastShelf`): a first start, or a library changed since.
        let nothingKept = newsstandSubjects.map(Self.nothingKeptSubject)

        // Launches: one warm-up each (files into the page cache), then `runs` rounds, programs taking turns.
        let subjects = (floor.map { [$0] } ?? []) + newsstandSubjects + newsboatSubjects + (autoTheme.map { [$0] } ?? []) + nothingKept
        progress("launching \(subjects.count) programs in tmux: 1 warm-up + \(runs) runs each, taking turns")
        var launches = [[TmuxLaunchHarness.Launch]](repeating: [], count: subjects.count)
        let showFrames = !(ProcessInfo.processInfo.environment["NEWSSTAND_BENCH_SHOW_FRAMES"] ?? "").isEmpty
        for round in 0...runs {
            for (index, subject) in subjects.enumerated() {
                subject.beforeLaunch()
                let launch = try harness.launch(subject.program, until: subject.isComplete)
                if round > 0 { launches[index].append(launch) }
                if round == 1 && showFrames {
                    FileHandle.standardError.write(Data("--- \(subject.label): the frame accepted as complete (pid \(launch.pid), \(launch.polls) captures)\n\(launch.screen)\n".utf8))
                }
            }
        }
        var remaining = launches[...]
        func take(_ count: Int) -> [[TmuxLaunchHarness.Launch]] {
            defer { remaining = remaining.dropFirst(count) }
            return Array(remaining.prefix(count))
        }
        let floorLaunches = floor == nil ? nil : take(1).first
        let newsstandLaunches = take(sets.count)
        let newsboatLaunches = newsboatSubjects.isEmpty ? nil : take(newsboatSubjects.count)
        let autoThemeLaunches = autoTheme == nil ? nil : take(1).first
        let nothingKeptLaunches = take(nothingKept.count)

        // Time to the first complete frame.
        if let floorLaunches, let floor {
            addTimes(&table, floor.label, floorLaunches, notes: "its one line visible; the floor of this harness")
        }
        for (set, samples) in zip(sets, newsstandLaunches) {
            addTimes(&table, "newsstand, \(Format.count(set.issueCount)) issues", samples,
                     notes: "header tab “\(set.firstFeedTitle)” + first row “\(set.newestItemOfFirstFeed)” + TAP TO DOWNLOAD")
        }
        let newsstandMedians = newsstandLaunches.map { Statistics($0.map(\.seconds)).median }
        if let small = newsstandMedians.first, let large = newsstandMedians.last, sets.count > 1 {
            let ratio = large / small
            table.add("  \(Format.count(sets.last!.issueCount)) / \(Format.count(sets.first!.issueCount)) issues", runs: nil, median: Format.ratio(ratio),
                      notes: "ratio of medians; target ≤ \(Format.ratio(Self.targetScaleRatio)): \(Self.verdict(ratio <= Self.targetScaleRatio))")
        }
        if let floorLaunches {
            let floorMedian = Statistics(floorLaunches.map(\.seconds)).median
            var everySizeMet = true
            for (set, median) in zip(sets, newsstandMedians) {
                let ratio = median / floorMedian
                everySizeMet = everySizeMet && ratio < Self.targetFloorRatio
                table.add("  newsstand / minimal ncurses, \(Format.count(set.issueCount))", runs: nil, median: Format.ratio(ratio),
                          notes: "target < \(Format.ratio(Self.targetFloorRatio)): \(Self.verdict(ratio < Self.targetFloorRatio))")
            }
            table.note("newsstand under \(Format.ratio(Self.targetFloorRatio)) the minimal ncurses program at "
                       + "\(sets.map { Format.count($0.issueCount) }.joined(separator: " and ")) issues: \(Self.verdict(everySizeMet)) "
                       + "(each start draws the shelf the last one kept; the rows 'nothing kept' below start without it)")
            for (set, samples) in zip(sets, nothingKeptLaunches) {
                let median = Statistics(samples.map(\.seconds)).median
                addTimes(&table, "newsstand, \(Format.count(set.issueCount)) issues, nothing kept", samples,
                         notes: "the last run's shelf removed before each launch (a first start, or the library changed since): read from the library")
                table.add("  newsstand, nothing kept / minimal ncurses, \(Format.count(set.issueCount))", runs: nil,
                          median: Format.ratio(median / floorMedian), notes: "shown, not a target")
            }
            if let autoThemeLaunches, let set = sets.first {
                let median = Statistics(autoThemeLaunches.map(\.seconds)).median
                addTimes(&table, "newsstand, \(Format.count(set.issueCount)) issues, --theme auto", autoThemeLaunches,
                         notes: "the default theme: inside tmux the shelf kept after the last answers is drawn while tmux is asked whether the questions may pass; on a copy of the library")
                table.add("  newsstand --theme auto / minimal ncurses, \(Format.count(set.issueCount))", runs: nil,
                          median: Format.ratio(median / floorMedian), notes: "shown, not a target")
            }
        }
        if let newsboatLaunches {
            for (set, samples) in zip(sets, newsboatLaunches) {
                addTimes(&table, "newsboat, \(Format.count(set.issueCount)) items", samples,
                         notes: "“\(set.firstFeedTitle)” in its feed list; \(Format.count(set.feedCount)) feeds from its cache")
            }
            for (set, (ours, theirs)) in zip(sets, zip(newsstandMedians, newsboatLaunches)) {
                let ratio = ours / Statistics(theirs.map(\.seconds)).median
                table.add("  newsstand / newsboat, \(Format.count(set.issueCount))", runs: nil, median: Format.ratio(ratio), notes: "ratio of medians")
            }
        }

        // Peak memory at that moment.
        if let floorLaunches, let floor {
            addPeaks(&table, "peak RSS, \(floor.label)", floorLaunches, notes: "")
        }
        for (set, samples) in zip(sets, newsstandLaunches) {
            let median = Statistics(samples.map { Double($0.peakResidentBytes) }).median
            let target = set.issueCount == sets.last!.issueCount
                ? "target < \(Format.megabytes(Double(Self.targetPeakBytes))): \(Self.verdict(median < Double(Self.targetPeakBytes)))" : ""
            addPeaks(&table, "peak RSS, newsstand, \(Format.count(set.issueCount)) issues", samples, notes: target)
        }
        if let newsboatLaunches {
            for (set, samples) in zip(sets, newsboatLaunches) {
                addPeaks(&table, "peak RSS, newsboat, \(Format.count(set.issueCount)) items", samples, notes: "")
            }
            for (set, (ours, theirs)) in zip(sets, zip(newsstandLaunches, newsboatLaunches)) {
                let ratio = Statistics(ours.map { Double($0.peakResidentBytes) }).median / Statistics(theirs.map { Double($0.peakResidentBytes) }).median
                table.add("  newsstand / newsboat RSS, \(Format.count(set.issueCount))", runs: nil, median: Format.ratio(ratio), notes: "ratio of medians")
            }
        }

        let all = launches.joined()
        let period = Statistics(all.filter { $0.polls > 1 }.map(\.pollPeriod).nonEmpty ?? [0])
        table.note("spawn = CLOCK_MONOTONIC just before posix_spawn of `tmux new-session -d -x \(width) -y \(height) PROGRAM ARGS…` (private server, TERM=\(harness.terminalName)); "
            + "visible = end of the reply to the first `capture-pane -p` showing the complete frame, asked through one tmux control-mode client (no process per capture) every \(Format.milliseconds(period.median)) (median), so each figure is late by up to that.")
        table.note("RSS = VmHWM of #{pane_pid} read when the frame was seen; the pane's /proc/PID/exe is checked to be the program itself (run by tmux without a shell).")
        table.note("median of \(runs) launches each after one warm-up, the programs taking turns; min in the notes. Newsstand runs its usual background refresh of every feed at launch (304s from 127.0.0.1); newsboat has refresh-on-startup no.")
        table.note("binary: \(newsstand.path) (release when this is a release build; `make bench` builds it).")
        table.print()
        try Self.runStartupRows()
    }

    /// The start-up rows (`StartupRows`) as a table of their own.
    static func runStartupRows() throws {
        var table = ResultTable(title: "Start-up: spawn → main against a static Swift hello; the terminal's questions on a pseudo-terminal")
        let newsstand = newsstandExecutable
        guard FileManager.default.isExecutableFile(atPath: newsstand.path) else {
            table.note("\(newsstand.path) not found: build it first with `swift build -c release --product newsstand` (make bench does); skipped")
            return table.print()
        }
        let folder = try TemporaryFolder(prefix: "newsstand-bench-startup")
        defer { folder.remove() }
        StartupRows().add(to: &table, newsstand: newsstand, folder: folder.url)
        table.note("spawn → exit: CLOCK_MONOTONIC before posix_spawn to waitpid's return, output to a pipe; median of \(StartupRows().runs) each after one warm-up, taking turns.")
        table.note("pty: spawn to the read that brings `TAP TO DOWNLOAD`; answers are written when DA1 (`ESC [ c`) is seen: XTVERSION XTerm(379), OSC 11 black, DA1.")
        table.note("binary: \(newsstand.path)")
        table.print()
    }

    // MARK: Preparation

    /// `newsstand import` and `newsstand sync --quiet` into a new library under `root`, then what the
    /// first frame must show, read back from the library in the header's order.
    private func prepareNewsstand(_ set: FeedLibraryServer.FeedSet, executable: URL, root: URL) throws -> (Subject, (total: Double, notes: String)) {
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        var environment = FirstFrame.environment(root: root)
        // No bundled sample subscribed on the first run: the library holds exactly the served feeds.
        environment["NEWSSTAND_SAMPLE_LIBRARY"] = "/nonexistent"
        if let themes = RepositoryResources.themes { environment["NEWSSTAND_THEMES"] = themes.path }
        let opml = root.appendingPathComponent("feeds.opml")
        try Data(set.opml().utf8).write(to: opml)
        let commandEnvironment = environment.merging(["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "LANG": "C.UTF-8"]) { $1 }

        let imported = try ChildProcess.run(executable.path, ["import", opml.path], environment: commandEnvironment)
        guard imported.status == 0 else { throw ChildProcess.Failure(description: "newsstand import failed (status \(imported.status)): \(imported.output)") }
        let synced = try ChildProcess.run(executable.path, ["sync", "--quiet"], environment: commandEnvironment)
        guard synced.status == 0 else { throw ChildProcess.Failure(description: "newsstand sync failed (status \(synced.status)): \(synced.output)") }
        let importSeconds = MonotonicClock.seconds(from: imported.spawnedAt, to: imported.exitedAt)
        let syncSeconds = MonotonicClock.seconds(from: synced.spawnedAt, to: synced.exitedAt)

        // The header's tabs are `store.publications()` in order; the shelf lists the first one's issues newest first.
        let paths = LibraryPaths.fromEnvironment(environment)
        let store = try LibraryStore(file: paths.databaseFile)
        defer { store.close() }
        let publications = try store.publications()
        let issueCount = try store.allIssues().count
        guard publications.count == set.feedCount, issueCount == set.issueCount, let first = publications.first,
              let newest = try store.issues(publicationID: first.id).first else {
            throw ChildProcess.Failure(description: "the imported library has \(publications.count) publications and \(issueCount) issues, not \(set.feedCount) and \(set.issueCount)")
        }
        guard first.title == set.firstFeedTitle, newest.title == set.newestItemOfFirstFeed, newest.state == .notDownloaded, newest.isDownloadable else {
            throw ChildProcess.Failure(description: "the shelf would open on “\(first.title)” / “\(newest.title)” (\(newest.state)), not the first feed's newest issue “\(set.newestItemOfFirstFeed)”")
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: paths.databaseFile.path)[.size] as? Int) ?? 0
        let subject = Subject(label: "newsstand, \(Format.count(set.issueCount)) issues",
                              // A fixed theme, as the launch case has always been measured (and an argument, so that tmux runs the
                              // program directly, without a shell); the default `auto` gets a row of its own (`autoThemeSubject`).
                              program: .init(executable: executable, arguments: ["--theme", "dark"], environment: environment, workingDirectory: root),
                              isComplete: { Self.isShelfComplete($0, publication: first.title, firstIssue: newest.title) })
        let notes = "import \(Format.duration(importSeconds)) (\(imported.output.trimmingCharacters(in: .whitespacesAndNewlines))), "
            + "sync --quiet \(Format.duration(syncSeconds)); \(Format.megabytes(Double(size))) database"
        return (subject, (importSeconds + syncSeconds, notes))
    }

    /// `subject` started each time without the shelf its last run kept (the cache's `last-shelf-*` files removed first).
    private static func nothingKeptSubject(_ subject: Subject) -> Subject {
        let cache = LibraryPaths.fromEnvironment(subject.program.environment).cacheDirectory
        return Subject(label: subject.label + ", nothing kept", program: subject.program, isComplete: subject.isComplete, beforeLaunch: {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: cache.path)) ?? [] where name.hasPrefix("last-shelf-") {
                try? FileManager.default.removeItem(at: cache.appendingPathComponent(name))
            }
        })
    }

    /// `subject` with the theme following the terminal's background, the default, on a copy of its folder (library,
    /// settings, cache): the "nothing kept" launches remove every shelf kept in theirs, which would leave this one
    /// none either, every time.
    private static func autoThemeSubject(_ subject: Subject) throws -> Subject {
        let program = subject.program
        let root = program.workingDirectory
        let copy = root.deletingLastPathComponent().appendingPathComponent(root.lastPathComponent + "-auto")
        try? FileManager.default.removeItem(at: copy)
        try FileManager.default.copyItem(at: root, to: copy)
        let environment = program.environment.mapValues { $0.hasPrefix(root.path) ? copy.path + $0.dropFirst(root.path.count) : $0 }
        return Subject(label: subject.label + ", --theme auto",
                       program: .init(executable: program.executable, arguments: ["--theme", "auto"], environment: environment, workingDirectory: copy),
                       isComplete: subject.isComplete)
    }

    /// A newsboat `urls` file, a config that does not refresh on start-up, and a cache filled by `-x reload`.
    private func prepareNewsboat(_ set: FeedLibraryServer.FeedSet, executable: URL, root: URL) throws -> (Subject, Double) {
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let urls = root.appendingPathComponent("urls")
        let cache = root.appendingPathComponent("cache.db")
        let config = root.appendingPathComponent("config")
        try Data(set.newsboatURLs().utf8).write(to: urls)
        try Data("refresh-on-startup no\nauto-reload no\nconfirm-exit no\nshow-read-feeds yes\n".utf8).write(to: config)
        let environment = FirstFrame.environment(root: root)
        let arguments = ["-u", urls.path, "-c", cache.path, "-C", config.path]
        let commandEnvironment = environment.merging(["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "LANG": "C.UTF-8"]) { $1 }
        let reloaded = try ChildProcess.run(executable.path, arguments + ["-x", "reload"], environment: commandEnvironment)
        guard reloaded.status == 0, FileManager.default.fileExists(atPath: cache.path) else {
            throw ChildProcess.Failure(description: "newsboat -x reload failed (status \(reloaded.status)): \(reloaded.output)")
        }
        let lock = root.appendingPathComponent("cache.db.lock")
        let subject = Subject(label: "newsboat, \(Format.count(set.issueCount)) items",
                              program: .init(executable: executable, arguments: arguments, environment: environment, workingDirectory: root),
                              isComplete: { $0.contains(set.firstFeedTitle) },
                              // A killed newsboat leaves its lock behind.
                              beforeLaunch: { try? FileManager.default.removeItem(at: lock) })
        return (subject, MonotonicClock.seconds(from: reloaded.spawnedAt, to: reloaded.exitedAt))
    }

    // MARK: Helpers

    /// The shelf's first complete frame: the header with the first publication's tab, and its newest
    /// issue's row with the state line beneath the title (the row is 9 lines tall at this size).
    static func isShelfComplete(_ screen: String, publication: String, firstIssue: String) -> Bool {
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
        guard let header = lines.first, header.contains(" NEWSSTAND "),
              header.contains(" \(publication) ") || header.hasSuffix(" \(publication)") else { return false }
        guard let row = lines.indices.dropFirst().first(where: { lines[$0].contains(firstIssue) }) else { return false }
        return lines[row..<min(lines.count, row + 10)].contains { $0.contains("TAP TO DOWNLOAD") }
    }

    /// `newsstand` beside this executable (`.build/release/newsstand` for a release build), or `NEWSSTAND_BINARY`.
    static var newsstandExecutable: URL {
        if let path = ProcessInfo.processInfo.environment["NEWSSTAND_BINARY"], !path.isEmpty { return URL(fileURLWithPath: path) }
        return URL(fileURLWithPath: ChildProcess.currentExecutable).deletingLastPathComponent().appendingPathComponent("newsstand")
    }

    private static func verdict(_ met: Bool) -> String { met ? "met" : "NOT met" }

    private func addTimes(_ table: inout ResultTable, _ name: String, _ launches: [TmuxLaunchHarness.Launch], notes: String) {
        let statistics = Statistics(launches.map(\.seconds))
        table.add(name, runs: statistics.count, median: Format.duration(statistics.median), max: Format.duration(statistics.max),
                  notes: "min \(Format.duration(statistics.min)); " + notes)
    }

    private func addPeaks(_ table: inout ResultTable, _ name: String, _ launches: [TmuxLaunchHarness.Launch], notes: String) {
        let statistics = Statistics(launches.map { Double($0.peakResidentBytes) })
        table.add(name, runs: statistics.count, median: Format.megabytes(statistics.median), max: Format.megabytes(statistics.max),
                  notes: "min \(Format.megabytes(statistics.min))" + (notes.isEmpty ? "" : "; " + notes))
    }
}

private extension Array {
    var nonEmpty: Self? { isEmpty ? nil : self }
}
