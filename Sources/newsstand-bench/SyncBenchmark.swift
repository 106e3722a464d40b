import Foundation
import LocalHTTPServer
import NewsstandCore

/// Case `sync`: a full sync of 1,000 subscriptions of 50 items from a local server (every feed fetched,
/// parsed and stored; no downloads), then three more syncs where every feed answers 304 Not Modified, and the
/// same conditional requests through `HTTPClient` alone; in the same run, `curl` making the same 1,000 conditional
/// requests (each feed's stored `If-None-Match` and `If-Modified-Since`, so both sides are answered 304) in one process and, when installed, `newsboat -x reload`. Target: the unchanged sync within 2× curl's time.
struct SyncBenchmark {
    var subscriptions = 1_000
    var itemsPerFeed = 50
    /// Runs of the unchanged sync (and of HTTPClient alone), as many as curl's.
    static let unchangedRuns = 3

    /// A curl config fetching each feed with the validators the library stored for it (`If-None-Match`,
    /// `If-Modified-Since`), its body to /dev/null, printing each status code.
    static func curlConfig(_ feeds: [(url: URL, validators: FetchValidators?)]) -> String {
        func quoted(_ text: String) -> String { "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\"" }
        return feeds.map { feed in
            var lines = ["url = \(quoted(feed.url.absoluteString))", "output = \"/dev/null\"", "write-out = \"%{http_code}\\n\""]
            if let etag = feed.validators?.etag { lines.append("header = \(quoted("If-None-Match: \(etag)"))") }
            if let date = feed.validators?.lastModified { lines.append("header = \(quoted("If-Modified-Since: \(date)"))") }
            return lines.joined(separator: "\n")
        }.joined(separator: "\nnext\n") + "\n"
    }

    func run() throws {
        var table = ResultTable(title: "Sync: \(Format.count(subscriptions)) subscriptions × \(itemsPerFeed) items from 127.0.0.1 (keep-alive)")
        let folder = try TemporaryFolder(prefix: "newsstand-bench-sync")
        defer { folder.remove() }
        let feeds = FeedLibraryServer()
        feeds.server.keepsConnectionsAlive = true
        try feeds.start()
        defer { feeds.stop() }
        let set = feeds.serve(folder: "sync", feedCount: subscriptions, itemsPerFeed: itemsPerFeed)
        let library = try DirectSyncLibrary(set, under: folder.url)
        defer { library.store.close() }
        let (store, downloads, sync) = (library.store, library.downloads, library.sync)
        progress("syncing \(Format.count(subscriptions)) subscriptions, cold and then unchanged \(Self.unchangedRuns) times")

        let connectionsBefore = feeds.server.connectionCount
        let (first, firstSeconds) = MonotonicClock.measure { sync.refreshAndQueue(into: downloads) }
        let issues = try store.issueCounts().values.reduce(0) { $0 + $1.total }
        let failures = first.filter { $0.outcome.problem != nil }.count
        table.add("first sync (cold)", runs: 1, median: Format.duration(firstSeconds),
                  notes: "\(Format.count(issues)) issues stored, \(failures) failed; \(Format.count(Int(Double(subscriptions) / firstSeconds))) feeds/s; "
                      + "\(feeds.server.connectionCount - connectionsBefore) connections")
        // As many runs as curl's row, so one disturbed run does not decide the ratio.
        var unchangedTimes: [Double] = []
        var unchanged: [Int] = []
        for _ in 0..<Self.unchangedRuns {
            let (reports, seconds) = MonotonicClock.measure { sync.refreshAndQueue(into: downloads) }
            unchangedTimes.append(seconds)
            unchanged.append(reports.filter(\.outcome.notModified).count)
        }
        let unchangedSync = Statistics(unchangedTimes)
        table.add("unchanged sync (conditional GET)", unchangedSync,
                  notes: "\(Set(unchanged).count == 1 ? Format.count(unchanged[0]) : unchanged.map(Format.count).joined(separator: ", ")) of "
                      + "\(Format.count(subscriptions)) answered 304 Not Modified in each; refresh times saved in batches")
        let feedsToFetch = try store.publications().map { (url: $0.feedURL, validators: try store.feedValidators(publicationID: $0.id)) }
        var floorTimes: [Double] = []
        var floorNotModified = 0
        for _ in 0..<Self.unchangedRuns {
            let (seconds, notModified) = try ConditionalFetchFloor.fetch(feedsToFetch)
            floorTimes.append(seconds)
            floorNotModified = notModified
        }
        table.add("  HTTPClient alone, the same requests", Statistics(floorTimes),
                  notes: "\(floorNotModified) answered 304; \(SyncService.concurrentRefreshes) threads, nothing read or written in the library")

        if let curl = ChildProcess.which("curl") {
            progress("curl fetching the same \(Format.count(subscriptions)) URLs with the same validators")
            let config = folder.url.appendingPathComponent("curl.config")
            try Data(Self.curlConfig(feedsToFetch).utf8).write(to: config)
            var times: [Double] = []
            var curlNotModified: [Int] = []
            for _ in 0..<Self.unchangedRuns {
                let outcome = try ChildProcess.run(curl, ["-s", "--no-progress-meter", "--parallel", "--parallel-max", String(SyncService.concurrentRefreshes), "-K", config.path])
                guard outcome.status == 0 else { throw ChildProcess.Failure(description: "curl failed (status \(outcome.status)): \(outcome.output)") }
                times.append(MonotonicClock.seconds(from: outcome.spawnedAt, to: outcome.exitedAt))
                curlNotModified.append(outcome.output.split(whereSeparator: \.isNewline).filter { $0 == "304" }.count)
            }
            // Like with like: curl must have been answered 304 as the sync was, or the ratio compares bodies with none.
            guard curlNotModified.allSatisfy({ $0 == floorNotModified }) else {
                throw ChildProcess.Failure(description: "curl was answered 304 \(curlNotModified) times, HTTPClient \(floorNotModified): the requests differ")
            }
            let curlTime = Statistics(times).median
            table.add("curl, the same requests in one process", Statistics(times),
                      notes: "curl --parallel --parallel-max \(SyncService.concurrentRefreshes) -K, each feed's If-None-Match and If-Modified-Since; "
                          + "\(curlNotModified[0]) answered 304")
            let ratio = unchangedSync.median / curlTime
            table.add("  unchanged sync / curl", runs: nil, median: Format.ratio(ratio),
                      notes: "target ≤ 2.00×: \(ratio <= 2 ? "met" : "NOT met")")
            table.add("  first sync / curl", runs: nil, median: Format.ratio(firstSeconds / curlTime), notes: "fetch, parse and store vs fetch only")
        } else {
            table.note("curl is not installed (make bench installs it): no comparison")
        }

        if let newsboat = ChildProcess.which("newsboat") {
            progress("newsboat -x reload of the same feeds, twice")
            let root = folder.url.appendingPathComponent("newsboat")
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            let urls = root.appendingPathComponent("urls")
            try Data(set.newsboatURLs().utf8).write(to: urls)
            let config = root.appendingPathComponent("config")
            try Data("reload-threads \(SyncService.concurrentRefreshes)\n".utf8).write(to: config)
            let arguments = ["-u", urls.path, "-c", root.appendingPathComponent("cache.db").path, "-C", config.path, "-x", "reload"]
            let environment = FirstFrame.environment(root: root).merging(["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
                                                                         "LANG": "C.UTF-8"]) { $1 }
            for label in ["newsboat -x reload (cold)", "newsboat -x reload (unchanged)"] {
                let outcome = try ChildProcess.run(newsboat, arguments, environment: environment)
                guard outcome.status == 0 else { throw ChildProcess.Failure(description: "newsboat failed (status \(outcome.status)): \(outcome.output)") }
                table.add(label, runs: 1, median: Format.duration(MonotonicClock.seconds(from: outcome.spawnedAt, to: outcome.exitedAt)),
                          notes: "reload-threads \(SyncService.concurrentRefreshes), the same feeds into its cache")
            }
        } else {
            table.note("newsboat is not installed (make bench installs it): no comparison")
        }
        table.print()
    }
}

/// A library subscribed directly to a served feed set, each feed a publication of its own fetched by Newsstand: the
/// `sync` case's, and the `accounts` case's direct side. Its caller closes the store.
struct DirectSyncLibrary {
    let paths: LibraryPaths
    let store: LibraryStore
    let downloads: DownloadQueue
    let sync: SyncService

    init(_ set: FeedLibraryServer.FeedSet, under root: URL) throws {
        paths = try Self.paths(under: root)
        store = try LibraryStore(file: paths.databaseFile)
        for (number, url) in set.urls.enumerated() {
            try store.addPublication(title: FeedLibraryServer.feedTitle(number), feedURL: url)
        }
        downloads = DownloadQueue(store: store, paths: paths) { _ in }
        sync = SyncService(store: store, paths: paths)
    }

    /// A library's folders under `root` (data, config, cache), made.
    static func paths(under root: URL) throws -> LibraryPaths {
        let paths = LibraryPaths(dataDirectory: root.appendingPathComponent("data"), configDirectory: root.appendingPathComponent("config"),
                                 cacheDirectory: root.appendingPathComponent("cache"))
        try paths.createDirectories()
        return paths
    }
}
