import Foundation
import LocalHTTPServer
import NewsstandCore
import NewsstandRuntime
import NewsstandUI
import Synchronization

/// Case `downloads`: Newsstand's own downloads against `curl`, and how the UI loop copes meanwhile.
///
/// EPUB-shaped files (a sample issue with a large stored, uncompressed media entry of random bytes, made
/// with python3's zipfile) are served by a `LocalHTTPServer` on 127.0.0.1 (unthrottled, then once at
/// 100 MB/s) and fetched through the real `DownloadQueue` (transfer, then install: verify, unzip, sync,
/// rename) and by `curl` into a file, alternately, in the same run; bare URLSession tasks, bare `HTTPClient`
/// transfers (libcurl driven directly) and curl into /dev/null show the floor of each with nothing written. The UI part drives `AppUpdate.update`, `AppView.render`
/// and `BufferDiff` on a serial queue standing in for the main loop, with the queue's events forwarded
/// into it as messages, and a keypress injected every 10 ms.
struct DownloadBenchmark {
    var singleMegabytes = 200
    var concurrentMegabytes = 50
    var concurrentCount = 4
    /// The server's pace for the comparison over a link slower than loopback.
    var linkMegabytesPerSecond = 100
    var runs = 3
    var idleKeypresses = 300
    var width = 120
    var height = 40

    func run() throws {
        var table = ResultTable(title: "Downloads: DownloadQueue and curl ← LocalHTTPServer on 127.0.0.1")
        guard let sample = RepositoryResources.sampleLibrary?.appendingPathComponent("issues/2025-autumn.epub"),
              FileManager.default.fileExists(atPath: sample.path) else {
            table.note("SampleLibrary/issues/2025-autumn.epub not found (set NEWSSTAND_SAMPLE_LIBRARY); skipped")
            return table.print()
        }
        guard let python = ChildProcess.which("python3") else {
            table.note("python3 not installed (it makes the padded EPUBs); skipped")
            return table.print()
        }
        let curl = ChildProcess.which("curl")
        let folder = try TemporaryFolder(prefix: "newsstand-bench-downloads")
        defer { folder.remove() }
        let www = folder.url.appendingPathComponent("www", isDirectory: true)
        try FileManager.default.createDirectory(at: www, withIntermediateDirectories: true)

        progress("making a \(singleMegabytes) MB EPUB and \(concurrentCount) of \(concurrentMegabytes) MB")
        let big = www.appendingPathComponent("big.epub")
        try Self.makePaddedEPUB(python: python, from: sample, to: big, megabytes: singleMegabytes)
        let parts = try (1...concurrentCount).map { index -> URL in
            let part = www.appendingPathComponent("part-\(index).epub")
            try Self.makePaddedEPUB(python: python, from: sample, to: part, megabytes: concurrentMegabytes)
            return part
        }

        let server = LocalHTTPServer(root: www)
        try server.start()
        defer { server.stop() }
        /// Where the server serves a file of `www`.
        func served(_ file: URL) -> URL { server.url(for: "/" + file.lastPathComponent) }
        let paths = LibraryPaths.fromEnvironment(FirstFrame.environment(root: folder.url.appendingPathComponent("library")))
        try paths.createDirectories()
        let store = try LibraryStore(file: paths.databaseFile)
        defer { store.close() }
        let publication = try store.addPublication(title: "Benchmark Monthly", feedURL: server.url(for: "/catalog.plist"))
        let recorder = DownloadRecorder()
        let queue = DownloadQueue(store: store, paths: paths, policy: DownloadPolicy(maxConcurrent: concurrentCount)) { recorder.record($0) }
        var names = 0
        func addIssues(_ files: [URL]) throws -> [Issue] {
            let entries = files.map { file -> CatalogEntry in
                names += 1
                return CatalogEntry(name: "issue-\(names)", title: "Issue \(names) (\(file.lastPathComponent))", date: Date(timeIntervalSince1970: Double(1_700_000_000 + names * 86_400)),
                                    coverURL: nil, contentURLs: [served(file)], expectedSize: ((try? FileManager.default.attributesOfItem(atPath: file.path))?[.size] as? NSNumber)?.int64Value)
            }
            let stored = try store.upsertIssues(entries, publicationID: publication.id)
            return entries.compactMap { entry in stored.first { $0.name == entry.name } }
        }
        /// Downloads and installs the issues; (transfer wall time, install wall time after the last transfer, all installed).
        func download(_ issues: [Issue]) throws -> (transfer: Double, lastInstall: Double, total: Double) {
            recorder.reset()
            let start = MonotonicClock.now()
            issues.forEach { queue.enqueue(issueID: $0.id) }
            let outcome = try recorder.wait(for: Set(issues.map(\.id)))
            let transferred = outcome.installing.values.max() ?? start
            let installed = outcome.installed.values.max() ?? start
            for issue in issues { try? FileManager.default.removeItem(at: paths.folder(for: issue, of: publication)) }
            return (MonotonicClock.seconds(from: start, to: transferred), MonotonicClock.seconds(from: transferred, to: installed),
                    MonotonicClock.seconds(from: start, to: installed))
        }
        /// curl fetching `files` at once into files in the same folder, or into /dev/null when `discarding`.
        func curlFetch(_ files: [URL], discarding: Bool = false) throws -> Double? {
            guard let curl else { return nil }
            var arguments = ["-s", "-f"]
            if files.count > 1 { arguments += ["-Z", "--parallel-max", String(files.count)] }
            for (index, file) in files.enumerated() {
                let output = discarding ? "/dev/null" : folder.url.appendingPathComponent("curl-\(index).out").path
                arguments += ["-o", output, served(file).absoluteString]
            }
            let outcome = try ChildProcess.run(curl, arguments, quiet: true)
            guard outcome.status == 0 else { throw ChildProcess.Failure(description: "curl failed with status \(outcome.status)") }
            for index in files.indices { try? FileManager.default.removeItem(at: folder.url.appendingPathComponent("curl-\(index).out")) }
            return MonotonicClock.seconds(from: outcome.spawnedAt, to: outcome.exitedAt)
        }

        // One large download.
        progress("1 × \(singleMegabytes) MB, \(runs) times each through DownloadQueue and curl")
        var single: [(transfer: Double, lastInstall: Double, total: Double)] = []
        var singleCurl: [Double] = []
        var floor: [Double] = []
        var clientFloor: [Double] = []
        var floorCurl: [Double] = []
        for _ in 0..<runs {
            single.append(try download(try addIssues([big])))
            if let time = try curlFetch([big]) { singleCurl.append(time) }
            floor.append(try URLSessionFloor.fetch([served(big)]))
            clientFloor.append(try HTTPClientFloor.fetch([served(big)]))
            if let time = try curlFetch([big], discarding: true) { floorCurl.append(time) }
        }
        addThroughputRows(&table, label: "1 × \(singleMegabytes) MB", megabytes: Double(singleMegabytes), ours: single, curl: singleCurl)
        addFloorRows(&table, label: "1 × \(singleMegabytes) MB", megabytes: Double(singleMegabytes), floor: floor, clientFloor: clientFloor, curl: floorCurl)

        // The same over a link slower than loopback: the server paces itself.
        progress("1 × \(singleMegabytes) MB from a server sending \(linkMegabytesPerSecond) MB/s, \(runs) times each")
        server.bytesPerSecond = linkMegabytesPerSecond << 20
        var paced: [(transfer: Double, lastInstall: Double, total: Double)] = []
        var pacedCurl: [Double] = []
        for _ in 0..<runs {
            paced.append(try download(try addIssues([big])))
            if let time = try curlFetch([big]) { pacedCurl.append(time) }
        }
        server.bytesPerSecond = nil
        addThroughputRows(&table, label: "1 × \(singleMegabytes) MB at \(linkMegabytesPerSecond) MB/s", megabytes: Double(singleMegabytes),
                          ours: paced, curl: pacedCurl, withInstall: false)

        // Several at once.
        progress("\(concurrentCount) × \(concurrentMegabytes) MB at once, \(runs) times each through DownloadQueue and curl -Z")
        var concurrent: [(transfer: Double, lastInstall: Double, total: Double)] = []
        var concurrentCurl: [Double] = []
        var concurrentFloor: [Double] = []
        var concurrentClientFloor: [Double] = []
        var concurrentFloorCurl: [Double] = []
        for _ in 0..<runs {
            concurrent.append(try download(try addIssues(parts)))
            if let time = try curlFetch(parts) { concurrentCurl.append(time) }
            concurrentFloor.append(try URLSessionFloor.fetch(parts.map(served)))
            concurrentClientFloor.append(try HTTPClientFloor.fetch(parts.map(served)))
            if let time = try curlFetch(parts, discarding: true) { concurrentFloorCurl.append(time) }
        }
        addThroughputRows(&table, label: "\(concurrentCount) × \(concurrentMegabytes) MB at once", megabytes: Double(concurrentCount * concurrentMegabytes),
                          ours: concurrent, curl: concurrentCurl)
        addFloorRows(&table, label: "\(concurrentCount) × \(concurrentMegabytes) MB at once", megabytes: Double(concurrentCount * concurrentMegabytes),
                     floor: concurrentFloor, clientFloor: concurrentClientFloor, curl: concurrentFloorCurl)
        if curl == nil { table.note("curl not installed: no comparison") }

        // The UI loop, idle and while four large downloads run.
        let theme = (try? ThemeLoader(searchDirectories: RepositoryResources.themes.map { [$0] } ?? []).load("dark")) ?? .fallback
        progress("\(idleKeypresses) keypresses every 10 ms with nothing downloading")
        let idle = try UILoop(store: store, theme: theme, width: width, height: height).run(keypresses: idleKeypresses, recorder: recorder) { nil }
        progress("keypresses every 10 ms while \(concurrentCount) × \(singleMegabytes) MB download")
        let busyIssues = try addIssues(Array(repeating: big, count: concurrentCount))
        let busy = try UILoop(store: store, theme: theme, width: width, height: height).run(keypresses: nil, recorder: recorder) {
            recorder.reset()
            busyIssues.forEach { queue.enqueue(issueID: $0.id) }
            return Set(busyIssues.map(\.id))
        }
        for issue in busyIssues { try? FileManager.default.removeItem(at: paths.folder(for: issue, of: publication)) }
        table.add("keypress handled, nothing downloading", Statistics(idle.handling), format: Format.microseconds, showP99: true,
                  notes: "update + render + BufferDiff on the UI queue (downloads screen, j/k), \(width)×\(height)")
        table.add("keypress handled, \(concurrentCount) downloads running", Statistics(busy.handling), format: Format.microseconds, showP99: true,
                  notes: "the same while \(concurrentCount) × \(singleMegabytes) MB download and install; \(busy.messages) download messages handled")
        table.add("  injected → frame ready, idle", Statistics(idle.latency), format: Format.microseconds, showP99: true,
                  notes: "includes waiting behind other messages on the UI queue")
        table.add("  injected → frame ready, downloading", Statistics(busy.latency), format: Format.microseconds, showP99: true,
                  notes: "includes waiting behind download messages and frames")
        table.note("files are EPUBs (a sample issue plus a stored, uncompressed media entry of random bytes); no SHA-256 in the catalog, sizes checked")
        table.note("transfer: enqueue → the last .installing event; install: verify, unzip with libarchive, fsync, rename, after the last transfer")
        table.note("at \(linkMegabytesPerSecond) MB/s: LocalHTTPServer paces its own sending, standing in for a link slower than loopback")
        table.note("curl writes to a file in the same folder (curl -s -f -o FILE; -Z --parallel-max N for several); its time includes starting curl")
        table.note("URLSession alone: one data task per file, each on its own session, whose delegate drops every chunk; FoundationNetworking hands libcurl's body over in chunks of at most 16 KB")
        table.note("bare HTTPClient: Newsstand's libcurl client (one multi handle on one thread, all files at once), its sink dropping every byte")
        table.print()
    }

    private func addThroughputRows(_ table: inout ResultTable, label: String, megabytes: Double,
                                   ours: [(transfer: Double, lastInstall: Double, total: Double)], curl: [Double], withInstall: Bool = true) {
        let transfer = Statistics(ours.map(\.transfer))
        var notes = String(format: "%.0f MB/s at the median", megabytes / transfer.median)
        if !curl.isEmpty {
            let curlMedian = Statistics(curl).median
            notes += String(format: "; ours ÷ curl = %@ (target ≤ 1.10×)", Format.ratio(transfer.median / curlMedian))
        }
        table.add("\(label), DownloadQueue transfer", transfer, notes: notes)
        if withInstall {
            table.add("  install after the last transfer", Statistics(ours.map(\.lastInstall)), notes: "verify sizes, unzip, sync, rename into place")
            table.add("  enqueue → all installed", Statistics(ours.map(\.total)),
                      notes: String(format: "%.0f MB/s at the median, end to end", megabytes / Statistics(ours.map(\.total)).median))
        }
        if !curl.isEmpty {
            let statistics = Statistics(curl)
            table.add("\(label), curl", statistics, notes: String(format: "%.0f MB/s at the median", megabytes / statistics.median))
        }
    }

    /// URLSession and HTTPClient with nothing done to the bytes, next to curl with nothing done to them either:
    /// the lowest ratio a download through each can reach here.
    private func addFloorRows(_ table: inout ResultTable, label: String, megabytes: Double, floor: [Double], clientFloor: [Double],
                              curl: [Double]) {
        for (name, times) in [("URLSession alone", floor), ("bare HTTPClient (drop every byte)", clientFloor)] {
            let statistics = Statistics(times)
            var notes = String(format: "%.0f MB/s at the median", megabytes / statistics.median)
            if !curl.isEmpty { notes += "; ÷ curl to /dev/null = " + Format.ratio(statistics.median / Statistics(curl).median) }
            table.add("\(label), \(name)", statistics, notes: notes + " (bytes dropped)")
        }
        if !curl.isEmpty {
            let curlStatistics = Statistics(curl)
            table.add("\(label), curl -o /dev/null", curlStatistics, notes: String(format: "%.0f MB/s at the median", megabytes / curlStatistics.median))
        }
    }

    /// Copies a sample EPUB and appends a stored (uncompressed) entry of `megabytes` random bytes.
    static func makePaddedEPUB(python: String, from sample: URL, to destination: URL, megabytes: Int) throws {
        let script = """
            import os, shutil, sys, zipfile
            source, target, megabytes = sys.argv[1], sys.argv[2], int(sys.argv[3])
            shutil.copyfile(source, target)
            with zipfile.ZipFile(target, "a", compression=zipfile.ZIP_STORED) as archive:
                with archive.open("EPUB/media/padding.bin", "w") as entry:
                    for _ in range(megabytes):
                        entry.write(os.urandom(1 << 20))
            """
        let outcome = try ChildProcess.run(python, ["-c", script, sample.path, destination.path, String(megabytes)])
        guard outcome.status == 0 else { throw ChildProcess.Failure(description: "python3 could not make \(destination.lastPathComponent)") }
    }
}

/// Download events with the time they arrived, and a way to wait for issues to finish.
final class DownloadRecorder: Sendable {
    struct Outcome {
        var installing: [Int64: UInt64] = [:]
        var installed: [Int64: UInt64] = [:]
        var failed: [Int64: String] = [:]
    }

    private let state = Mutex((outcome: Outcome(), forward: (@Sendable (DownloadEvent) -> Void)?.none))
    /// Wakes `wait(for:)`; held while an event is recorded, so the waiter never misses one.
    private let arrivals = NSCondition()

    func record(_ event: DownloadEvent) {
        let now = MonotonicClock.now()
        let forward = arrivals.withLock {
            let forward = state.withLock { state in
                switch event {
                case .installing(let id): state.outcome.installing[id] = now
                case .installed(let id): state.outcome.installed[id] = now
                case .failed(let id, let reason): state.outcome.failed[id] = reason
                default: break
                }
                return state.forward
            }
            arrivals.broadcast()
            return forward
        }
        forward?(event)
    }

    func reset() {
        state.withLock { $0.outcome = Outcome() }
    }

    /// Sends every event on to `forward` as well (nil: stop).
    func forward(to forward: (@Sendable (DownloadEvent) -> Void)?) {
        state.withLock { $0.forward = forward }
    }

    /// Waits until every issue is installed; throws if one fails or it takes over ten minutes.
    func wait(for ids: Set<Int64>) throws -> Outcome {
        let deadline = Date(timeIntervalSinceNow: 600)
        return try arrivals.withLock {
            var outcome: Outcome { state.withLock { $0.outcome } }
            while !ids.allSatisfy({ outcome.installed[$0] != nil || outcome.failed[$0] != nil }) {
                guard arrivals.wait(until: deadline) else { throw ChildProcess.Failure(description: "downloads did not finish in 10 minutes") }
            }
            let ended = outcome
            if let (id, reason) = ended.failed.first(where: { ids.contains($0.key) }) {
                throw ChildProcess.Failure(description: "download of issue \(id) failed: \(reason)")
            }
            return ended
        }
    }
}

/// A stand-in for the terminal's main loop: a serial queue that handles messages, draws once after a
/// burst (as `TerminalApp` does), and handles injected keypresses, timing each.
final class UILoop: Sendable {
    private let queue = DispatchQueue(label: "newsstand-bench.ui", qos: .userInteractive)
    private let theme: Theme
    /// Used only on `queue`.
    private let loop: Mutex<Loop>

    /// The interface's state, the last frame and the figures.
    private struct Loop {
        var state: AppState
        var previous: CellBuffer
        var isRenderScheduled = false
        var handling: [Double] = []
        var latency: [Double] = []
        var messages = 0
    }

    init(store: LibraryStore, theme: Theme, width: Int, height: Int) throws {
        self.theme = theme
        var state = AppState(width: width, height: height)
        try LibraryLoader(store: store).settle([.loadLibrary], into: &state)
        _ = AppUpdate.update(&state, .keyPressed(.character("D")))
        loop = Mutex(Loop(state: state, previous: AppView.render(state, theme: theme)))
    }

    /// Injects a keypress every 10 ms: `keypresses` of them, or, when nil, until the issues `start` enqueues are done.
    func run(keypresses: Int?, recorder: DownloadRecorder, start: () -> Set<Int64>?) throws -> (handling: [Double], latency: [Double], messages: Int) {
        recorder.forward { [self] event in queue.async { self.handle(.downloadReported(event)) } }
        defer { recorder.forward(to: nil) }
        let injected = DispatchSemaphore(value: 0)
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "newsstand-bench.keys"))
        let counter = KeyCounter()
        timer.schedule(deadline: .now() + .milliseconds(10), repeating: .milliseconds(10), leeway: .milliseconds(1))
        timer.setEventHandler { [self] in
            let at = MonotonicClock.now()
            let key: Key = counter.next() % 2 == 0 ? .down : .up
            queue.async { self.handleKey(key, injectedAt: at) }
            injected.signal()
        }
        let ids = start()
        timer.resume()
        if let keypresses {
            for _ in 0..<keypresses { injected.wait() }
        } else if let ids {
            _ = try recorder.wait(for: ids)
        }
        timer.cancel()
        queue.sync {}
        return queue.sync { loop.withLock { ($0.handling, $0.latency, $0.messages) } }
    }

    /// On `queue`.
    private func handle(_ message: Message) {
        let scheduleRender = loop.withLock { loop -> Bool in
            loop.messages += 1
            _ = AppUpdate.update(&loop.state, message)
            guard !loop.isRenderScheduled else { return false }
            loop.isRenderScheduled = true
            return true
        }
        guard scheduleRender else { return }
        queue.async { [self] in
            loop.withLock { loop in
                loop.isRenderScheduled = false
                let frame = AppView.render(loop.state, theme: theme)
                _ = BufferDiff.changes(from: loop.previous, to: frame)
                loop.previous = frame
            }
        }
    }

    /// On `queue`.
    private func handleKey(_ key: Key, injectedAt: UInt64) {
        loop.withLock { loop in
            let start = MonotonicClock.now()
            _ = AppUpdate.update(&loop.state, .keyPressed(key))
            let frame = AppView.render(loop.state, theme: theme)
            _ = BufferDiff.changes(from: loop.previous, to: frame)
            loop.previous = frame
            let end = MonotonicClock.now()
            loop.handling.append(MonotonicClock.seconds(from: start, to: end))
            loop.latency.append(MonotonicClock.seconds(from: injectedAt, to: end))
        }
    }
}

private final class KeyCounter: Sendable {
    private let count = Atomic(0)
    func next() -> Int { count.add(1, ordering: .relaxed).newValue }
}
